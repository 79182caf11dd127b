// Type declarations for @bomber-game/client.
export * from './segment.js';
export { BomberClient, RequestError, ClosedError, TimeoutError, REQUEST_TIMEOUT_MS, BomberEvents, Transport, CreateOptions, Cell, Plane } from './client.js';
