// Type declarations for src/segment.js: the segment codec of the Bomber protocol.

export declare const HEADER_LEN: 3;
export declare const MAX_PAYLOAD: 29;
export declare const MAX_SEGMENT: 32;
export declare const MORE: 0x80;
export declare const MAX_MESSAGE: 1024;
export declare const MAX_STR: 255;
export declare const MAX_MOVE_ARG: 16;
export declare const PROTOCOL_VERSION: 1;
export declare const FEATURE_TABLES: 1;
export declare const FEATURE_CHAT: 2;
export declare const FEATURE_RESUME: 4;
export declare const FEATURE_BOTS: 8;
export declare const FEATURE_CLOCKS: 16;
export declare const FEATURE_GAME_FACTS: 32;
export declare const FEATURE_SIGNUP: 256;
export declare const FEATURE_PAIRING: 512;
export declare const SeekAction: { readonly Play: 0; readonly Cancel: 1; readonly Computer: 2 };
export declare const SeekState: { readonly Waiting: 0; readonly Paired: 1; readonly Cancelled: 2 };
export declare const SEEK_COMPUTER_OFFERED: 1;
export declare const SEEK_PROVISIONAL: 2;
export declare const FEATURE_HISTORY: 1024;
export declare const FEATURE_ACCOUNT: 2048;
export declare const FEATURES_ALL: 4095;
export declare const FEATURE_PING: 64;
export declare const PING_INTERVAL_MS: 15000;
export declare const PING_TIMEOUT_MS: 10000;
export declare const FEATURE_LEGAL: 128;
export declare const LEGAL_MORE: 1;
export declare const LEGAL_TOO_MANY: 2;
export declare const GAME_TAKEBACK: 1;
export declare const GAME_DRAWS: 2;
export declare const TOKEN_LEN: 16;

/** Segment and message types by the spec's names. */
export declare const T: Readonly<{
  Info: 0x00; InfoResp: 0x01; Passwd: 0x02; PasswdResp: 0x03; Refuse: 0x04;
  SyncBegin: 0x06; NewOnline: 0x07; SyncEnd: 0x08; SendInvit: 0x09; RecvInvit: 0x0a;
  InvitResponse: 0x0b; Board: 0x0c; SingleCoord: 0x0d; DoubleCoord: 0x0e;
  GameOver: 0x0f; NewOffline: 0x10;
  Hello: 0x20; Welcome: 0x21; CatalogReq: 0x22; Game: 0x23; Create: 0x24; ListReq: 0x25;
  Join: 0x26; Watch: 0x27; Leave: 0x28; Invite: 0x29; Ready: 0x2a; Move: 0x2b;
  MoveText: 0x2c; ViewReq: 0x2d; Offer: 0x2e; Resign: 0x2f; Chat: 0x30; Table: 0x31;
  Joined: 0x32; Started: 0x33; Step: 0x34; Moved: 0x35; View: 0x36; GameEnd: 0x37;
  Error: 0x38; ChatMsg: 0x39; Invited: 0x3a; Commit: 0x3b; Ping: 0x3c; Pong: 0x3d; SignUp: 0x3e; Ack: 0x3f;
  Bot: 0x40; Seated: 0x41; HintReq: 0x42; Resume: 0x43; Clock: 0x44; Away: 0x45; Bye: 0x46;
  Legal: 0x47;
  Seek: 0x48;
  Seeking: 0x49;
  HistoryReq: 0x4a; RatingRow: 0x4b; GameRow: 0x4c; ReplayReq: 0x4d; Replay: 0x4e; Account: 0x4f;
  Hints: 0x50;
}>;

export declare const ErrCode: Readonly<{
  BadRequest: 1; NoTable: 2; TableFull: 3; NotAtTable: 4; AtTable: 5; Illegal: 6;
  NotYourTurn: 7; GameOver: 8; BadOption: 9; TooManyTables: 10; NotAllowed: 11;
  ChatBadUTF8: 12; ChatTooLong: 13; ChatFlood: 14; NoUser: 15; NotLoggedIn: 16;
  BadNotation: 17; NoOffer: 18; UnknownGame: 19; NotSeated: 20;
  NameTaken: 21; BadName: 22; BadPassword: 23; SignUpClosed: 24; RateLimited: 25; Unavailable: 26;
  WrongPassword: 27;
}>;

export declare const SEAT_ANY: 0xff;
export declare const SEAT_WATCHER: 0xff;
export declare const FLAG_PRIVATE: 1;
export declare const Watch: Readonly<{ Anyone: 0; WithCode: 1; Nobody: 2 }>;
export declare const OptKind: Readonly<{ Int: 0; Bool: 1; Choice: 2; Text: 3 }>;
export declare const Phase: Readonly<{ Waiting: 0; Playing: 1; Over: 2 }>;
export declare const SeatFlag: Readonly<{ Ready: 1; Bot: 2; Gone: 4 }>;
export declare const ClockFlag: Readonly<{ Running: 1; Paused: 2 }>;
export declare const OfferWhat: Readonly<{ Draw: 1; Rematch: 2; Takeback: 3 }>;
export declare const OfferAnswer: Readonly<{ Propose: 0; Accept: 1; Decline: 2 }>;
export declare const OfferState: Readonly<{ Proposed: 0; Agreed: 1; Declined: 2; Expired: 3; Withdrawn: 4 }>;
export declare const Scope: Readonly<{ Lobby: 0; Table: 1; Watchers: 2 }>;
export declare const End: Readonly<{ Won: 1; Drawn: 2 }>;

export declare function typeName(t: number): string;
export declare function errCodeName(code: number): string;

/** A framing error: the byte stream can no longer be trusted and the connection must close. */
export declare class FramingError extends Error {
  kind: 'unknown_type' | 'length' | 'fragment';
}
/** A body that does not match its layout, or a value that cannot be encoded. */
export declare class BodyError extends Error {}

export interface Segment { type: number; payload: Uint8Array }
export interface RawMessage { type: number; body: Uint8Array }

export declare function isExtended(t: number): boolean;
export declare function messageCap(t: number): number;
export declare function checkHeader(t: number, n: number): void;
export declare function encodeSegment(type: number, payload?: Uint8Array): Uint8Array;
export declare function fragment(t: number, body: Uint8Array): Segment[];
export declare function encodeMessage(t: number, body?: Uint8Array): Uint8Array;

/** Streaming decoder: checks each header before buffering its payload. */
export declare class SegmentDecoder {
  readonly partial: boolean;
  push(bytes: Uint8Array): Segment[];
}
/** Joins continuation segments into message bodies, never past a type's cap. */
export declare class Assembler {
  readonly pending: boolean;
  readonly buffered: number;
  add(seg: Segment): RawMessage | null;
}
/** SegmentDecoder and Assembler in one. */
export declare class MessageDecoder {
  segments: SegmentDecoder;
  assembler: Assembler;
  push(bytes: Uint8Array): RawMessage[];
}

export declare class Writer {
  constructor(type: number);
  u8(v: number): this; u16(v: number): this; u32(v: number): this;
  i8(v: number): this; i16(v: number): this; i32(v: number): this;
  raw(p: ArrayLike<number>): this; text(s: string): this; str(s: string): this;
  bytes16(p: ArrayLike<number>): this; h32(h: ArrayLike<number>): this; count(n: number): this;
  done(): Uint8Array;
}
export declare class Reader {
  constructor(type: number, body: Uint8Array);
  readonly len: number;
  take(n: number): Uint8Array;
  u8(): number; u16(): number; u32(): number; i8(): number; i16(): number; i32(): number;
  str(): string; bytes16(): Uint8Array; h32(): Uint8Array; rest(): Uint8Array;
  count(per: number): number; done(): void;
}

export interface KV { key: string; value: string }
export interface HelloMsg { version: number; features: number }
export interface WelcomeBody { version: number; features: number; maxMessage: number }
export interface OptionInfo { key: string; kind: number; default: string; min: number; max: number; choices: string[]; doc: string }
/** title and flags (GAME_TAKEBACK | GAME_DRAWS) come from a server that sends game facts (FEATURE_GAME_FACTS). */
export interface Game { name: string; min: number; max: number; options: OptionInfo[]; title?: string; flags?: number }
export interface CreateMsg { game: string; seats: number; flags?: number; options?: KV[] }
export interface JoinMsg { table: number; seat?: number; code?: string }
export interface WatchMsg { table: number; code?: string }
export interface InviteMsg { user: string }
export interface MoveMsg { kind: number; arg?: ArrayLike<number> }
export interface MoveTextMsg { notation: string }
export interface OfferMsg { what: number; answer: number }
export interface OfferBody { what: number; state: number; seat: number }
export interface ChatBody { scope: number; text: string }
export interface SeatInfo { name: string; flags: number }
export interface Table { id: number; game: string; flags: number; phase: number; watchers: number; code: string; seats: SeatInfo[]; options: KV[] }
export interface JoinedBody { table: number; seat: number }
export interface StartedBody { table: number; seats: number; seedCommit: Uint8Array }
export interface StepBody { seq: number; kind: number; player: number; a: number; b: number; c: number }
export interface MovedBody { seq: number; seat: number; kind: number; arg: Uint8Array; notation: string }
export interface ViewBody { seq: number; viewer: number; status: number; toMove: number[]; scores: number[]; cells: Uint8Array; extra: Uint8Array }
export interface GameEndBody { table: number; status: number; winners: number[]; scores: number[]; reason: string; seed: Uint8Array }
export interface ErrorBody { req: number; code: number; text: string }
export interface ChatMsgBody { scope: number; table: number; from: string; text: string }
export interface InvitedBody { from: string; table: number; game: string; code: string }
export interface CommitBody { table: number; seat: number; hash: Uint8Array }
export interface AckBody { req: number }
export interface BotMsg { seat: number }
export interface SeatedBody { table: number; seat: number; token: Uint8Array }
export interface ResumeMsg { table: number; seat: number; token: Uint8Array; lastSeq: number }
export interface ClockSeat { left: number; flags: number }
export interface ClockBody { table: number; seats: ClockSeat[] }
export interface AwayBody { table: number; seat: number; grace: number }
/** n moves of one kind sharing the first half of their argument (the piece); each suffix is a destination. */
export interface LegalGroup { kind: number; len: number; prefix: number[]; suffixes: number[][] }
export interface LegalBody { table: number; seq: number; seat: number; flags: number; groups: LegalGroup[]; moves: { kind: number; arg: number[] }[] }

export declare function encodeLegal(m: Omit<LegalBody, 'moves'>): Uint8Array;
export declare function decodeLegal(body: Uint8Array): LegalBody;
/** HintReq (C→S): the parts of a move chosen so far (Bomber: head x, y, tail x, y per plane). */
export interface HintReqMsg { table: number; chosen: number[] }
export declare function encodeHintReq(m: HintReqMsg): Uint8Array;
export declare function decodeHintReq(body: Uint8Array): HintReqMsg;
/** Hints (S→C): Legal's layout; each move is a legal next part. */
export declare function encodeHints(m: Omit<LegalBody, 'moves'>): Uint8Array;
export declare function decodeHints(body: Uint8Array): LegalBody;
export declare function encodeHello(m?: Partial<HelloMsg>): Uint8Array;
export declare function decodeHello(body: Uint8Array): HelloMsg;
export declare function encodeWelcome(m: WelcomeBody): Uint8Array;
export declare function decodeWelcome(body: Uint8Array): WelcomeBody;
export declare function encodeGame(m: Game): Uint8Array;
export declare function decodeGame(body: Uint8Array): Game;
export declare function encodeCreate(m: CreateMsg): Uint8Array;
export declare function decodeCreate(body: Uint8Array): Required<CreateMsg>;
export declare function encodeJoin(m: JoinMsg): Uint8Array;
export declare function decodeJoin(body: Uint8Array): Required<JoinMsg>;
export declare function encodeWatch(m: WatchMsg): Uint8Array;
export declare function decodeWatch(body: Uint8Array): Required<WatchMsg>;
export declare function encodeInvite(m: InviteMsg): Uint8Array;
export declare function decodeInvite(body: Uint8Array): InviteMsg;
export declare function encodeMove(m: MoveMsg): Uint8Array;
export declare function decodeMove(body: Uint8Array): { kind: number; arg: Uint8Array };
export declare function encodeMoveText(m: MoveTextMsg): Uint8Array;
export declare function decodeMoveText(body: Uint8Array): MoveTextMsg;
export declare function encodeOfferRequest(m: OfferMsg): Uint8Array;
export declare function decodeOfferRequest(body: Uint8Array): OfferMsg;
export declare function encodeOffer(m: OfferBody): Uint8Array;
export declare function decodeOffer(body: Uint8Array): OfferBody;
export declare function encodeChat(m: ChatBody): Uint8Array;
export declare function decodeChat(body: Uint8Array): ChatBody;
export declare function encodeTable(m: Partial<Table> & { id: number; game: string }): Uint8Array;
export declare function decodeTable(body: Uint8Array): Table;
export declare function encodeJoined(m: JoinedBody): Uint8Array;
export declare function decodeJoined(body: Uint8Array): JoinedBody;
export declare function encodeStarted(m: StartedBody): Uint8Array;
export declare function decodeStarted(body: Uint8Array): StartedBody;
export declare function encodeStep(m: StepBody): Uint8Array;
export declare function decodeStep(body: Uint8Array): StepBody;
export declare function encodeMoved(m: Omit<MovedBody, 'arg'> & { arg?: ArrayLike<number> }): Uint8Array;
export declare function decodeMoved(body: Uint8Array): MovedBody;
export declare function encodeView(m: Omit<ViewBody, 'cells' | 'extra'> & { cells?: ArrayLike<number>; extra?: ArrayLike<number> }): Uint8Array;
export declare function decodeView(body: Uint8Array): ViewBody;
export declare function encodeGameEnd(m: Omit<GameEndBody, 'seed'> & { seed: ArrayLike<number> }): Uint8Array;
export declare function decodeGameEnd(body: Uint8Array): GameEndBody;
export declare function encodeError(m: ErrorBody): Uint8Array;
export declare function decodeError(body: Uint8Array): ErrorBody;
export declare function encodeChatMsg(m: ChatMsgBody): Uint8Array;
export declare function decodeChatMsg(body: Uint8Array): ChatMsgBody;
export declare function encodeInvited(m: InvitedBody): Uint8Array;
export declare function decodeInvited(body: Uint8Array): InvitedBody;
export declare function encodeCommit(m: { table: number; seat: number; hash: ArrayLike<number> }): Uint8Array;
export declare function decodeCommit(body: Uint8Array): CommitBody;
export declare function encodeAck(m: AckBody): Uint8Array;
export declare function decodeAck(body: Uint8Array): AckBody;
export interface SignUpBody { name: string; password: string }
export declare function encodeSignUp(m: SignUpBody): Uint8Array;
export declare function decodeSignUp(body: Uint8Array): SignUpBody;
/** Seek (C→S): play now (action 0, the game, rated, the clock options), cancel (1), take the computer offered (2). */
export interface SeekBody { action?: number; game?: string; rated?: boolean; options?: { key: string; value: string }[] }
export declare function encodeSeek(m: SeekBody): Uint8Array;
export declare function decodeSeek(body: Uint8Array): Required<SeekBody>;
/** Seeking (S→C): the state of the player's seek (SeekState), flags (SEEK_COMPUTER_OFFERED, SEEK_PROVISIONAL), the ratings accepted now. */
export interface SeekingBody { state: number; flags: number; game: string; rated: boolean; rating: number; low: number; high: number; waited: number; options: { key: string; value: string }[] }
export declare function encodeSeeking(m: SeekingBody): Uint8Array;
export declare function decodeSeeking(body: Uint8Array): SeekingBody;
export interface PingBody { nonce: number }
export declare function encodePing(m: PingBody): Uint8Array;
export declare function decodePing(body: Uint8Array): PingBody;
export declare function encodePong(m: PingBody): Uint8Array;
export declare function decodePong(body: Uint8Array): PingBody;
export declare function encodeBot(m?: Partial<BotMsg>): Uint8Array;
export declare function decodeBot(body: Uint8Array): BotMsg;
export declare function encodeSeated(m: SeatedBody): Uint8Array;
export declare function decodeSeated(body: Uint8Array): SeatedBody;
export declare function encodeResume(m: Omit<ResumeMsg, 'lastSeq'> & { lastSeq?: number }): Uint8Array;
export declare function decodeResume(body: Uint8Array): ResumeMsg;
export declare function encodeClock(m: ClockBody): Uint8Array;
export declare function decodeClock(body: Uint8Array): ClockBody;
export declare function encodeAway(m: AwayBody): Uint8Array;
export declare function decodeAway(body: Uint8Array): AwayBody;
export declare function decodeEmpty(body: Uint8Array): {};
export declare function decodeMessage(t: number, body: Uint8Array): object;

export declare function decodeName(payload: Uint8Array): string;
export declare function encodeName(name: string): Uint8Array;
export declare function encodeCoords(...nums: number[]): Uint8Array;
export declare function decodeCoords(payload: Uint8Array): number[] | null;
export declare function toHex(bytes: ArrayLike<number>): string;
export declare function fromHex(s: string): Uint8Array;
/** Text from the server as it may be shown: control and bidi formatting characters replaced by U+FFFD. */
export declare function safeText(s: string): string;

/** What a HistoryReq asks; GameRow results; what an Account message does (section 11). */
export declare const Hist: { readonly Profile: 1; readonly Games: 2; readonly Ratings: 3; readonly Leaders: 4 };
export declare const GameResult: { readonly Lost: 0; readonly Won: 1; readonly Drawn: 2; readonly NoResult: 3 };
export declare const AccountWhat: { readonly Password: 1; readonly Delete: 2 };
export declare const ROW_PROVISIONAL: 1;
export declare const ROW_RATED: 1;
export declare const ROW_BOT: 2;
export interface HistoryReqBody { what: number; user?: string; game?: string; page?: number }
export interface RatingRow { what: number; user: string; game: string; rating: number; deviation: number; games: number; flags: number; at: number; gameID: number; before: number; provisional?: boolean }
export interface GameRow { id: number; game: string; result: number; flags: number; change: number; ended: number; moves: number; reason: string; opponents: string[]; rated?: boolean }
export interface ReplayReqBody { id: number; ply?: number }
export interface ReplayBody { id: number; game: string; ply: number; plies: number; seat: number; notation: string; status: number; reason: string; seats: string[]; options: KV[] }
export interface AccountBody { what: number; password: string; new?: string }
export declare function encodeHistoryReq(m: HistoryReqBody): Uint8Array;
export declare function decodeHistoryReq(body: Uint8Array): Required<HistoryReqBody>;
export declare function encodeRatingRow(m: RatingRow): Uint8Array;
export declare function decodeRatingRow(body: Uint8Array): RatingRow;
export declare function encodeGameRow(m: GameRow): Uint8Array;
export declare function decodeGameRow(body: Uint8Array): GameRow;
export declare function encodeReplayReq(m: ReplayReqBody): Uint8Array;
export declare function decodeReplayReq(body: Uint8Array): Required<ReplayReqBody>;
export declare function encodeReplay(m: ReplayBody): Uint8Array;
export declare function decodeReplay(body: Uint8Array): ReplayBody;
export declare function encodeAccount(m: AccountBody): Uint8Array;
export declare function decodeAccount(body: Uint8Array): Required<AccountBody>;
