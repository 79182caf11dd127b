// @bomber-game/client: the Bomber protocol for browsers, Node and Electron.
export * from './segment.js';
export { BomberClient, RequestError, ClosedError, TimeoutError, REQUEST_TIMEOUT_MS, SEGMENT_RATE, SEGMENT_BURST } from './client.js';
