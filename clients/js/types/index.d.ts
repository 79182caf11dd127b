// Type declarations for @bomber-game/client.
export * from './segment.js';
export { BomberClient, RequestError, ClosedError, BomberEvents, Transport, CreateOptions, Cell, Plane } from './client.js';
