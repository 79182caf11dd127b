// Segment codec of the Bomber protocol (docs/protocol.md sections 1, 2 and 8),
// a mirror of the Go package segment: framing (segment.go), continuation
// (ext.go), body primitives (body.go) and the typed messages (messages.go).
// It does no I/O and works the same in browsers, Node and Electron.

/** Framing limits. */
export const HEADER_LEN = 3;
export const MAX_PAYLOAD = 29;
export const MAX_SEGMENT = HEADER_LEN + MAX_PAYLOAD;
export const MORE = 0x80;
export const MAX_MESSAGE = 1024;
export const MAX_STR = 255;
export const MAX_MOVE_ARG = 16;
export const PROTOCOL_VERSION = 1;

/** Feature bits of Hello and Welcome. */
export const FEATURE_TABLES = 1;
export const FEATURE_CHAT = 2;
export const FEATURE_RESUME = 4;
export const FEATURE_BOTS = 8;
export const FEATURE_CLOCKS = 16;
/** Each Game of the catalogue ends with the game's title and flags (GAME_TAKEBACK, GAME_DRAWS). */
export const FEATURE_GAME_FACTS = 32;
/** Ping and Pong: liveness (section 8.4, "Ping"). */
export const FEATURE_PING = 64;
/** The seat to move receives Legal: its legal moves, a piece and its destinations (section 10). */
export const FEATURE_LEGAL = 128;
/** SignUp: make an account before logging in (section 8.4, "SignUp"). */
export const FEATURE_SIGNUP = 256;
/** Quick pairing, "Play <game> now": Seek and Seeking (section 8.4, "Seek"). */
export const FEATURE_PAIRING = 512;
/** Seek actions; Seeking states and flags. */
export const SeekAction = Object.freeze({ Play: 0, Cancel: 1, Computer: 2 });
export const SeekState = Object.freeze({ Waiting: 0, Paired: 1, Cancelled: 2 });
export const SEEK_COMPUTER_OFFERED = 1;
export const SEEK_PROVISIONAL = 2;
/** Profiles, game histories, leaderboards and replay (section 11). */
export const FEATURE_HISTORY = 1024;
/** Account care: change the password, delete the account (section 11). */
export const FEATURE_ACCOUNT = 2048;
/** Every feature this library speaks (what it asks for in Hello). */
export const FEATURES_ALL = 4095;
/** Liveness (segment.PingInterval, PingTimeout): ping after this long without hearing from the server... */
export const PING_INTERVAL_MS = 15000;
/** ...and give the connection up when nothing came this long after the Ping. */
export const PING_TIMEOUT_MS = 10000;
/** Legal flags: another Legal of the same update follows; too many moves to list. */
export const LEGAL_MORE = 1;
export const LEGAL_TOO_MANY = 2;
/** Flags of a Game (with FEATURE_GAME_FACTS): the offers the game allows. */
export const GAME_TAKEBACK = 1;
export const GAME_DRAWS = 2;
/** Length of a resume token (Seated, Resume). */
export const TOKEN_LEN = 16;

/** Segment and message types, by the spec's names. */
export const T = Object.freeze({
  Info: 0x00, InfoResp: 0x01, Passwd: 0x02, PasswdResp: 0x03, Refuse: 0x04,
  SyncBegin: 0x06, NewOnline: 0x07, SyncEnd: 0x08, SendInvit: 0x09, RecvInvit: 0x0a,
  InvitResponse: 0x0b, Board: 0x0c, SingleCoord: 0x0d, DoubleCoord: 0x0e,
  GameOver: 0x0f, NewOffline: 0x10,
  Hello: 0x20, Welcome: 0x21, CatalogReq: 0x22, Game: 0x23, Create: 0x24, ListReq: 0x25,
  Join: 0x26, Watch: 0x27, Leave: 0x28, Invite: 0x29, Ready: 0x2a, Move: 0x2b,
  MoveText: 0x2c, ViewReq: 0x2d, Offer: 0x2e, Resign: 0x2f, Chat: 0x30, Table: 0x31,
  Joined: 0x32, Started: 0x33, Step: 0x34, Moved: 0x35, View: 0x36, GameEnd: 0x37,
  Error: 0x38, ChatMsg: 0x39, Invited: 0x3a, Commit: 0x3b, Ping: 0x3c, Pong: 0x3d, SignUp: 0x3e, Ack: 0x3f,
  Bot: 0x40, Seated: 0x41, HintReq: 0x42, Resume: 0x43, Clock: 0x44, Away: 0x45, Bye: 0x46,
  Legal: 0x47, Seek: 0x48, Seeking: 0x49,
  HistoryReq: 0x4a, RatingRow: 0x4b, GameRow: 0x4c, ReplayReq: 0x4d, Replay: 0x4e, Account: 0x4f,
  Hints: 0x50,
});

const NAMES = Object.fromEntries(Object.entries(T).map(([k, v]) => [v, k]));

/** The spec's name of a type ("Chat|More" for a fragment). */
export function typeName(t) {
  if (isExtended(t) && t & MORE) return `${typeName(t & ~MORE)}|More`;
  return NAMES[t] ?? `Type(0x${t.toString(16).padStart(2, '0')})`;
}

// Payload length bounds of the reference types (segment.go's lengths).
const REF_LENGTHS = {
  0x00: [0, 29], 0x01: [1, 1], 0x02: [0, 29], 0x03: [1, 1], 0x04: [1, 1], 0x06: [0, 29],
  0x07: [0, 29], 0x08: [0, 0], 0x09: [0, 29], 0x0a: [0, 29], 0x0b: [1, 1], 0x0c: [0, 29],
  0x0d: [0, 29], 0x0e: [0, 29], 0x0f: [0, 0], 0x10: [0, 29],
};

// Body caps of the extended types (ext.go's caps).
const CAPS = {
  0x20: 29, 0x21: 29, 0x22: 0, 0x23: 1024, 0x24: 256, 0x25: 0, 0x26: 64, 0x27: 64, 0x28: 0,
  0x29: 32, 0x2a: 0, 0x2b: 18, 0x2c: 64, 0x2d: 0, 0x2e: 8, 0x2f: 0, 0x30: 300, 0x31: 512,
  0x32: 29, 0x33: 64, 0x34: 29, 0x35: 96, 0x36: 1024, 0x37: 128, 0x38: 64, 0x39: 340,
  0x3a: 96, 0x3b: 64, 0x3c: 4, 0x3d: 4, 0x3e: 64, 0x3f: 29,
  0x40: 1, 0x41: 29, 0x42: 29, 0x43: 29, 0x44: 64, 0x45: 29, 0x46: 0, 0x47: 1024, 0x48: 256, 0x49: 256,
  0x4a: 64, 0x4b: 96, 0x4c: 200, 0x4d: 10, 0x4e: 512, 0x4f: 64, 0x50: 1024,
};

/** Error codes of the extended protocol (section 8.5). */
export const ErrCode = Object.freeze({
  BadRequest: 1, NoTable: 2, TableFull: 3, NotAtTable: 4, AtTable: 5, Illegal: 6,
  NotYourTurn: 7, GameOver: 8, BadOption: 9, TooManyTables: 10, NotAllowed: 11,
  ChatBadUTF8: 12, ChatTooLong: 13, ChatFlood: 14, NoUser: 15, NotLoggedIn: 16,
  BadNotation: 17, NoOffer: 18, UnknownGame: 19, NotSeated: 20,
  NameTaken: 21, BadName: 22, BadPassword: 23, SignUpClosed: 24, RateLimited: 25, Unavailable: 26,
  WrongPassword: 27,
});
const ERR_NAMES = Object.fromEntries(Object.entries(ErrCode).map(([k, v]) => [v, k]));

/** The spec's name of an Error code ("TableFull"). */
export function errCodeName(code) { return ERR_NAMES[code] ?? `code${code}`; }

/** Special seats, flags, phases, offers, scopes and end statuses (messages.go). */
export const SEAT_ANY = 0xff;
export const SEAT_WATCHER = 0xff;
export const FLAG_PRIVATE = 1;
export const Watch = Object.freeze({ Anyone: 0, WithCode: 1, Nobody: 2 });
export const OptKind = Object.freeze({ Int: 0, Bool: 1, Choice: 2, Text: 3 });
export const Phase = Object.freeze({ Waiting: 0, Playing: 1, Over: 2 });
export const SeatFlag = Object.freeze({ Ready: 1, Bot: 2, Gone: 4 });
export const ClockFlag = Object.freeze({ Running: 1, Paused: 2 });
export const OfferWhat = Object.freeze({ Draw: 1, Rematch: 2, Takeback: 3 });
export const OfferAnswer = Object.freeze({ Propose: 0, Accept: 1, Decline: 2 });
export const OfferState = Object.freeze({ Proposed: 0, Agreed: 1, Declined: 2, Expired: 3, Withdrawn: 4 });
export const Scope = Object.freeze({ Lobby: 0, Table: 1, Watchers: 2 });
export const End = Object.freeze({ Won: 1, Drawn: 2 });

/** Thrown for a framing error: the byte stream can no longer be trusted. */
export class FramingError extends Error {
  constructor(message, kind) {
    super(message);
    this.name = 'FramingError';
    /** 'unknown_type' | 'length' | 'fragment' */
    this.kind = kind;
  }
}

/** Thrown for a body that does not match its layout, or one that cannot be encoded. */
export class BodyError extends Error {
  constructor(message) { super(message); this.name = 'BodyError'; }
}

/** Whether t lies in the extended range 0x20..0x50, with or without the More bit. */
export function isExtended(t) { const b = t & ~MORE; return b >= 0x20 && b <= 0x50; }

/** The largest body of t's base type, or -1 when t is no extended message type. */
export function messageCap(t) {
  if (!isExtended(t)) return -1;
  return CAPS[t & ~MORE] ?? -1;
}

/**
 * Checks a header before its payload is read, as CheckHeader does: reference
 * types against their bounds (only when reference types are allowed),
 * extended ones against the continuation rules.
 */
export function checkHeader(t, n) {
  if (isExtended(t)) {
    const c = messageCap(t);
    if (c < 0) throw new FramingError(`unknown segment descriptor 0x${hex2(t)}`, 'unknown_type');
    if (t & MORE) {
      if (c <= MAX_PAYLOAD || n !== MAX_PAYLOAD) {
        throw new FramingError(`bad segment length: ${typeName(t)} with ${n} payload bytes`, 'length');
      }
      return;
    }
    if (n < 0 || n > Math.min(MAX_PAYLOAD, c)) {
      throw new FramingError(`bad segment length: ${typeName(t)} with ${n} payload bytes`, 'length');
    }
    return;
  }
  const l = REF_LENGTHS[t];
  if (!l) throw new FramingError(`unknown segment descriptor 0x${hex2(t)}`, 'unknown_type');
  if (n < l[0] || n > l[1]) {
    throw new FramingError(`bad segment length: ${typeName(t)} with ${n} payload bytes (want ${l[0]}..${l[1]})`, 'length');
  }
}

function hex2(b) { return b.toString(16).padStart(2, '0'); }

/** One segment's wire bytes. */
export function encodeSegment(type, payload = new Uint8Array(0)) {
  checkHeader(type, payload.length);
  const out = new Uint8Array(HEADER_LEN + payload.length);
  out[0] = type;
  out[1] = payload.length >> 8;
  out[2] = payload.length & 0xff;
  out.set(payload, HEADER_LEN);
  return out;
}

/**
 * The segments carrying one message of extended type t, as an array of
 * {type, payload}: every chunk but the last T|More with 29 bytes.
 */
export function fragment(t, body) {
  const c = messageCap(t);
  if (c < 0) throw new BodyError(`${typeName(t)} is not an extended message type`);
  if (body.length > c) throw new BodyError(`${typeName(t)} body of ${body.length} bytes (cap ${c})`);
  const segs = [];
  let off = 0;
  while (body.length - off > MAX_PAYLOAD) {
    segs.push({ type: t | MORE, payload: body.subarray(off, off + MAX_PAYLOAD) });
    off += MAX_PAYLOAD;
  }
  segs.push({ type: t, payload: body.subarray(off) });
  return segs;
}

/**
 * The wire bytes of a whole message (all its segments back to back). A
 * reference type (0x00-0x10) is one segment with body as its payload.
 */
export function encodeMessage(t, body = new Uint8Array(0)) {
  const segs = isExtended(t) ? fragment(t, body) : [{ type: t, payload: body }];
  const out = new Uint8Array(segs.reduce((n, s) => n + HEADER_LEN + s.payload.length, 0));
  let off = 0;
  for (const s of segs) {
    out.set(encodeSegment(s.type, s.payload), off);
    off += HEADER_LEN + s.payload.length;
  }
  return out;
}

/**
 * Streaming segment decoder: push bytes in any split, get whole segments.
 * Each header is checked as soon as its 3 bytes are in (an unknown
 * descriptor at its first byte), before any payload is buffered, so it never
 * holds more than one segment. After a framing error it keeps throwing it.
 */
export class SegmentDecoder {
  constructor() {
    this._buf = new Uint8Array(MAX_SEGMENT);
    this._have = 0;
    this._need = HEADER_LEN;
    this._err = null;
  }

  /** Whether part of a segment is buffered. */
  get partial() { return this._have > 0; }

  /** Feeds bytes; returns the whole segments they complete as {type, payload}. */
  push(bytes) {
    if (this._err) throw this._err;
    const out = [];
    let i = 0;
    try {
      while (i < bytes.length) {
        if (this._have === 0) {
          const t = bytes[i];
          if (!isExtended(t) && !REF_LENGTHS[t]) checkHeader(t, 0); // throws at the first byte
          if (isExtended(t) && messageCap(t) < 0) checkHeader(t, 0);
        }
        const k = Math.min(this._need - this._have, bytes.length - i);
        this._buf.set(bytes.subarray(i, i + k), this._have);
        this._have += k;
        i += k;
        if (this._have < this._need) break;
        if (this._need === HEADER_LEN) {
          const n = (this._buf[1] << 8) | this._buf[2];
          checkHeader(this._buf[0], n);
          this._need = HEADER_LEN + n;
        }
        if (this._have === this._need) {
          out.push({ type: this._buf[0], payload: this._buf.slice(HEADER_LEN, this._need) });
          this._have = 0;
          this._need = HEADER_LEN;
        }
      }
    } catch (e) {
      this._err = e;
      throw e;
    }
    return out;
  }
}

/**
 * Joins the segments of messages back into bodies, with the same caps and
 * rules as the Go Assembler: a body never grows past its type's cap.
 */
export class Assembler {
  constructor() {
    this._t = 0;
    this._pending = false;
    this._parts = [];
    this._len = 0;
    this._err = null;
  }

  /** Whether a fragment arrived and its message is not complete. */
  get pending() { return this._pending; }

  /** Body bytes held for the message in progress. */
  get buffered() { return this._pending ? this._len : 0; }

  /**
   * Takes the next segment; returns {type, body} when it completes a
   * message, else null. Throws FramingError on a continuation violation.
   */
  add(seg) {
    if (this._err) throw this._err;
    const { type, payload } = seg;
    try {
      if (!isExtended(type)) {
        if (this._pending) throw new FramingError(`bad message fragmentation: ${typeName(type)} arrived inside a ${typeName(this._t)} message`, 'fragment');
        checkHeader(type, payload.length);
        return { type, body: payload };
      }
      const base = type & ~MORE;
      const c = messageCap(base);
      if (c < 0) throw new FramingError(`unknown segment descriptor 0x${hex2(type)}`, 'unknown_type');
      if (this._pending && base !== this._t) {
        throw new FramingError(`bad message fragmentation: ${typeName(type)} arrived inside a ${typeName(this._t)} message`, 'fragment');
      }
      if (!this._pending) { this._parts = []; this._len = 0; }
      const n = this._len + payload.length;
      const frag = (type & MORE) !== 0;
      if (n > c) throw new FramingError(`bad message fragmentation: ${typeName(base)} body passes its cap of ${c} bytes`, 'fragment');
      if (frag && payload.length !== MAX_PAYLOAD) throw new FramingError(`bad message fragmentation: ${typeName(base)} fragment of ${payload.length} bytes`, 'fragment');
      if (!frag && this._pending && payload.length === 0) throw new FramingError(`bad message fragmentation: empty last segment of a ${typeName(base)} message`, 'fragment');
      this._parts.push(payload);
      this._len = n;
      if (frag) { this._t = base; this._pending = true; return null; }
      this._pending = false;
      const body = this._parts.length === 1 ? this._parts[0] : concat(this._parts, n);
      this._parts = [];
      this._len = 0;
      return { type: base, body };
    } catch (e) {
      if (e instanceof FramingError) { this._err = e; this._pending = false; this._parts = []; }
      throw e;
    }
  }
}

function concat(parts, n) {
  const out = new Uint8Array(n);
  let off = 0;
  for (const p of parts) { out.set(p, off); off += p.length; }
  return out;
}

/** Bytes to messages: a SegmentDecoder and an Assembler in one. */
export class MessageDecoder {
  constructor() { this.segments = new SegmentDecoder(); this.assembler = new Assembler(); }
  /** Feeds bytes; returns the whole messages they complete as {type, body}. */
  push(bytes) {
    const out = [];
    for (const s of this.segments.push(bytes)) {
      const m = this.assembler.add(s);
      if (m) out.push(m);
    }
    return out;
  }
}

// ---- body primitives (body.go) ----

const utf8enc = new TextEncoder();
const utf8dec = new TextDecoder();

/** Builds a body field by field (big-endian), refusing what cannot be sent. */
export class Writer {
  constructor(type) { this.type = type; this.b = []; }
  u8(v) { this.b.push(v & 0xff); return this; }
  u16(v) { this.b.push((v >> 8) & 0xff, v & 0xff); return this; }
  u32(v) { this.b.push((v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff); return this; }
  /** u64 from a Number (exact up to 2^53: game ids). */
  u64(v) { return this.u32(Math.floor(v / 2 ** 32)).u32(v % 2 ** 32); }
  i8(v) { return this.u8(v); }
  i16(v) { return this.u16(v & 0xffff); }
  i32(v) { return this.u32(v >>> 0); }
  raw(p) { for (const x of p) this.b.push(x); return this; }
  text(s) { return this.raw(utf8enc.encode(s)); }
  str(s) {
    const p = utf8enc.encode(s ?? '');
    if (p.length > MAX_STR) throw new BodyError(`${typeName(this.type)}: str of ${p.length} bytes (max ${MAX_STR})`);
    return this.u8(p.length).raw(p);
  }
  bytes16(p) {
    if (p.length > 0xffff) throw new BodyError(`${typeName(this.type)}: bytes16 of ${p.length} bytes`);
    return this.u16(p.length).raw(p);
  }
  h32(h) {
    if (!h || h.length !== 32) throw new BodyError(`${typeName(this.type)}: h32 needs 32 bytes`);
    return this.raw(h);
  }
  count(n) {
    if (n > 0xff) throw new BodyError(`${typeName(this.type)}: list of ${n} items (max 255)`);
    return this.u8(n);
  }
  /** The body, checked against the type's cap. */
  done() {
    const c = messageCap(this.type);
    if (c >= 0 && this.b.length > c) throw new BodyError(`${typeName(this.type)} body of ${this.b.length} bytes (cap ${c})`);
    return Uint8Array.from(this.b);
  }
}

/** Reads a body field by field; any shortfall or leftover throws BodyError. */
export class Reader {
  constructor(type, body) {
    this.type = type;
    this.b = body;
    this.i = 0;
    const c = messageCap(type);
    if (c >= 0 && body.length > c) throw new BodyError(`${typeName(type)} body of ${body.length} bytes (cap ${c})`);
  }
  take(n) {
    if (this.i + n > this.b.length) throw new BodyError(`${typeName(this.type)}: ${this.i + n - this.b.length} bytes short`);
    const p = this.b.subarray(this.i, this.i + n);
    this.i += n;
    return p;
  }
  get len() { return this.b.length - this.i; }
  u8() { return this.take(1)[0]; }
  u16() { const p = this.take(2); return (p[0] << 8) | p[1]; }
  u32() { const p = this.take(4); return ((p[0] << 24) | (p[1] << 16) | (p[2] << 8) | p[3]) >>> 0; }
  /** u64 as a Number (exact up to 2^53: game ids). */
  u64() { const hi = this.u32(); return hi * 2 ** 32 + this.u32(); }
  strs() { const n = this.count(1); const out = []; for (let i = 0; i < n; i++) out.push(this.str()); return out; }
  i8() { return (this.u8() << 24) >> 24; }
  i16() { return (this.u16() << 16) >> 16; }
  i32() { return this.u32() | 0; }
  str() { return utf8dec.decode(this.take(this.u8())); }
  bytes16() { return this.take(this.u16()).slice(); }
  h32() { return this.take(32).slice(); }
  rest() { return this.take(this.len); }
  count(per) {
    const n = this.u8();
    if (n * per > this.len) throw new BodyError(`${typeName(this.type)}: ${n} items cannot fit in ${this.len} bytes`);
    return n;
  }
  done() {
    if (this.len > 0) throw new BodyError(`${typeName(this.type)}: ${this.len} bytes left over`);
  }
}

function kvs(w, list = []) {
  w.count(list.length);
  for (const { key, value } of list) w.str(key).str(String(value));
}
function readKVs(r) {
  const n = r.count(2);
  const out = [];
  for (let i = 0; i < n; i++) out.push({ key: r.str(), value: r.str() });
  return out;
}
function moveArg(w, arg = []) {
  if (arg.length > MAX_MOVE_ARG) throw new BodyError(`${typeName(w.type)}: argument of ${arg.length} bytes (max ${MAX_MOVE_ARG})`);
  w.u8(arg.length).raw(arg);
}
function readMoveArg(r) {
  const n = r.u8();
  if (n > MAX_MOVE_ARG) throw new BodyError(`move argument of ${n} bytes (max ${MAX_MOVE_ARG})`);
  return r.take(n).slice();
}
function u8s(w, v = []) { w.count(v.length).raw(v); }
function i16s(w, v = []) { w.count(v.length); for (const x of v) w.i16(x); }
function readU8s(r) { return Array.from(r.take(r.count(1))); }
function readI16s(r) { const n = r.count(2); const v = []; for (let i = 0; i < n; i++) v.push(r.i16()); return v; }

// ---- typed messages (messages.go): encodeX(msg) → body, decodeX(body) → msg ----

/** Hello (C→S): {version, features}. */
export function encodeHello({ version = PROTOCOL_VERSION, features = FEATURE_TABLES | FEATURE_CHAT } = {}) {
  return new Writer(T.Hello).u8(version).u32(features).done();
}
export function decodeHello(body) {
  const r = new Reader(T.Hello, body);
  const m = { version: r.u8(), features: r.u32() };
  r.done();
  return m;
}

/** Welcome (S→C): {version, features, maxMessage}. */
export function encodeWelcome({ version, features, maxMessage }) {
  return new Writer(T.Welcome).u8(version).u32(features).u16(maxMessage).done();
}
export function decodeWelcome(body) {
  const r = new Reader(T.Welcome, body);
  const m = { version: r.u8(), features: r.u32(), maxMessage: r.u16() };
  r.done();
  return m;
}

/**
 * Game (S→C): {name, min, max, options: [{key, kind, default, min, max, choices, doc}]},
 * then {title, flags} from a server that sends the game facts (FEATURE_GAME_FACTS);
 * without a title neither is encoded, as for a client that did not ask.
 */
export function encodeGame({ name, min, max, options = [], title, flags = 0 }) {
  const w = new Writer(T.Game).str(name).u8(min).u8(max).count(options.length);
  for (const o of options) {
    w.str(o.key).u8(o.kind).str(o.default).i32(o.min ?? 0).i32(o.max ?? 0);
    w.count((o.choices ?? []).length);
    for (const c of o.choices ?? []) w.str(c);
    w.str(o.doc ?? '');
  }
  if (title !== undefined) w.str(title).u8(flags);
  return w.done();
}
export function decodeGame(body) {
  const r = new Reader(T.Game, body);
  const m = { name: r.str(), min: r.u8(), max: r.u8(), options: [] };
  const n = r.count(13);
  for (let i = 0; i < n; i++) {
    const o = { key: r.str(), kind: r.u8(), default: r.str(), min: r.i32(), max: r.i32(), choices: [] };
    const k = r.count(1);
    for (let j = 0; j < k; j++) o.choices.push(r.str());
    o.doc = r.str();
    m.options.push(o);
  }
  if (r.len > 0) { m.title = r.str(); m.flags = r.u8(); }
  r.done();
  return m;
}

/** Create (C→S): {game, seats, flags, options: [{key, value}]}. */
export function encodeCreate({ game, seats, flags = 0, options = [] }) {
  const w = new Writer(T.Create).str(game).u8(seats).u8(flags);
  kvs(w, options);
  return w.done();
}
export function decodeCreate(body) {
  const r = new Reader(T.Create, body);
  const m = { game: r.str(), seats: r.u8(), flags: r.u8(), options: readKVs(r) };
  r.done();
  return m;
}

/** Join (C→S): {table, seat, code}. */
export function encodeJoin({ table, seat = SEAT_ANY, code = '' }) {
  return new Writer(T.Join).u32(table).u8(seat).str(code).done();
}
export function decodeJoin(body) {
  const r = new Reader(T.Join, body);
  const m = { table: r.u32(), seat: r.u8(), code: r.str() };
  r.done();
  return m;
}

/** Watch (C→S): {table, code}. */
export function encodeWatch({ table, code = '' }) {
  return new Writer(T.Watch).u32(table).str(code).done();
}
export function decodeWatch(body) {
  const r = new Reader(T.Watch, body);
  const m = { table: r.u32(), code: r.str() };
  r.done();
  return m;
}

/** Invite (C→S): {user}. */
export function encodeInvite({ user }) { return new Writer(T.Invite).str(user).done(); }
export function decodeInvite(body) {
  const r = new Reader(T.Invite, body);
  const m = { user: r.str() };
  r.done();
  return m;
}

/** Move (C→S): {kind, arg} (arg: up to 16 bytes). */
export function encodeMove({ kind, arg = [] }) {
  const w = new Writer(T.Move).u8(kind);
  moveArg(w, arg);
  return w.done();
}
export function decodeMove(body) {
  const r = new Reader(T.Move, body);
  const m = { kind: r.u8(), arg: readMoveArg(r) };
  r.done();
  return m;
}

/** MoveText (C→S): {notation}. */
export function encodeMoveText({ notation }) { return new Writer(T.MoveText).text(notation).done(); }
export function decodeMoveText(body) {
  const r = new Reader(T.MoveText, body);
  return { notation: utf8dec.decode(r.rest()) };
}

/** Offer, client to server: {what, answer}. */
export function encodeOfferRequest({ what, answer }) { return new Writer(T.Offer).u8(what).u8(answer).done(); }
export function decodeOfferRequest(body) {
  const r = new Reader(T.Offer, body);
  const m = { what: r.u8(), answer: r.u8() };
  r.done();
  return m;
}

/** Offer, server to client: {what, state, seat}. */
export function encodeOffer({ what, state, seat }) { return new Writer(T.Offer).u8(what).u8(state).u8(seat).done(); }
export function decodeOffer(body) {
  const r = new Reader(T.Offer, body);
  const m = { what: r.u8(), state: r.u8(), seat: r.u8() };
  r.done();
  return m;
}

/** Chat (C→S): {scope, text}. */
export function encodeChat({ scope, text }) { return new Writer(T.Chat).u8(scope).text(text).done(); }
export function decodeChat(body) {
  const r = new Reader(T.Chat, body);
  return { scope: r.u8(), text: utf8dec.decode(r.rest()) };
}

/** Table (S→C): {id, game, flags, phase, watchers, code, seats: [{name, flags}], options: [{key, value}]}. */
export function encodeTable({ id, game, flags = 0, phase = 0, watchers = 0, code = '', seats = [], options = [] }) {
  const w = new Writer(T.Table).u32(id).str(game).u8(flags).u8(phase).u16(watchers).str(code).count(seats.length);
  for (const s of seats) w.str(s.name).u8(s.flags);
  kvs(w, options);
  return w.done();
}
export function decodeTable(body) {
  const r = new Reader(T.Table, body);
  const m = { id: r.u32(), game: r.str(), flags: r.u8(), phase: r.u8(), watchers: r.u16(), code: r.str(), seats: [] };
  const n = r.count(2);
  for (let i = 0; i < n; i++) m.seats.push({ name: r.str(), flags: r.u8() });
  m.options = readKVs(r);
  r.done();
  return m;
}

/** Joined (S→C): {table, seat}; table 0: you left; seat 255: you watch. */
export function encodeJoined({ table, seat }) { return new Writer(T.Joined).u32(table).u8(seat).done(); }
export function decodeJoined(body) {
  const r = new Reader(T.Joined, body);
  const m = { table: r.u32(), seat: r.u8() };
  r.done();
  return m;
}

/** Started (S→C): {table, seats, seedCommit}. */
export function encodeStarted({ table, seats, seedCommit }) { return new Writer(T.Started).u32(table).u8(seats).h32(seedCommit).done(); }
export function decodeStarted(body) {
  const r = new Reader(T.Started, body);
  const m = { table: r.u32(), seats: r.u8(), seedCommit: r.h32() };
  r.done();
  return m;
}

/** Step (S→C): {seq, kind, player, a, b, c}. */
export function encodeStep({ seq, kind, player, a, b, c }) {
  return new Writer(T.Step).u32(seq).u8(kind).i8(player).i16(a).i16(b).i16(c).done();
}
export function decodeStep(body) {
  const r = new Reader(T.Step, body);
  const m = { seq: r.u32(), kind: r.u8(), player: r.i8(), a: r.i16(), b: r.i16(), c: r.i16() };
  r.done();
  return m;
}

/** Moved (S→C): {seq, seat, kind, arg, notation}. */
export function encodeMoved({ seq, seat, kind, arg = [], notation = '' }) {
  const w = new Writer(T.Moved).u32(seq).u8(seat).u8(kind);
  moveArg(w, arg);
  return w.str(notation).done();
}
export function decodeMoved(body) {
  const r = new Reader(T.Moved, body);
  const m = { seq: r.u32(), seat: r.u8(), kind: r.u8(), arg: readMoveArg(r), notation: r.str() };
  r.done();
  return m;
}

/** View (S→C): {seq, viewer, status, toMove, scores, cells, extra}. */
export function encodeView({ seq, viewer, status, toMove = [], scores = [], cells = [], extra = [] }) {
  const w = new Writer(T.View).u32(seq).i8(viewer).u8(status);
  u8s(w, toMove);
  i16s(w, scores);
  return w.bytes16(cells).bytes16(extra).done();
}
export function decodeView(body) {
  const r = new Reader(T.View, body);
  const m = { seq: r.u32(), viewer: r.i8(), status: r.u8(), toMove: readU8s(r), scores: readI16s(r), cells: r.bytes16(), extra: r.bytes16() };
  r.done();
  return m;
}

/** GameEnd (S→C): {table, status, winners, scores, reason, seed}. */
export function encodeGameEnd({ table, status, winners = [], scores = [], reason = '', seed }) {
  const w = new Writer(T.GameEnd).u32(table).u8(status);
  u8s(w, winners);
  i16s(w, scores);
  return w.str(reason).h32(seed).done();
}
export function decodeGameEnd(body) {
  const r = new Reader(T.GameEnd, body);
  const m = { table: r.u32(), status: r.u8(), winners: readU8s(r), scores: readI16s(r), reason: r.str(), seed: r.h32() };
  r.done();
  return m;
}

/** Error (S→C): {req, code, text}. */
export function encodeError({ req, code, text = '' }) { return new Writer(T.Error).u8(req).u8(code).str(text).done(); }
export function decodeError(body) {
  const r = new Reader(T.Error, body);
  const m = { req: r.u8(), code: r.u8(), text: r.str() };
  r.done();
  return m;
}

/** ChatMsg (S→C): {scope, table, from, text}. */
export function encodeChatMsg({ scope, table = 0, from, text }) {
  return new Writer(T.ChatMsg).u8(scope).u32(table).str(from).text(text).done();
}
export function decodeChatMsg(body) {
  const r = new Reader(T.ChatMsg, body);
  return { scope: r.u8(), table: r.u32(), from: r.str(), text: utf8dec.decode(r.rest()) };
}

/** Invited (S→C): {from, table, game, code}. */
export function encodeInvited({ from, table, game, code = '' }) {
  return new Writer(T.Invited).str(from).u32(table).str(game).str(code).done();
}
export function decodeInvited(body) {
  const r = new Reader(T.Invited, body);
  const m = { from: r.str(), table: r.u32(), game: r.str(), code: r.str() };
  r.done();
  return m;
}

/** Commit (S→C): {table, seat, hash}. */
export function encodeCommit({ table, seat, hash }) { return new Writer(T.Commit).u32(table).u8(seat).h32(hash).done(); }
export function decodeCommit(body) {
  const r = new Reader(T.Commit, body);
  const m = { table: r.u32(), seat: r.u8(), hash: r.h32() };
  r.done();
  return m;
}

/** Ack (S→C): {req}. */
export function encodeAck({ req }) { return new Writer(T.Ack).u8(req).done(); }
export function decodeAck(body) {
  const r = new Reader(T.Ack, body);
  const m = { req: r.u8() };
  r.done();
  return m;
}

/** Ping (C→S): {nonce} (u32, the client's choice; the Pong carries it back). */
export function encodePing({ nonce }) { return new Writer(T.Ping).u32(nonce).done(); }
export function decodePing(body) {
  const r = new Reader(T.Ping, body);
  const m = { nonce: r.u32() };
  r.done();
  return m;
}

/** SignUp (C→S): {name, password} (FEATURE_SIGNUP). */
export function encodeSignUp({ name, password }) { return new Writer(T.SignUp).str(name).str(password).done(); }
export function decodeSignUp(body) {
  const r = new Reader(T.SignUp, body);
  const m = { name: r.str(), password: r.str() };
  r.done();
  return m;
}

/** Seek (C→S): {action, game, rated, options: [{key, value}]} (FEATURE_PAIRING; options: clock keys only). */
export function encodeSeek({ action = SeekAction.Play, game = '', rated = false, options = [] }) {
  const w = new Writer(T.Seek).u8(action).str(game).u8(rated ? 1 : 0);
  kvs(w, options);
  return w.done();
}
export function decodeSeek(body) {
  const r = new Reader(T.Seek, body);
  const m = { action: r.u8(), game: r.str(), rated: r.u8() === 1, options: readKVs(r) };
  r.done();
  return m;
}

/**
 * Seeking (S→C): {state, flags, game, rated, rating, low, high, waited, options}:
 * the player's seek (SeekState), its rating and the opponents' ratings accepted now.
 */
export function encodeSeeking({ state, flags = 0, game, rated = false, rating, low, high, waited = 0, options = [] }) {
  const w = new Writer(T.Seeking).u8(state).u8(flags).str(game).u8(rated ? 1 : 0).u16(rating).u16(low).u16(high).u16(waited);
  kvs(w, options);
  return w.done();
}
export function decodeSeeking(body) {
  const r = new Reader(T.Seeking, body);
  const m = { state: r.u8(), flags: r.u8(), game: r.str(), rated: r.u8() === 1, rating: r.u16(), low: r.u16(), high: r.u16(), waited: r.u16(), options: readKVs(r) };
  r.done();
  return m;
}

/** Pong (S→C): {nonce} (the Ping's). */
export function encodePong({ nonce }) { return new Writer(T.Pong).u32(nonce).done(); }
export function decodePong(body) {
  const r = new Reader(T.Pong, body);
  const m = { nonce: r.u32() };
  r.done();
  return m;
}

/** Bot (C→S): {seat} (255: every empty seat). */
export function encodeBot({ seat = SEAT_ANY } = {}) { return new Writer(T.Bot).u8(seat).done(); }
export function decodeBot(body) {
  const r = new Reader(T.Bot, body);
  const m = { seat: r.u8() };
  r.done();
  return m;
}

function token(w, t) {
  if (!t || t.length !== TOKEN_LEN) throw new BodyError(`${typeName(w.type)}: a token has ${TOKEN_LEN} bytes`);
  w.raw(t);
}

/** Seated (S→C): {table, seat, token} — the resume token of your seat. */
export function encodeSeated({ table, seat, token: t }) {
  const w = new Writer(T.Seated).u32(table).u8(seat);
  token(w, t);
  return w.done();
}
export function decodeSeated(body) {
  const r = new Reader(T.Seated, body);
  const m = { table: r.u32(), seat: r.u8(), token: r.take(TOKEN_LEN).slice() };
  r.done();
  return m;
}

/** Resume (C→S): {table, seat, token, lastSeq}. */
export function encodeResume({ table, seat, token: t, lastSeq = 0 }) {
  const w = new Writer(T.Resume).u32(table).u8(seat);
  token(w, t);
  return w.u32(lastSeq).done();
}
export function decodeResume(body) {
  const r = new Reader(T.Resume, body);
  const m = { table: r.u32(), seat: r.u8(), token: r.take(TOKEN_LEN).slice(), lastSeq: r.u32() };
  r.done();
  return m;
}

/** Clock (S→C): {table, seats: [{left (ms, -1 without time), flags}]}. */
export function encodeClock({ table, seats = [] }) {
  const w = new Writer(T.Clock).u32(table).count(seats.length);
  for (const s of seats) w.i32(s.left).u8(s.flags);
  return w.done();
}
export function decodeClock(body) {
  const r = new Reader(T.Clock, body);
  const m = { table: r.u32(), seats: [] };
  const n = r.count(5);
  for (let i = 0; i < n; i++) m.seats.push({ left: r.i32(), flags: r.u8() });
  r.done();
  return m;
}

/** Away (S→C): {table, seat, grace} (ms; 0: back). */
export function encodeAway({ table, seat, grace }) { return new Writer(T.Away).u32(table).u8(seat).u32(grace).done(); }
export function decodeAway(body) {
  const r = new Reader(T.Away, body);
  const m = { table: r.u32(), seat: r.u8(), grace: r.u32() };
  r.done();
  return m;
}

/**
 * Legal (S→C): {table, seq, seat, flags, groups: [{kind, len, prefix, suffixes}]}
 * and moves: every listed move as {kind, arg} (arg = prefix then suffix).
 */
export function encodeLegal(m, type = T.Legal) {
  const { table, seq, seat, flags = 0, groups = [] } = m;
  const w = new Writer(type).u32(table).u32(seq).u8(seat).u8(flags).count(groups.length);
  for (const g of groups) {
    w.u8(g.kind).u8(g.len).raw(Uint8Array.from(g.prefix));
    w.count(g.suffixes.length);
    for (const x of g.suffixes) w.raw(Uint8Array.from(x));
  }
  return w.done();
}
export function decodeLegal(body, type = T.Legal) {
  const r = new Reader(type, body);
  const m = { table: r.u32(), seq: r.u32(), seat: r.u8(), flags: r.u8(), groups: [], moves: [] };
  const n = r.count(3);
  for (let i = 0; i < n; i++) {
    const kind = r.u8(), len = r.u8();
    if (len > MAX_MOVE_ARG) throw new BodyError(`Legal group argument of ${len} bytes`);
    const p = len >> 1;
    const prefix = Array.from(r.take(p));
    const k = r.u8();
    const suffixes = [];
    for (let j = 0; j < k; j++) {
      const x = Array.from(r.take(len - p));
      suffixes.push(x);
      m.moves.push({ kind, arg: [...prefix, ...x] });
    }
    m.groups.push({ kind, len, prefix, suffixes });
  }
  r.done();
  return m;
}

/**
 * HintReq (C→S, FEATURE_LEGAL): {table, chosen}, chosen the bytes of the
 * parts of the move drawn so far (Bomber: head x, y, tail x, y per plane).
 */
export function encodeHintReq({ table, chosen = [] }) {
  if (chosen.length > MAX_MOVE_ARG) throw new BodyError(`HintReq with ${chosen.length} chosen bytes`);
  return new Writer(T.HintReq).u32(table).u8(chosen.length).raw(Uint8Array.from(chosen)).done();
}
export function decodeHintReq(body) {
  const r = new Reader(T.HintReq, body);
  const table = r.u32(), n = r.u8();
  if (n > MAX_MOVE_ARG) throw new BodyError(`HintReq with ${n} chosen bytes`);
  const m = { table, chosen: Array.from(r.take(n)) };
  r.done();
  return m;
}
/** Hints (S→C): Legal's layout; each move is a legal next part. */
export function encodeHints(m) { return encodeLegal(m, T.Hints); }
export function decodeHints(body) { return decodeLegal(body, T.Hints); }

/** What a HistoryReq asks (section 11). */
export const Hist = Object.freeze({ Profile: 1, Games: 2, Ratings: 3, Leaders: 4 });
/** GameRow results, for the user asked about; GameRow and RatingRow flags. */
export const GameResult = Object.freeze({ Lost: 0, Won: 1, Drawn: 2, NoResult: 3 });
export const ROW_PROVISIONAL = 1;
export const ROW_RATED = 1;
export const ROW_BOT = 2;
/** What an Account message does. */
export const AccountWhat = Object.freeze({ Password: 1, Delete: 2 });

/** HistoryReq (C→S): {what, user, game, page} (FEATURE_HISTORY). */
export function encodeHistoryReq({ what, user = '', game = '', page = 0 }) {
  return new Writer(T.HistoryReq).u8(what).str(user).str(game).u16(page).done();
}
export function decodeHistoryReq(body) {
  const r = new Reader(T.HistoryReq, body);
  const m = { what: r.u8(), user: r.str(), game: r.str(), page: r.u16() };
  r.done();
  return m;
}
/** RatingRow (S→C): {what, user, game, rating, deviation, games, flags, at, gameID, before}. */
export function encodeRatingRow(m) {
  return new Writer(T.RatingRow).u8(m.what).str(m.user).str(m.game).u16(m.rating).u16(m.deviation).u32(m.games)
    .u8(m.flags).u32(m.at).u64(m.gameID).u16(m.before).done();
}
export function decodeRatingRow(body) {
  const r = new Reader(T.RatingRow, body);
  const m = { what: r.u8(), user: r.str(), game: r.str(), rating: r.u16(), deviation: r.u16(), games: r.u32(),
    flags: r.u8(), at: r.u32(), gameID: r.u64(), before: r.u16() };
  r.done();
  m.provisional = !!(m.flags & ROW_PROVISIONAL);
  return m;
}
/** GameRow (S→C): {id, game, result, flags, change, ended, moves, reason, opponents}. */
export function encodeGameRow(m) {
  const w = new Writer(T.GameRow).u64(m.id).str(m.game).u8(m.result).u8(m.flags).i16(m.change).u32(m.ended)
    .u16(m.moves).str(m.reason).count(m.opponents.length);
  for (const o of m.opponents) w.str(o);
  return w.done();
}
export function decodeGameRow(body) {
  const r = new Reader(T.GameRow, body);
  const m = { id: r.u64(), game: r.str(), result: r.u8(), flags: r.u8(), change: r.i16(), ended: r.u32(),
    moves: r.u16(), reason: r.str(), opponents: r.strs() };
  r.done();
  m.rated = !!(m.flags & ROW_RATED);
  return m;
}
/** ReplayReq (C→S): {id, ply}. */
export function encodeReplayReq({ id, ply = 0 }) { return new Writer(T.ReplayReq).u64(id).u16(ply).done(); }
export function decodeReplayReq(body) {
  const r = new Reader(T.ReplayReq, body);
  const m = { id: r.u64(), ply: r.u16() };
  r.done();
  return m;
}
/** Replay (S→C): {id, game, ply, plies, seat, notation, status, reason, seats, options}; a View follows. */
export function encodeReplay(m) {
  const w = new Writer(T.Replay).u64(m.id).str(m.game).u16(m.ply).u16(m.plies).i8(m.seat).str(m.notation)
    .u8(m.status).str(m.reason).count(m.seats.length);
  for (const x of m.seats) w.str(x);
  w.count(m.options.length);
  for (const { key, value } of m.options) w.str(key).str(value);
  return w.done();
}
export function decodeReplay(body) {
  const r = new Reader(T.Replay, body);
  const m = { id: r.u64(), game: r.str(), ply: r.u16(), plies: r.u16(), seat: r.i8(), notation: r.str(),
    status: r.u8(), reason: r.str(), seats: r.strs(), options: [] };
  const n = r.count(2);
  for (let i = 0; i < n; i++) m.options.push({ key: r.str(), value: r.str() });
  r.done();
  return m;
}
/** Account (C→S): {what, password, new} (FEATURE_ACCOUNT). */
export function encodeAccount({ what, password, new: fresh = '' }) {
  return new Writer(T.Account).u8(what).str(password).str(fresh).done();
}
export function decodeAccount(body) {
  const r = new Reader(T.Account, body);
  const m = { what: r.u8(), password: r.str(), new: r.str() };
  r.done();
  return m;
}

/** Checks that a body that should be empty is. */
export function decodeEmpty(body) {
  if (body.length !== 0) throw new BodyError(`${body.length} bytes in an empty body`);
  return {};
}

const DECODERS = {
  [T.Hello]: decodeHello, [T.Welcome]: decodeWelcome, [T.Game]: decodeGame, [T.Create]: decodeCreate,
  [T.Join]: decodeJoin, [T.Watch]: decodeWatch, [T.Invite]: decodeInvite, [T.Move]: decodeMove,
  [T.MoveText]: decodeMoveText, [T.Chat]: decodeChat, [T.Table]: decodeTable, [T.Joined]: decodeJoined,
  [T.Started]: decodeStarted, [T.Step]: decodeStep, [T.Moved]: decodeMoved, [T.View]: decodeView,
  [T.GameEnd]: decodeGameEnd, [T.Error]: decodeError, [T.ChatMsg]: decodeChatMsg,
  [T.Invited]: decodeInvited, [T.Commit]: decodeCommit, [T.Ack]: decodeAck,
  [T.CatalogReq]: decodeEmpty, [T.ListReq]: decodeEmpty, [T.Leave]: decodeEmpty,
  [T.Ready]: decodeEmpty, [T.ViewReq]: decodeEmpty, [T.Resign]: decodeEmpty,
  [T.Bot]: decodeBot, [T.Seated]: decodeSeated, [T.Resume]: decodeResume, [T.Clock]: decodeClock,
  [T.Away]: decodeAway, [T.Bye]: decodeEmpty, [T.Ping]: decodePing, [T.Pong]: decodePong, [T.SignUp]: decodeSignUp, [T.Legal]: decodeLegal, [T.HintReq]: decodeHintReq, [T.Hints]: decodeHints,
  [T.Seek]: decodeSeek, [T.Seeking]: decodeSeeking,
  [T.HistoryReq]: decodeHistoryReq, [T.RatingRow]: decodeRatingRow, [T.GameRow]: decodeGameRow,
  [T.ReplayReq]: decodeReplayReq, [T.Replay]: decodeReplay, [T.Account]: decodeAccount,
};

/**
 * Decodes the body of any extended message into its typed form, as
 * DecodeMessage does (Offer: 2 bytes is a request, else the server's form).
 */
export function decodeMessage(t, body) {
  if (t === T.Offer) return body.length === 2 ? decodeOfferRequest(body) : decodeOffer(body);
  const d = DECODERS[t];
  if (!d) throw new BodyError(`unknown message type 0x${hex2(t)}`);
  return d(body);
}

// ---- reference payloads (section 2) ----

/** The text of a name payload (Info, SyncBegin, NewOnline, RecvInvit, ...). */
export function decodeName(payload) { return utf8dec.decode(payload); }

/** A name or password payload: at most 29 bytes of UTF-8. */
export function encodeName(name) {
  const p = utf8enc.encode(name);
  if (p.length > MAX_PAYLOAD) throw new BodyError(`name of ${p.length} bytes (max ${MAX_PAYLOAD})`);
  return p;
}

/** Coordinates as the reference client sends them: ASCII digits. */
export function encodeCoords(...nums) {
  return Uint8Array.from(nums.map((n) => {
    if (!Number.isInteger(n) || n < 0 || n > 9) throw new BodyError(`coordinate ${n} is not 0..9`);
    return 0x30 + n;
  }));
}

/** Coordinates in either encoding (binary 0-9 or ASCII '0'-'9'); null when malformed. */
export function decodeCoords(payload) {
  const out = [];
  for (const b of payload) {
    if (b <= 9) out.push(b);
    else if (b >= 0x30 && b <= 0x39) out.push(b - 0x30);
    else return null;
  }
  return out;
}

/** Lowercase hex with spaces, as transcripts write it. */
export function toHex(bytes) { return Array.from(bytes, hex2).join(' '); }

/** Parses transcript hex ("20 00 05 01 ...") into bytes. */
export function fromHex(s) {
  const t = s.trim();
  if (t === '') return new Uint8Array(0);
  return Uint8Array.from(t.split(/\s+/), (h) => parseInt(h, 16));
}

// The characters segment.UnsafeRune names on the server: C0 controls, DEL,
// C1 controls and the bidi formatting characters (U+061C, U+200E, U+200F,
// U+202A..U+202E, U+2066..U+2069).
const UNSAFE_TEXT = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from the server as it may be shown: every control character (CR,
 * LF, ESC, NUL...) and bidi formatting character replaced by U+FFFD.
 * bomberd refuses them in chat and names; a client shows names and chat
 * through this all the same, whatever server it talks to.
 */
export function safeText(s) { return String(s ?? '').replace(UNSAFE_TEXT, '\ufffd'); }
