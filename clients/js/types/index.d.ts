// Type declarations for @bomber-game/client.
export * from './segment.js';
export { BomberClient, RequestError, ClosedError, TimeoutError, REQUEST_TIMEOUT_MS, SEGMENT_RATE, SEGMENT_BURST, BomberEvents, Transport, CreateOptions, Cell, Plane } from './client.js';
