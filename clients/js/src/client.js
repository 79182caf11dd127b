// BomberClient: the extended protocol's client state machine over a byte
// transport (TCP in Node and Electron, WebSocket in browsers). It keeps what
// a user interface needs (who is online, the table, the seat, the last view,
// the moves) and turns every server message into a typed event.

import {
  T, MORE, FEATURES_ALL, PROTOCOL_VERSION, SEAT_ANY, SEAT_WATCHER, encodeBot, encodeResume,
  decodeSeated, decodeClock, decodeAway, decodeLegal, decodeHints, encodeHintReq, LEGAL_MORE, LEGAL_TOO_MANY, FEATURE_LEGAL,
  FEATURE_SIGNUP, encodeSignUp, FEATURE_PAIRING, encodeSeek, decodeSeeking, SeekAction, SeekState,
  FEATURE_HISTORY, FEATURE_ACCOUNT, Hist, AccountWhat, encodeHistoryReq,
  decodeRatingRow, decodeGameRow, encodeReplayReq, decodeReplay, encodeAccount,
  FLAG_PRIVATE, Phase, SeatFlag, OfferWhat, OfferAnswer, OfferState, Scope, ErrCode,
  MessageDecoder, encodeMessage, encodeHello, decodeWelcome, decodeGame, encodeCreate,
  encodeJoin, encodeWatch, encodeInvite, encodeMove, encodeMoveText, encodeOfferRequest,
  encodeChat, decodeTable, decodeJoined, decodeStarted, decodeStep, decodeMoved,
  decodeView, decodeGameEnd, decodeError, decodeChatMsg, decodeInvited, decodeCommit,
  decodeAck, decodeOffer, encodeName, decodeName, encodeCoords, decodeCoords, errCodeName,
  typeName, FEATURE_PING, PING_INTERVAL_MS, PING_TIMEOUT_MS, encodePing, decodePong,
} from './segment.js';

/** A request the server refused: `.code` is the reply or Error code, `.req` the request type. */
export class RequestError extends Error {
  constructor(req, code, text) {
    super(`${typeName(req)} refused: ${text || errCodeName(code)} (code ${code})`);
    this.name = 'RequestError';
    /** The Error code (section 8.5), or the reference reply code for Info and Passwd. */
    this.code = code;
    /** The request type it answers (T.Join, ...). */
    this.req = req;
    /** The server's reason for people. */
    this.text = text;
  }
}

/** The connection closed before the server answered. */
export class ClosedError extends Error {
  constructor(message = 'connection closed') { super(message); this.name = 'ClosedError'; }
}

/** The server did not answer a request (or a Ping) in time. */
export class TimeoutError extends Error {
  constructor(message) { super(message); this.name = 'TimeoutError'; }
}

/** How long a request waits for its answer by default (ms). */
export const REQUEST_TIMEOUT_MS = 30000;

/**
 * SEGMENT_RATE and SEGMENT_BURST are bomberd's default limits.segment_rate
 * (segments a second, on average) and limits.segment_burst (at once): the
 * server closes a connection that sends faster. The client paces what it
 * sends to stay under them.
 */
export const SEGMENT_RATE = 50;
export const SEGMENT_BURST = 200;

// segmentCount is the number of segments in encoded bytes (3-byte headers,
// the third the payload's length).
function segmentCount(buf) {
  let n = 0;
  for (let off = 0; off + 3 <= buf.length; off += 3 + buf[off + 2]) n++;
  return n;
}

// timer runs fn after ms without keeping a Node process alive for it.
function timer(fn, ms) {
  const t = setTimeout(fn, ms);
  t?.unref?.();
  return t;
}

const OFFER_WHAT = { draw: OfferWhat.Draw, rematch: OfferWhat.Rematch, takeback: OfferWhat.Takeback };
const OFFER_ANSWER = { propose: OfferAnswer.Propose, accept: OfferAnswer.Accept, decline: OfferAnswer.Decline };
const SCOPES = { lobby: Scope.Lobby, table: Scope.Table, watchers: Scope.Watchers };
const WATCH = { anyone: 0, code: 1, nobody: 2 };

function lookup(map, v, what) {
  if (typeof v === 'number') return v;
  if (!(v in map)) throw new TypeError(`unknown ${what} ${JSON.stringify(v)}`);
  return map[v];
}

function cell(p) {
  if (Array.isArray(p)) return p;
  return [p.x, p.y];
}

/**
 * A client of bomberd's extended protocol. Create one with connectTCP or
 * connectWebSocket; both say Hello and resolve once the server's Welcome
 * arrived.
 */
export class BomberClient extends EventTarget {
  /**
   * Wraps a connected transport: {send(Uint8Array), close(), abort()?},
   * whose owner calls client._data(bytes) and client._closed(error) (see
   * the connect functions). Most callers use connectTCP or connectWebSocket
   * instead. Options: features (asked for in Hello), requestTimeout (ms a
   * request, the Welcome or a login waits for its answer before it rejects
   * with a TimeoutError; 0: forever), pingInterval and pingTimeout (ms;
   * with FEATURE_PING the client pings after pingInterval without hearing
   * from the server, and closes the connection when nothing came
   * pingTimeout after the Ping; pingInterval 0: no pinging), segmentRate
   * and segmentBurst (the server's limits.segment_rate and segment_burst,
   * default SEGMENT_RATE and SEGMENT_BURST: sends beyond the burst wait
   * their turn, at nine tenths of the rate; segmentRate 0: no pacing).
   */
  constructor(transport, {
    features = FEATURES_ALL, requestTimeout = REQUEST_TIMEOUT_MS,
    pingInterval = PING_INTERVAL_MS, pingTimeout = PING_TIMEOUT_MS,
    segmentRate = SEGMENT_RATE, segmentBurst = SEGMENT_BURST,
  } = {}) {
    super();
    this._rate = segmentRate * 0.9; // a margin for the server's clock and ours
    this._burst = segmentBurst;
    this._tokens = segmentBurst;
    this._refilled = Date.now();
    this._paceTimer = null; // timer: the next paced flush
    this._requestTimeout = requestTimeout;
    this._pingInterval = pingInterval;
    this._pingTimeout = pingTimeout;
    this._idle = null; // timer: ping when it fires (the server has been quiet)
    this._dead = null; // timer: give the connection up when it fires (a Ping went unanswered)
    this._pings = new Map(); // nonce -> {resolve, reject, sent, timer} of ping() calls
    this._nonce = 0;
    this._t = transport;
    this._dec = new MessageDecoder();
    this._out = [];
    this._flushing = false;
    this._pending = [];
    this._closing = null; // the RequestError the server gave as its reason to close, if the last message was one
    this._login = null;
    this._ending = false;
    this._features = features;
    /** The Welcome body, once it arrived. */
    this.welcome = null;
    /** The name this client logged in as (null before login). */
    this.user = null;
    /** Names of the other users online. */
    this.users = new Set();
    /** The last Table message of the table you sit or watch at (null: none). */
    this.table = null;
    /** The id of the table you sit or watch at (0: none). */
    this.tableId = 0;
    /** Your seat (SEAT_WATCHER, 255, when watching; null when at no table). */
    this.seat = null;
    /** The last View. */
    this.view = null;
    /** The Moved messages since the last Started. */
    this.moves = [];
    /** The last Seated: {table, seat, token} — what resume() needs after a reconnect. */
    this.seated = null;
    /** The highest update sequence seen since the last Started (Moved, Step, View). */
    this.lastSeq = 0;
    /**
     * Your legal moves while your seat is to move (feature FEATURE_LEGAL):
     * {table, seq, seat, tooMany, moves: [{kind, arg}]}, the update seq they
     * belong to; null when it is not your turn (cleared by the next Moved).
     * A 'legal' event tells when a whole list arrived.
     */
    this.legal = null;
    this._legalParts = null;
    /** The last Clock of your table: {table, seats: [{left, flags}]}. */
    this.clock = null;
    /** Whether the connection is closed. */
    this.closed = false;
    this._welcome = new Promise((res, rej) => { this._welcomeRes = res; this._welcomeRej = rej; });
    this._welcome.catch(() => {});
  }

  /** Connects over TCP (Node and Electron's main process only), says Hello and waits for Welcome. */
  static async connectTCP({ host = '127.0.0.1', port = 20343, ...opts } = {}) {
    const net = await import('node:net'); // imported here so that browsers never load it
    const sock = net.connect({ host, port });
    sock.setNoDelay(true);
    await new Promise((res, rej) => {
      sock.once('connect', res);
      sock.once('error', rej);
    });
    const client = new BomberClient({
      send: (b) => sock.write(b),
      close: () => sock.end(),
      abort: () => sock.destroy(), // at once: a frozen server would never answer a FIN
    }, opts);
    sock.on('data', (b) => client._data(new Uint8Array(b.buffer, b.byteOffset, b.length)));
    sock.on('error', (e) => client._closed(e));
    sock.on('close', () => client._closed(null));
    client._hello();
    await client._welcome;
    return client;
  }

  /**
   * Connects to bomberd's WebSocket gateway (ws://host:20380/ws), says Hello
   * and waits for Welcome. Uses the global WebSocket (browsers, Node 22+,
   * Electron's renderer) unless a constructor is given.
   */
  static async connectWebSocket(url, { WebSocket: WS = globalThis.WebSocket, ...opts } = {}) {
    if (typeof WS !== 'function') throw new TypeError('no WebSocket constructor: pass {WebSocket}');
    const ws = new WS(url);
    ws.binaryType = 'arraybuffer';
    await new Promise((res, rej) => {
      ws.onopen = res;
      ws.onerror = (e) => rej(new Error(`WebSocket ${url}: ${e?.message ?? 'connection failed'}`));
    });
    const client = new BomberClient({
      send: (b) => ws.send(b),
      close: () => ws.close(1000),
    }, opts);
    ws.onmessage = (e) => {
      if (typeof e.data === 'string') { client._closed(new Error('text frame from server')); ws.close(); return; }
      client._data(new Uint8Array(e.data));
    };
    ws.onerror = () => client._closed(new Error('WebSocket error'));
    ws.onclose = (e) => client._closed(e.code === 1000 || e.code === 1005 ? null : new Error(`WebSocket closed: ${e.code} ${e.reason ?? ''}`.trim()));
    client._hello();
    await client._welcome;
    return client;
  }

  /** Closes the connection. */
  close() {
    if (this._ending) return;
    this._flush(true);
    this._ending = true; // what is sent from now on goes nowhere; requests are refused
    this._t.close();
  }

  /**
   * Adds a listener for a typed event and returns a function that removes it.
   * The listener receives the event's detail.
   */
  on(type, fn) {
    const h = (e) => fn(e.detail);
    this.addEventListener(type, h);
    return () => this.removeEventListener(type, h);
  }

  /** Resolves with the detail of the next event of type for which pred is true. */
  next(type, pred = () => true) {
    return new Promise((res, rej) => {
      const off = this.on(type, (d) => { if (pred(d)) { off(); offc(); res(d); } });
      const offc = type === 'close' ? () => {} : this.on('close', () => { off(); offc(); rej(new ClosedError()); });
    });
  }

  /**
   * Pings the server (FEATURE_PING); resolves with the round trip in ms,
   * rejects with a TimeoutError after pingTimeout. The client also pings
   * on its own when the server has been quiet (see the constructor).
   */
  ping() {
    if (this.closed || this._ending) return Promise.reject(new ClosedError());
    if (!(this.welcome?.features & FEATURE_PING)) return Promise.reject(new Error('the server does not speak Ping (feature 64)'));
    return new Promise((resolve, reject) => {
      const nonce = this._sendPing();
      const t = timer(() => {
        this._pings.delete(nonce);
        reject(new TimeoutError(`no Pong within ${this._pingTimeout} ms`));
      }, this._pingTimeout);
      this._pings.set(nonce, { resolve, reject, sent: Date.now(), timer: t });
    });
  }

  // ---- lobby ----

  /** Logs in; resolves once the user list is in (client.users). Rejects with a RequestError (code 0 no such user, 3 wrong password, 4 unavailable). */
  login(name, password) {
    if (this.closed || this._ending) return Promise.reject(new ClosedError());
    if (this._login) return Promise.reject(new Error('a login is in progress'));
    return new Promise((resolve, reject) => {
      const l = { resolve, reject, phase: 'info', name, password };
      if (this._requestTimeout > 0) {
        // a login left half done leaves the session's state unknown: the
        // connection is given up with it
        l.timer = timer(() => {
          if (this._login !== l) return;
          this._login = null;
          reject(new TimeoutError(`no answer to the login within ${this._requestTimeout} ms`));
          this._abort(new TimeoutError('login timed out'));
        }, this._requestTimeout);
      }
      this._login = l;
      this._send(T.Info, encodeName(name));
    });
  }

  /**
   * Makes an account (FEATURE_SIGNUP), before logging in; resolves once it
   * exists. It does not log in: call login(name, password) next. Rejects
   * with a RequestError whose code says why not: ErrCode.NameTaken (the
   * name or one like it), BadName (3-20 of a-z A-Z 0-9 _ -, a letter
   * first), BadPassword (8-29 bytes, not the name), SignUpClosed,
   * RateLimited, Unavailable; NotAllowed when logged in.
   */
  signUp(name, password) {
    if (!(this.welcome?.features & FEATURE_SIGNUP)) return Promise.reject(new Error('the server does not speak SignUp (feature 256)'));
    if (this.user != null || this._login) return Promise.reject(new Error('sign up before logging in'));
    return this._request(T.SignUp, () => encodeSignUp({ name, password }), (k, m) => (k === T.Ack && m.req === T.SignUp ? true : undefined));
  }

  /**
   * Play now (FEATURE_PAIRING): enters the pool of game, its time control
   * (clock options: {'clock.total': 180, 'clock.increment': 2}) and rated
   * flag; resolves with the first Seeking (waiting, with the player's
   * rating and the range accepted). What follows comes as 'seeking' events
   * (the range widening, a computer offered: flags & SEEK_COMPUTER_OFFERED;
   * paired, then 'joined' and 'started' as after a join; cancelled), and
   * this.seeking holds the latest (null once it ended).
   */
  seek(game, { rated = false, clock = {} } = {}) {
    if (!(this.welcome?.features & FEATURE_PAIRING)) return Promise.reject(new Error('the server does not speak Seek (feature 512)'));
    const options = Object.entries(clock).map(([key, value]) => ({ key, value: String(value) }));
    return this._request(T.Seek, encodeSeek({ action: SeekAction.Play, game, rated, options }), (k, m) => (k === T.Seeking ? m : undefined));
  }

  /** Leaves the pool; resolves with the Seeking that says so. */
  cancelSeek() {
    return this._request(T.Seek, encodeSeek({ action: SeekAction.Cancel }), (k, m) => (k === T.Seeking && m.state === SeekState.Cancelled ? m : undefined));
  }

  /** Takes the computer opponent the server offered; resolves with the new table's Table. */
  playComputer() {
    return this._request(T.Seek, encodeSeek({ action: SeekAction.Computer }), this._joinedThenTable());
  }

  _history(what, user, game, page) {
    if (!(this.welcome?.features & FEATURE_HISTORY)) return Promise.reject(new Error('the server does not speak HistoryReq (feature 1024)'));
    const rows = [];
    const match = (k, m) => {
      // every pending request sees each message: the rows belong to the oldest HistoryReq
      if (!this._first(T.HistoryReq, match)) return undefined;
      if (k === T.RatingRow || k === T.GameRow) { rows.push(m); return undefined; }
      if (k === T.Ack && m.req === T.HistoryReq) return rows;
      return undefined;
    };
    return this._request(T.HistoryReq, encodeHistoryReq({ what, user, game, page }), match);
  }

  // _first reports whether match is that of the oldest pending request of type.
  _first(type, match) { return this._pending.find((p) => p.type === type)?.match === match; }

  /**
   * A player's profile (FEATURE_HISTORY; user '' or omitted: yourself):
   * resolves with {user, ratings: [{game, rating, deviation, games,
   * provisional, at}], games} where games is the number of rated games.
   * Rejects with ErrCode.NoUser for a user who does not exist.
   */
  async profile(user = '') {
    const ratings = await this._history(Hist.Profile, user, '', 0);
    return { user: user || this.user, ratings, games: ratings.reduce((n, r) => n + r.games, 0) };
  }

  /** A page (10 a page, newest first; page 0 the newest) of a player's games, of one game or all: [{id, game, result, rated, change, ended, moves, reason, opponents}]. */
  games(user = '', { game = '', page = 0 } = {}) { return this._history(Hist.Games, user, game, page); }

  /** What a player's rated games did to their rating, newest first: [{game, gameID, before, rating, deviation, at}]. */
  ratingHistory(user = '', game = '') { return this._history(Hist.Ratings, user, game, 0); }

  /** A game's leaderboard, highest first, established ratings only: [{user, rating, deviation, games}]. */
  leaderboard(game) { return this._history(Hist.Leaders, '', game, 0); }

  /**
   * One position of a stored game (FEATURE_HISTORY): resolves with {replay,
   * view}: replay is {id, game, ply, plies, seat, notation, status, reason,
   * seats, options} (the move that led here and who made it), view the
   * View a watcher saw after ply moves, computed by the server's rules.
   * Ply 0 is the start; past the last, the last. Rejects with NoTable for
   * a game the server does not hold.
   */
  replay(id, ply = 0) {
    if (!(this.welcome?.features & FEATURE_HISTORY)) return Promise.reject(new Error('the server does not speak ReplayReq (feature 1024)'));
    let replay = null;
    const match = (k, m) => {
      if (!this._first(T.ReplayReq, match)) return undefined;
      if (k === T.Replay) { replay = m; return undefined; }
      if (k === T.View && replay) return { replay, view: m };
      return undefined;
    };
    return this._request(T.ReplayReq, encodeReplayReq({ id, ply }), match);
  }

  _account(what, password, fresh) {
    if (!(this.welcome?.features & FEATURE_ACCOUNT)) return Promise.reject(new Error('the server does not speak Account (feature 2048)'));
    return this._request(T.Account, encodeAccount({ what, password, new: fresh }), (k, m) => (k === T.Ack && m.req === T.Account ? true : undefined));
  }

  /** Changes your password (FEATURE_ACCOUNT); rejects with WrongPassword, BadPassword (8-29 bytes, not the name), RateLimited, Unavailable. */
  changePassword(current, fresh) { return this._account(AccountWhat.Password, current, fresh); }

  /** Deletes your account (FEATURE_ACCOUNT); the server then closes the connection. Your finished games stay, naming "(deleted)". */
  deleteAccount(password) { return this._account(AccountWhat.Delete, password, ''); }

  /** The games of the catalog. */
  catalog() {
    const games = [];
    return this._request(T.CatalogReq, new Uint8Array(0), (k, m) => {
      if (k === T.Game) { if (m) games.push(m); return undefined; }
      if (k === T.Ack && m.req === T.CatalogReq) return games;
      return undefined;
    });
  }

  /** The public tables and the one you are at. */
  listTables() {
    const tables = new Map();
    return this._request(T.ListReq, new Uint8Array(0), (k, m) => {
      if (k === T.Table) { tables.set(m.id, m); return undefined; }
      if (k === T.Ack && m.req === T.ListReq) return [...tables.values()];
      return undefined;
    });
  }

  /**
   * Creates a table and sits at seat 0; resolves with its Table. options is
   * an object ({rows: 4}) or a list of {key, value}; watch is 'anyone',
   * 'code' or 'nobody'.
   */
  createTable({ game, seats = 2, private: priv = false, watch = 'anyone', options = {} }) {
    const opts = Array.isArray(options) ? options : Object.entries(options).map(([key, value]) => ({ key, value: String(value) }));
    const flags = (priv ? FLAG_PRIVATE : 0) | (lookup(WATCH, watch, 'watch policy') << 1);
    return this._request(T.Create, () => encodeCreate({ game, seats, flags, options: opts }), this._joinedThenTable());
  }

  /** Sits at a table (seat: any free one unless given); resolves with its Table. */
  join(tableId, { seat = SEAT_ANY, code = '' } = {}) {
    return this._request(T.Join, () => encodeJoin({ table: tableId, seat, code }), this._joinedThenTable());
  }

  /** Watches a table; resolves with its Table. */
  watch(tableId, { code = '' } = {}) {
    return this._request(T.Watch, () => encodeWatch({ table: tableId, code }), this._joinedThenTable());
  }

  /** Leaves the table (resigning a running game you play). */
  leave() {
    // settled by the answer to this Leave, not by the first Joined table=0:
    // a table that closes (its watchers get Joined table=0 unasked) while
    // the Leave is on its way answers it NotAtTable, which is success here;
    // the ViewReq behind it (a barrier) proves the Leave was answered
    return this._request(T.Leave, new Uint8Array(0), null, true).then(() => true);
  }

  /** Invites a user to the table you sit at. */
  invite(user) {
    return this._request(T.Invite, () => encodeInvite({ user }), null, true);
  }

  /** Says you are ready; resolves once the table shows it (or the game started). */
  ready() {
    return this._request(T.Ready, new Uint8Array(0), (k, m) => {
      if (k === T.Started) return true;
      if (k === T.Table && m.id === this.tableId && this.seat != null && this.seat !== SEAT_WATCHER &&
        (m.phase === Phase.Playing || (m.seats[this.seat]?.flags & SeatFlag.Ready))) return true;
      return undefined;
    });
  }

  /** Plays a move {kind, arg}; resolves with its Moved. */
  move({ kind, arg = [] }) {
    return this._request(T.Move, () => encodeMove({ kind, arg }), this._movedBySeat());
  }

  /** Plays a move in the game's notation ("11-15", "a1-b1"); resolves with its Moved. */
  moveText(text) {
    return this._request(T.MoveText, () => encodeMoveText({ notation: text }), this._movedBySeat());
  }

  /**
   * Asks for a fresh View; resolves with it. When your seat is to move and
   * the server sends legal moves (FEATURE_LEGAL), it resolves once they are
   * in too (client.legal).
   */
  requestView() {
    let view = null;
    return this._request(T.ViewReq, new Uint8Array(0), (k, m) => {
      if (k === T.View) {
        const mine = this.seat != null && this.seat !== SEAT_WATCHER && m.status === 0 && m.toMove.includes(this.seat);
        if (!mine || !((this.welcome?.features ?? 0) & FEATURE_LEGAL)) return m;
        view = m;
        return undefined;
      }
      if (k === T.Legal && view && m.seq === view.seq && !(m.flags & LEGAL_MORE)) return view;
      return undefined;
    });
  }

  /**
   * Asks for the legal next parts of a move built in parts (FEATURE_LEGAL):
   * chosen is the bytes of the parts drawn so far. Resolves with {table,
   * seq, seat, moves: [{kind, arg}]}, each arg one legal next part; rejects
   * with NotYourTurn when your seat builds no such move now, Illegal when
   * no move completes the chosen parts.
   */
  hints(chosen = []) {
    if (!((this.welcome?.features ?? 0) & FEATURE_LEGAL)) return Promise.reject(new Error('the server does not speak HintReq (feature 128)'));
    return this._request(T.HintReq, () => encodeHintReq({ table: this.tableId ?? 0, chosen }), (k, m) => (k === T.Hints && m.whole ? m : undefined));
  }

  /**
   * Bomber placement hints: planes is the planes drawn so far ([[head,
   * tail], ...], cells x*10+y). Resolves with a Map from each cell where
   * the next plane's head may go to the cells its tail may go to.
   */
  async planeHints(planes = []) {
    const xy = (c) => (typeof c === 'number' ? [Math.floor(c / 10), c % 10] : cell(c));
    const h = await this.hints(planes.flatMap(([hd, tl]) => [...xy(hd), ...xy(tl)]));
    const heads = new Map();
    for (const { arg } of h.moves) {
      const hd = arg[0] * 10 + arg[1];
      if (!heads.has(hd)) heads.set(hd, []);
      heads.get(hd).push(arg[2] * 10 + arg[3]);
    }
    return heads;
  }

  /** Proposes or answers an offer: what 'draw' | 'rematch' | 'takeback', answer 'propose' | 'accept' | 'decline'. */
  offer(what, answer = 'propose') {
    const w = lookup(OFFER_WHAT, what, 'offer');
    const a = lookup(OFFER_ANSWER, answer, 'answer');
    if (a === OfferAnswer.Accept) return this._request(T.Offer, () => encodeOfferRequest({ what: w, answer: a }), null, true);
    return this._request(T.Offer, () => encodeOfferRequest({ what: w, answer: a }),
      (k, m) => (k === T.Offer && m.what === w && m.seat === this.seat ? m : undefined));
  }

  /** Gives the game up. */
  resign() {
    return this._request(T.Resign, new Uint8Array(0), null, true);
  }

  /**
   * Says something: scope 'lobby', 'table' (the table's one room; the
   * players' room at a chat=separate table) or 'watchers' (the watchers'
   * room at a chat=separate table; elsewhere the one room, and the line
   * comes back as 'table').
   */
  chat(scope, text) {
    const s = lookup(SCOPES, scope, 'scope');
    const room = (m) => m.scope === s || (s === Scope.Watchers && m.scope === Scope.Table);
    return this._request(T.Chat, () => encodeChat({ scope: s, text }),
      (k, m) => (k === T.ChatMsg && m.from === this.user && room(m) && m.text === text ? m : undefined));
  }

  // ---- seats that survive (docs/protocol.md section 9) ----

  /** Gives an empty seat (255: every empty seat) of your waiting table to the computer. */
  addBot(seat = SEAT_ANY) {
    return this._request(T.Bot, () => encodeBot({ seat }), null, true);
  }

  /**
   * Takes a held seat back after a reconnect and login; resolves with the
   * Table. Defaults come from the Seated and the moves this client saw, so
   * after a reload pass what you stored of `client.seated` and `client.lastSeq`.
   */
  resume({ table, seat, token, lastSeq } = {}) {
    const s = this.seated ?? {};
    return this._request(T.Resume, () => encodeResume({
      table: table ?? s.table, seat: seat ?? s.seat, token: token ?? s.token, lastSeq: lastSeq ?? this.lastSeq,
    }), this._joinedThenTable());
  }

  /** Says goodbye (the seat is held for the shorter grace) and closes the connection. */
  bye() {
    this._send(T.Bye, new Uint8Array(0));
    this.close();
  }

  // ---- the reference client's Bomber (section 2) ----

  /** Invites a user to a game of Bomber the reference way (answered by an 'inviteAnswer' event). */
  sendInvite(user) { this._send(T.SendInvit, encodeName(user)); }

  /** Answers a 'recvInvite'. */
  answerInvite(accept) { this._send(T.InvitResponse, Uint8Array.of(accept ? 1 : 2)); }

  /** Sends your three planes: [{head: [x, y], tail: [x, y]}, ...] (x the row, y the column). */
  sendBoard(planes) {
    if (planes.length !== 3) throw new TypeError('a board has three planes');
    const nums = planes.flatMap((p) => (Array.isArray(p) ? p : [...cell(p.head), ...cell(p.tail)]));
    this._send(T.Board, encodeCoords(...nums));
  }

  /** Guesses one cell. */
  guess(x, y) { this._send(T.SingleCoord, encodeCoords(x, y)); }

  /** Guesses a whole plane by its head and tail centre. */
  guessPlane(head, tail) { this._send(T.DoubleCoord, encodeCoords(...cell(head), ...cell(tail))); }

  // ---- internals ----

  _hello() {
    this._send(T.Hello, encodeHello({ version: PROTOCOL_VERSION, features: this._features }));
    if (this._requestTimeout > 0) {
      this._welcomeTimer = timer(() => this._abort(new TimeoutError(`no Welcome within ${this._requestTimeout} ms`)), this._requestTimeout);
    }
  }

  // _sendPing sends a Ping with a fresh nonce and returns the nonce.
  _sendPing() {
    this._nonce = (this._nonce + 1) >>> 0;
    this._send(T.Ping, encodePing({ nonce: this._nonce }));
    return this._nonce;
  }

  // _heard notes that the server said something: it is alive, so the
  // unanswered-Ping deadline goes and the quiet time starts again.
  _heard() {
    clearTimeout(this._dead);
    this._dead = null;
    clearTimeout(this._idle);
    this._idle = this._pingInterval > 0 ? timer(() => this._keepalive(), this._pingInterval) : null;
  }

  // _keepalive: the server has been quiet for pingInterval; ping it, and
  // give the connection up if nothing comes back within pingTimeout.
  _keepalive() {
    this._idle = null;
    if (this.closed || this._ending) return;
    this._sendPing();
    this._dead = timer(() => this._abort(new TimeoutError(`the server did not answer a Ping within ${this._pingTimeout} ms`)), this._pingTimeout);
  }

  // _abort gives the connection up: everything waiting is rejected with
  // err and the transport is dropped without waiting for the server.
  _abort(err) {
    if (this.closed) return;
    this._closed(err);
    this._ending = true;
    (this._t.abort ?? this._t.close).call(this._t);
  }

  _joinedThenTable() {
    let joined = null;
    return (k, m) => {
      if (k === T.Joined && m.table !== 0) { joined = m; return undefined; }
      if (k === T.Table && joined && m.id === joined.table) return m;
      return undefined;
    };
  }

  _movedBySeat() {
    return (k, m) => (k === T.Moved && m.seat === this.seat ? m : undefined);
  }

  // _request sends a request and settles its promise: rejected by an Error
  // naming its type, resolved by the first message match accepts. body is
  // the encoded body or a function encoding it: what the encoder refuses
  // (a chat line or move too long for the message) rejects the promise
  // rather than throwing at the caller. The hub
  // answers requests in order, so any answer to a later request proves an
  // earlier one without an answer of its own went through; requests with no
  // answer on success (barrier) are followed by a ViewReq for that proof.
  _request(type, body, match, barrier = false) {
    if (this.closed || this._ending) return Promise.reject(new ClosedError());
    return new Promise((resolve, reject) => {
      if (typeof body === 'function') body = body(); // a throw here rejects
      const p = { type, match, resolve, reject };
      if (this._requestTimeout > 0) {
        // the request stays in line (later answers are matched in order)
        // but its caller hears no more of it
        p.timer = timer(() => {
          p.resolve = p.reject = () => {};
          reject(new TimeoutError(`no answer to ${typeName(type)} within ${this._requestTimeout} ms`));
        }, this._requestTimeout);
      }
      this._pending.push(p);
      this._send(type, body);
      if (barrier) {
        this._pending.push({ type: T.ViewReq, match: (k) => (k === T.View ? true : undefined), resolve: () => {}, reject: () => {}, internal: true });
        this._send(T.ViewReq, new Uint8Array(0));
      }
    });
  }

  _settle(i, ok, value) {
    const done = this._pending.splice(0, i + 1);
    for (const p of done) clearTimeout(p.timer);
    const last = done.pop();
    for (const p of done) p.resolve(undefined);
    if (ok) last.resolve(value); else last.reject(value);
  }

  _send(type, body) {
    if (this._ending || this.closed) return;
    this._out.push(encodeMessage(type, body));
    if (!this._flushing && !this._paceTimer) {
      this._flushing = true;
      queueMicrotask(() => this._flush());
    }
  }

  // _flush writes what was queued since the last flush in one write (one
  // WebSocket message): as many whole messages as the pacing allows (all
  // of them when closing), the rest by a timer when enough time passed.
  _flush(all = false) {
    this._flushing = false;
    if (this._out.length === 0 || this.closed) { this._out = []; return; }
    let k = this._out.length;
    if (this._rate > 0 && !all) {
      const now = Date.now();
      this._tokens = Math.min(this._burst, this._tokens + (now - this._refilled) * this._rate / 1000);
      this._refilled = now;
      k = 0;
      for (let c; k < this._out.length && (c = segmentCount(this._out[k])) <= this._tokens; k++) this._tokens -= c;
      if (k < this._out.length && !this._paceTimer) {
        const wait = Math.ceil((segmentCount(this._out[k]) - this._tokens) * 1000 / this._rate);
        this._paceTimer = setTimeout(() => { this._paceTimer = null; this._flush(); }, wait);
      }
      if (k === 0) return;
    }
    const out = this._out.splice(0, k);
    const buf = new Uint8Array(out.reduce((s, b) => s + b.length, 0));
    let off = 0;
    for (const b of out) { buf.set(b, off); off += b.length; }
    this._t.send(buf);
  }

  _seq(seq) { if (seq > this.lastSeq) this.lastSeq = seq; }

  _emit(type, detail) { this.dispatchEvent(new CustomEvent(type, { detail })); }

  /** Feeds bytes from the transport. */
  _data(bytes) {
    if (this._live) this._heard();
    let msgs;
    try {
      msgs = this._dec.push(bytes);
    } catch (e) {
      this._emit('error', { error: e });
      this._closed(e);
      this._t.close();
      return;
    }
    for (const { type, body } of msgs) {
      try {
        this._message(type, body);
      } catch (e) {
        this._emit('error', { error: e, type });
      }
    }
  }

  /** The transport closed (error: why, or null). */
  _closed(error) {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this._idle);
    clearTimeout(this._dead);
    clearTimeout(this._welcomeTimer);
    clearTimeout(this._paceTimer);
    this._paceTimer = null;
    // the server's last word before it closed, when it named why (sending
    // too fast: an Error RateLimited just before the close)
    const why = this._closing;
    const err = new ClosedError(why ? `connection closed by the server: ${why.text || 'sending too fast'}` : error ? `connection closed: ${error.message}` : 'connection closed');
    if (why) err.reason = why;
    this._welcomeRej(err);
    if (this._login) { clearTimeout(this._login.timer); this._login.reject(err); this._login = null; }
    const pend = this._pending;
    this._pending = [];
    for (const p of pend) { clearTimeout(p.timer); p.reject(err); }
    for (const p of this._pings.values()) { clearTimeout(p.timer); p.reject(err); }
    this._pings.clear();
    this._emit('close', { error: error ?? (why ? err : null), reason: why ?? null });
  }

  _message(type, body) {
    if (type !== T.Error) this._closing = null; // only the very last message says why the server closed
    switch (type) {
      case T.Welcome:
        this.welcome = decodeWelcome(body);
        clearTimeout(this._welcomeTimer);
        this._live = (this.welcome.features & FEATURE_PING) !== 0;
        if (this._live) this._heard();
        this._welcomeRes(this.welcome);
        return;
      case T.InfoResp:
      case T.PasswdResp: {
        const l = this._login;
        const code = body[0];
        if (!l) return;
        if (code !== 1) {
          clearTimeout(l.timer);
          this._login = null;
          l.reject(new RequestError(type === T.InfoResp ? T.Info : T.Passwd, code,
            type === T.InfoResp ? (code === 0 ? 'no such user' : 'unavailable') : (code === 3 ? 'wrong password' : 'unavailable')));
          return;
        }
        if (type === T.InfoResp) { l.phase = 'passwd'; this._send(T.Passwd, encodeName(l.password)); } else {
          l.phase = 'sync';
          this.user = l.name;
          this.users.clear();
        }
        return;
      }
      case T.SyncBegin: this.users.add(decodeName(body)); return;
      case T.SyncEnd:
        this._emit('users', { users: this.users });
        if (this._login?.phase === 'sync') { const l = this._login; clearTimeout(l.timer); this._login = null; l.resolve(); }
        return;
      case T.NewOnline: { const name = decodeName(body); this.users.add(name); this._emit('online', { user: name }); return; }
      case T.NewOffline: { const name = decodeName(body); this.users.delete(name); this._emit('offline', { user: name }); return; }
      case T.Refuse: this._emit('refuse', { code: body[0] }); return;
      case T.RecvInvit: this._emit('recvInvite', { from: decodeName(body) }); return;
      case T.InvitResponse: this._emit('inviteAnswer', { code: body[0], accepted: body[0] === 1 }); return;
      case T.Board: {
        const c = decodeCoords(body);
        const planes = [];
        for (let i = 0; c && i + 3 < c.length; i += 4) planes.push({ head: [c[i], c[i + 1]], tail: [c[i + 2], c[i + 3]] });
        this._emit('board', { planes });
        return;
      }
      case T.SingleCoord: { const c = decodeCoords(body) ?? []; this._emit('guess', { kind: 'single', x: c[0], y: c[1] }); return; }
      case T.DoubleCoord: { const c = decodeCoords(body) ?? []; this._emit('guess', { kind: 'double', head: [c[0], c[1]], tail: [c[2], c[3]] }); return; }
      case T.GameOver: this._emit('gameOver', {}); return;
      default:
    }
    this._ext(type, body);
  }

  _ext(type, body) {
    let m;
    switch (type) {
      case T.Game:
        try { m = decodeGame(body); } catch (e) { this._emit('error', { error: e, type }); m = null; }
        break;
      case T.Table:
        m = decodeTable(body);
        if (m.id === this.tableId) { this.table = m; this._emit('table', m); }
        break;
      case T.Joined:
        m = decodeJoined(body);
        this.tableId = m.table;
        this.seat = m.table === 0 ? null : m.seat;
        if (m.table === 0) { this.table = null; }
        this.legal = null;
        this._emit('joined', m);
        break;
      case T.Started:
        m = decodeStarted(body);
        this.moves = [];
        this.lastSeq = 0;
        this.legal = null;
        this._emit('started', m);
        break;
      case T.Step: m = decodeStep(body); this._seq(m.seq); this._emit('step', m); break;
      case T.Moved:
        m = decodeMoved(body); this._seq(m.seq); this.moves.push(m);
        if (this.legal && m.seq > this.legal.seq) this.legal = null; // another update: the old list is stale
        this._emit('moved', m);
        break;
      case T.Legal: {
        m = decodeLegal(body);
        const p = this._legalParts;
        const cur = p && p.seq === m.seq && p.table === m.table ? p : { table: m.table, seq: m.seq, seat: m.seat, tooMany: false, moves: [] };
        cur.moves.push(...m.moves);
        cur.tooMany = cur.tooMany || !!(m.flags & LEGAL_TOO_MANY);
        if (m.flags & LEGAL_MORE) { this._legalParts = cur; break; }
        this._legalParts = null;
        this.legal = cur;
        this._emit('legal', cur);
        break;
      }
      case T.Hints: {
        // one answer may come in several messages (LEGAL_MORE): the
        // request is answered by the last
        const d = decodeHints(body);
        const p = this._hintParts;
        m = p && p.seq === d.seq && p.table === d.table ? p : { table: d.table, seq: d.seq, seat: d.seat, moves: [], whole: false };
        m.moves.push(...d.moves);
        m.whole = !(d.flags & LEGAL_MORE);
        this._hintParts = m.whole ? null : m;
        break;
      }
      case T.Replay: m = decodeReplay(body); this._replayView = true; break;
      case T.RatingRow: m = decodeRatingRow(body); break;
      case T.GameRow: m = decodeGameRow(body); break;
      case T.View:
        m = decodeView(body);
        if (this._replayView) { this._replayView = false; break; } // a replayed position, not the table's
        this._seq(m.seq);
        if (this._takeback) { // the View of an agreed takeback: the last move is undone
          this._takeback = false;
          const undone = this.moves.pop();
          if (undone) this._emit('takeback', undone);
        }
        this.view = m; this._emit('view', m);
        break;
      case T.Seated: m = decodeSeated(body); this.seated = m; this._emit('seated', m); break;
      case T.Clock: m = decodeClock(body); this.clock = m; this._emit('clock', m); break;
      case T.Away: m = decodeAway(body); this._emit('away', m); break;
      case T.GameEnd: m = decodeGameEnd(body); this.legal = null; this._emit('gameEnd', m); break;
      case T.Commit: m = decodeCommit(body); this._emit('commit', m); break;
      case T.Offer:
        m = decodeOffer(body);
        // an agreed takeback takes effect with the View that follows the agreements
        if (m.what === OfferWhat.Takeback && m.state === OfferState.Agreed) this._takeback = true;
        this._emit('offer', m);
        break;
      case T.ChatMsg: m = decodeChatMsg(body); this._emit('chat', m); break;
      case T.Invited: m = decodeInvited(body); this._emit('invited', m); break;
      case T.Seeking:
        m = decodeSeeking(body);
        this.seeking = m.state === SeekState.Waiting ? m : null;
        this._emit('seeking', m);
        break;
      case T.Ack: m = decodeAck(body); break;
      case T.Pong: {
        // answers a Ping, never a request: kept out of the request line
        m = decodePong(body);
        const p = this._pings.get(m.nonce);
        if (p) { this._pings.delete(m.nonce); clearTimeout(p.timer); p.resolve(Date.now() - p.sent); }
        return;
      }
      case T.Error: {
        m = decodeError(body);
        // RateLimited for anything but a SignUp is the server's reason for
        // the close that follows: the requests still waiting hear it too
        this._closing = m.code === ErrCode.RateLimited && m.req !== T.SignUp ? new RequestError(m.req, m.code, m.text) : null;
        const i = this._pending.findIndex((p) => p.type === m.req);
        if (i >= 0 && m.req === T.Leave && m.code === ErrCode.NotAtTable) {
          this._settle(i, true, true); // out already: what leave() wanted
          return;
        }
        if (i >= 0) {
          this._settle(i, false, new RequestError(m.req, m.code, m.text)); // a barrier's error is nobody's business
          return;
        }
        this._emit('error', { error: new RequestError(m.req, m.code, m.text), ...m });
        return;
      }
      default:
        this._emit('error', { error: new Error(`unexpected ${typeName(type)}`), type });
        return;
    }
    for (let i = 0; i < this._pending.length; i++) {
      const p = this._pending[i];
      if (!p.match) continue;
      const v = p.match(type, m);
      if (v !== undefined) { this._settle(i, true, v); break; }
    }
  }
}

export { T, MORE, SEAT_ANY, SEAT_WATCHER, ErrCode, Phase, SeatFlag, Scope };
