// Type declarations for src/client.js: BomberClient and its events.
import type {
  Game, Table, JoinedBody, StartedBody, StepBody, MovedBody, ViewBody, GameEndBody,
  CommitBody, OfferBody, ChatMsgBody, InvitedBody, WelcomeBody, ErrorBody, KV,
  SeatedBody, ClockBody, AwayBody, SeekingBody, RatingRow, GameRow, ReplayBody,
} from './segment.js';

/** A request the server refused. */
export declare class RequestError extends Error {
  /** The Error code (docs/protocol.md 8.5), or the reference reply code for a login (0 no such user, 3 wrong password, 4 unavailable). */
  code: number;
  /** The request type it answers (T.Join, ...; T.Info or T.Passwd for a login). */
  req: number;
  text: string;
}
/** The connection closed before the answer came. */
/** reason: the server's Error just before it closed the connection (RateLimited: sent too fast), when it gave one. */
export declare class ClosedError extends Error { reason?: RequestError }
/** The server did not answer a request, the Welcome, a login or a Ping in time. */
export declare class TimeoutError extends Error {}
/** How long a request waits for its answer by default (ms). */
export declare const REQUEST_TIMEOUT_MS: 30000;
/** bomberd's default limits.segment_rate: segments a second a connection may send on average. */
export declare const SEGMENT_RATE: 50;
/** bomberd's default limits.segment_burst: segments a connection may send at once. */
export declare const SEGMENT_BURST: 200;

/** Options of a client: see the BomberClient constructor. */
export interface ClientOptions {
  features?: number;
  /** ms a request, the Welcome or a login waits before it rejects with a TimeoutError (0: forever). */
  requestTimeout?: number;
  /** ms of quiet from the server after which the client pings (FEATURE_PING; 0: never). */
  pingInterval?: number;
  /** ms after a Ping with nothing from the server after which the connection is given up. */
  pingTimeout?: number;
  /** the server's limits.segment_rate; the client paces its sends under it (0: no pacing). */
  segmentRate?: number;
  /** the server's limits.segment_burst. */
  segmentBurst?: number;
}

/** A cell (x the row, y the column, 0..9) of the reference Bomber board. */
export type Cell = [number, number] | { x: number; y: number };
export interface Plane { head: Cell; tail: Cell }

export interface BomberEvents {
  online: { user: string };
  offline: { user: string };
  users: { users: Set<string> };
  table: Table;
  joined: JoinedBody;
  started: StartedBody;
  moved: MovedBody;
  step: StepBody;
  view: ViewBody;
  gameEnd: GameEndBody;
  commit: CommitBody;
  offer: OfferBody;
  chat: ChatMsgBody;
  invited: InvitedBody;
  error: { error: Error; type?: number } & Partial<ErrorBody>;
  close: { error: Error | null; reason: RequestError | null };
  refuse: { code: number };
  recvInvite: { from: string };
  inviteAnswer: { code: number; accepted: boolean };
  board: { planes: { head: [number, number]; tail: [number, number] }[] };
  guess: { kind: 'single'; x: number; y: number } | { kind: 'double'; head: [number, number]; tail: [number, number] };
  gameOver: {};
  seated: SeatedBody;
  clock: ClockBody;
  legal: LegalMoves;
  /** The player's seek (Play now): waiting (its range widening, a computer offered), paired, cancelled. */
  seeking: SeekingBody;
  /** An agreed takeback undid this move (client.moves no longer has it). */
  takeback: MovedBody;
  away: AwayBody;
}

/** A seat's whole legal-move list for one update (tooMany: the server did not list them). */
export interface LegalMoves { table: number; seq: number; seat: number; tooMany: boolean; moves: { kind: number; arg: number[] }[] }

export interface Transport { send(bytes: Uint8Array): void; close(): void; abort?(): void }

export interface CreateOptions {
  game: string;
  seats?: number;
  private?: boolean;
  watch?: 'anyone' | 'code' | 'nobody' | 0 | 1 | 2;
  options?: Record<string, string | number | boolean> | KV[];
}

export declare class BomberClient extends EventTarget {
  constructor(transport: Transport, opts?: ClientOptions);
  static connectTCP(opts?: { host?: string; port?: number } & ClientOptions): Promise<BomberClient>;
  static connectWebSocket(url: string, opts?: { WebSocket?: typeof WebSocket } & ClientOptions): Promise<BomberClient>;

  readonly welcome: WelcomeBody | null;
  readonly user: string | null;
  readonly users: Set<string>;
  readonly table: Table | null;
  readonly tableId: number;
  readonly seat: number | null;
  readonly view: ViewBody | null;
  readonly moves: MovedBody[];
  readonly seated: SeatedBody | null;
  readonly lastSeq: number;
  readonly clock: ClockBody | null;
  /** Your legal moves while your seat is to move (FEATURE_LEGAL); null otherwise. */
  readonly legal: LegalMoves | null;
  readonly closed: boolean;

  close(): void;
  /** Round trip in ms of a Ping (FEATURE_PING). */
  ping(): Promise<number>;
  on<K extends keyof BomberEvents>(type: K, fn: (detail: BomberEvents[K]) => void): () => void;
  next<K extends keyof BomberEvents>(type: K, pred?: (detail: BomberEvents[K]) => boolean): Promise<BomberEvents[K]>;
  addEventListener<K extends keyof BomberEvents>(type: K, fn: (e: CustomEvent<BomberEvents[K]>) => void, opts?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, fn: EventListenerOrEventListenerObject | null, opts?: boolean | AddEventListenerOptions): void;

  /** Makes an account (FEATURE_SIGNUP) before logging in; rejects with a RequestError (NameTaken, BadName, BadPassword, SignUpClosed, RateLimited, Unavailable). */
  signUp(name: string, password: string): Promise<true>;
  /** A player's ratings (FEATURE_HISTORY; no user: yourself); rejects with NoUser. */
  profile(user?: string): Promise<{ user: string; ratings: RatingRow[]; games: number }>;
  /** A page (10, newest first) of a player's games, of one game or all. */
  games(user?: string, opts?: { game?: string; page?: number }): Promise<GameRow[]>;
  /** What a player's rated games did to their rating, newest first. */
  ratingHistory(user?: string, game?: string): Promise<RatingRow[]>;
  /** A game's leaderboard: established ratings, highest first. */
  leaderboard(game: string): Promise<RatingRow[]>;
  /** The position after ply moves of a stored game, computed by the server's rules. */
  replay(id: number, ply?: number): Promise<{ replay: ReplayBody; view: ViewBody }>;
  /** Changes your password (FEATURE_ACCOUNT); rejects with WrongPassword, BadPassword, RateLimited. */
  changePassword(current: string, fresh: string): Promise<true>;
  /** Deletes your account; the server then closes the connection. */
  deleteAccount(password: string): Promise<true>;
  login(name: string, password: string): Promise<void>;
  /** Play now (FEATURE_PAIRING): enters the pool of game, time control (clock options) and rated flag; resolves with the first Seeking. */
  seek(game: string, opts?: { rated?: boolean; clock?: Record<string, number | string> }): Promise<SeekingBody>;
  /** Leaves the pool; resolves with the Seeking that says so. */
  cancelSeek(): Promise<SeekingBody>;
  /** Takes the computer opponent the server offered; resolves with the new table. */
  playComputer(): Promise<Table>;
  /** The player's seek while it waits, else null. */
  readonly seeking: SeekingBody | null;
  catalog(): Promise<Game[]>;
  listTables(): Promise<Table[]>;
  createTable(opts: CreateOptions): Promise<Table>;
  join(tableId: number, opts?: { seat?: number; code?: string }): Promise<Table>;
  watch(tableId: number, opts?: { code?: string }): Promise<Table>;
  leave(): Promise<true>;
  invite(user: string): Promise<void>;
  ready(): Promise<true>;
  move(m: { kind: number; arg?: ArrayLike<number> }): Promise<MovedBody>;
  moveText(text: string): Promise<MovedBody>;
  requestView(): Promise<ViewBody>;
  /** The legal next parts of a move built in parts (FEATURE_LEGAL), given the bytes of the parts chosen so far. */
  hints(chosen?: ArrayLike<number>): Promise<{ table: number; seq: number; seat: number; moves: { kind: number; arg: number[] }[] }>;
  /** Bomber: from the planes drawn so far ([head, tail] cells x*10+y), each cell a head may take and its tails. */
  planeHints(planes?: [number, number][]): Promise<Map<number, number[]>>;
  offer(what: 'draw' | 'rematch' | 'takeback' | number, answer?: 'propose' | 'accept' | 'decline' | number): Promise<OfferBody | undefined>;
  resign(): Promise<void>;
  chat(scope: 'lobby' | 'table' | 'watchers' | number, text: string): Promise<ChatMsgBody>;

  addBot(seat?: number): Promise<void>;
  resume(opts?: { table?: number; seat?: number; token?: Uint8Array; lastSeq?: number }): Promise<Table>;
  bye(): void;

  sendInvite(user: string): void;
  answerInvite(accept: boolean): void;
  sendBoard(planes: Plane[] | number[][]): void;
  guess(x: number, y: number): void;
  guessPlane(head: Cell, tail: Cell): void;
}

export { T, SEAT_ANY, SEAT_WATCHER, ErrCode, Phase, SeatFlag, Scope } from './segment.js';
