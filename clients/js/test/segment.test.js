// The codec against the golden transcripts (testdata/transcripts/2*.txt):
// every extended message the server and its clients exchanged there is
// decoded and encoded again to the same bytes, and every framing error the
// server detected there is detected here at the same segment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as S from '../src/segment.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), '../../../testdata/transcripts');
const files = readdirSync(dir).filter((f) => /^[2-9]\d_.*\.txt$/.test(f)); // 20 on: the extended protocol

// Each "who > hex # comment" and "who < hex # comment" line, in order.
function lines(file) {
  const out = [];
  readFileSync(join(dir, file), 'utf8').split('\n').forEach((l, i) => {
    const m = l.match(/^(\S+) ([<>]) ([0-9a-f ]+?)\s*(?:#\s*(.*))?$/);
    if (m) out.push({ who: m[1], dir: m[2], bytes: S.fromHex(m[3]), comment: m[4] ?? '', line: i + 1 });
  });
  return out;
}

const ENCODERS = {
  [S.T.Hello]: S.encodeHello, [S.T.Welcome]: S.encodeWelcome, [S.T.Game]: S.encodeGame,
  [S.T.Create]: S.encodeCreate, [S.T.Join]: S.encodeJoin, [S.T.Watch]: S.encodeWatch,
  [S.T.Invite]: S.encodeInvite, [S.T.Move]: S.encodeMove, [S.T.MoveText]: S.encodeMoveText,
  [S.T.Chat]: S.encodeChat, [S.T.Table]: S.encodeTable, [S.T.Joined]: S.encodeJoined,
  [S.T.Started]: S.encodeStarted, [S.T.Step]: S.encodeStep, [S.T.Moved]: S.encodeMoved,
  [S.T.View]: S.encodeView, [S.T.GameEnd]: S.encodeGameEnd, [S.T.Error]: S.encodeError,
  [S.T.ChatMsg]: S.encodeChatMsg, [S.T.Invited]: S.encodeInvited, [S.T.Commit]: S.encodeCommit,
  [S.T.Ack]: S.encodeAck, [S.T.Bot]: S.encodeBot, [S.T.Seated]: S.encodeSeated,
  [S.T.Resume]: S.encodeResume, [S.T.Clock]: S.encodeClock, [S.T.Away]: S.encodeAway,
  [S.T.Ping]: S.encodePing, [S.T.Pong]: S.encodePong, [S.T.SignUp]: S.encodeSignUp,
  [S.T.Legal]: S.encodeLegal, [S.T.Seek]: S.encodeSeek, [S.T.Seeking]: S.encodeSeeking,
  [S.T.Legal]: S.encodeLegal, [S.T.HistoryReq]: S.encodeHistoryReq, [S.T.RatingRow]: S.encodeRatingRow,
  [S.T.GameRow]: S.encodeGameRow, [S.T.ReplayReq]: S.encodeReplayReq, [S.T.Replay]: S.encodeReplay,
  [S.T.Account]: S.encodeAccount, [S.T.HintReq]: S.encodeHintReq, [S.T.Hints]: S.encodeHints,
};

function reencode(type, msg, body) {
  if (type === S.T.Offer) return body.length === 2 ? S.encodeOfferRequest(msg) : S.encodeOffer(msg);
  const enc = ENCODERS[type];
  return enc ? enc(msg) : new Uint8Array(0); // the empty requests
}

test('every extended message of the golden transcripts decodes and encodes back to its bytes', () => {
  let checked = 0;
  const types = new Set();
  for (const f of files) {
    const streams = new Map(); // who+dir → {dec, raw: segments of the message in progress}
    for (const l of lines(f)) {
      const key = l.who + l.dir;
      if (!streams.has(key)) streams.set(key, { dec: new S.MessageDecoder(), raw: [] });
      const st = streams.get(key);
      if (st.reference === undefined) st.reference = l.dir === '>' && l.bytes[0] !== S.T.Hello;
      if (st.dead || st.reference) continue; // a reference client's stream is another dialect
      let msgs;
      try {
        msgs = st.dec.push(l.bytes);
      } catch (e) {
        assert.ok(e instanceof S.FramingError, `${f}:${l.line}: ${e}`);
        assert.match(l.comment, /protocol error/, `${f}:${l.line}: the codec refused what the server took: ${e.message}`);
        st.dead = true;
        continue;
      }
      assert.doesNotMatch(l.comment, /protocol error/, `${f}:${l.line}: the server refused what the codec took`);
      st.raw.push(l.bytes);
      for (const { type, body } of msgs) {
        const wire = concat(st.raw);
        st.raw = [];
        if (!S.isExtended(type)) continue;
        if (/malformed|0 bytes: the end/.test(l.comment) && l.comment.match(/^\w+ \(\d+ bytes/)) {
          // a body the transcript itself calls malformed: decoding must refuse it
          assert.throws(() => S.decodeMessage(type, body), S.BodyError, `${f}:${l.line}`);
          continue;
        }
        const msg = S.decodeMessage(type, body);
        if (/\\x[0-9a-f]{2}/.test(l.comment)) continue; // text that is not UTF-8 has no JS string to round-trip through
        assert.deepEqual(S.toHex(S.encodeMessage(type, reencode(type, msg, body))), S.toHex(wire), `${f}:${l.line}: ${l.comment}`);
        checked++;
        types.add(type);
      }
    }
  }
  assert.ok(checked > 500, `only ${checked} messages checked`);
  // every message type of section 8 occurs in the transcripts
  for (const [name, t] of Object.entries(S.T)) {
    if (t >= 0x20) assert.ok(types.has(t), `no ${name} in the transcripts`);
  }
});

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) { out.set(p, off); off += p.length; }
  return out;
}

test('decoded fields match the transcripts\' descriptions', () => {
  const one = (hex) => {
    const msgs = new S.MessageDecoder().push(S.fromHex(hex));
    assert.equal(msgs.length, 1);
    return msgs[0];
  };
  let m = one('21 00 07 01 00 00 00 03 04 00');
  assert.deepEqual(S.decodeWelcome(m.body), { version: 1, features: 3, maxMessage: 1024 });
  m = one('38 00 0f 25 10 0c 6c 6f 67 20 69 6e 20 66 69 72 73 74');
  assert.deepEqual(S.decodeError(m.body), { req: S.T.ListReq, code: S.ErrCode.NotLoggedIn, text: 'log in first' });
  m = one('b1 00 1d 00 00 00 01 08 63 68 65 63 6b 65 72 73 00 00 00 00 00 02 06 41 6c 62 65 72 74 00 00 00 31 00 01 00');
  assert.deepEqual(S.decodeTable(m.body), {
    id: 1, game: 'checkers', flags: 0, phase: 0, watchers: 0, code: '',
    seats: [{ name: 'Albert', flags: 0 }, { name: '', flags: 0 }], options: [],
  });
  m = one('35 00 0f 00 00 00 01 00 01 02 0b 0f 05 31 31 2d 31 35');
  const moved = S.decodeMoved(m.body);
  assert.deepEqual({ ...moved, arg: [...moved.arg] }, { seq: 1, seat: 0, kind: 1, arg: [11, 15], notation: '11-15' });
  m = one('34 00 0c 00 00 00 05 02 01 00 03 00 04 ff ff');
  assert.deepEqual(S.decodeStep(m.body), { seq: 5, kind: 2, player: 1, a: 3, b: 4, c: -1 });
  m = one('39 00 1a 00 00 00 00 00 06 41 6c 62 65 72 74 68 65 6c 6c 6f 20 65 76 65 72 79 6f 6e 65');
  assert.deepEqual(S.decodeChatMsg(m.body), { scope: 0, table: 0, from: 'Albert', text: 'hello everyone' });
  // a Game with the game facts (docs/protocol.md, Game), and one without (an older server, or not asked for)
  m = one('23 00 18 04 64 6f 74 73 02 04 00 0e 44 6f 74 73 20 61 6e 64 20 42 6f 78 65 73 01');
  assert.deepEqual(S.decodeGame(m.body), { name: 'dots', min: 2, max: 4, options: [], title: 'Dots and Boxes', flags: S.GAME_TAKEBACK });
  m = one('23 00 08 04 64 6f 74 73 02 02 00');
  assert.deepEqual(S.decodeGame(m.body), { name: 'dots', min: 2, max: 2, options: [] });
});

test('Legal decodes as docs/protocol.md section 10 shows it', () => {
  const dec = new S.MessageDecoder();
  const msgs = dec.push(S.fromHex('c7 00 1d 00 00 00 01 00 00 00 00 00 00 04 01 02 09 02 0d 0e 01 02 0a 02 0e 0f 01 02 0b 02 0f 10 47 00 05 01 02 0c 01 10'));
  assert.equal(msgs.length, 1);
  const m = S.decodeLegal(msgs[0].body);
  assert.equal(m.table, 1); assert.equal(m.seq, 0); assert.equal(m.seat, 0); assert.equal(m.flags, 0);
  assert.deepEqual(m.moves.map((x) => x.arg.join('-')), ['9-13', '9-14', '10-14', '10-15', '11-15', '11-16', '12-16']);
  assert.deepEqual(S.decodeLegal(S.encodeLegal(m)), m);
  assert.deepEqual(S.decodeLegal(S.fromHex('00 00 00 02 00 00 00 00 00 02 00')), { table: 2, seq: 0, seat: 0, flags: S.LEGAL_TOO_MANY, groups: [], moves: [] });
});

test('HintReq and Hints read as docs/protocol.md section 10 shows them', () => {
  const dec = new S.MessageDecoder();
  let msgs = dec.push(S.fromHex('42 00 09 00 00 00 02 04 00 02 03 02'));
  assert.deepEqual(S.decodeHintReq(msgs[0].body), { table: 2, chosen: [0, 2, 3, 2] });
  assert.deepEqual(S.encodeHintReq({ table: 2, chosen: [0, 2, 3, 2] }), msgs[0].body);
  msgs = dec.push(S.fromHex('50 00 14 00 00 00 02 00 00 00 00 00 00 01 01 04 04 04 02 07 04 04 01'));
  assert.equal(msgs[0].type, S.T.Hints);
  const m = S.decodeHints(msgs[0].body);
  assert.deepEqual(m.moves.map((x) => x.arg.join('')), ['4474', '4441']);
  assert.deepEqual(S.encodeHints(m), msgs[0].body);
  assert.throws(() => S.encodeHintReq({ table: 1, chosen: new Array(17).fill(0) }));
});

test('Seeking reads as the protocol document shows it', () => {
  const m = S.decodeSeeking(S.fromHex('00 02 04 64 6f 74 73 00 05 dc 05 14 06 a4 00 00 01 0b 63 6c 6f 63 6b 2e 74 6f 74 61 6c 03 31 38 30'));
  assert.deepEqual(m, { state: S.SeekState.Waiting, flags: S.SEEK_PROVISIONAL, game: 'dots', rated: false, rating: 1500, low: 1300, high: 1700, waited: 0, options: [{ key: 'clock.total', value: '180' }] });
  assert.deepEqual(S.decodeSeeking(S.encodeSeeking(m)), m);
});

test('encoders produce the transcripts\' requests', () => {
  const hex = (t, body) => S.toHex(S.encodeMessage(t, body));
  assert.equal(hex(S.T.Hello, S.encodeHello()), '20 00 05 01 00 00 00 03');
  assert.equal(hex(S.T.Hello, S.encodeHello({ features: S.FEATURES_ALL })), '20 00 05 01 00 00 0f ff');
  assert.equal(hex(S.T.Seek, S.encodeSeek({ game: 'dots', options: [{ key: 'clock.total', value: '180' }] })),
    '48 00 18 00 04 64 6f 74 73 00 01 0b 63 6c 6f 63 6b 2e 74 6f 74 61 6c 03 31 38 30');
  assert.equal(hex(S.T.Seek, S.encodeSeek({ action: S.SeekAction.Cancel })), '48 00 04 01 00 00 00');
  assert.equal(hex(S.T.Ping, S.encodePing({ nonce: 7 })), '3c 00 04 00 00 00 07');
  assert.equal(hex(S.T.Pong, S.encodePong({ nonce: 7 })), '3d 00 04 00 00 00 07');
  assert.equal(hex(S.T.Create, S.encodeCreate({ game: 'checkers', seats: 2 })), '24 00 0c 08 63 68 65 63 6b 65 72 73 02 00 00');
  assert.equal(hex(S.T.Join, S.encodeJoin({ table: 9 })), '26 00 06 00 00 00 09 ff 00');
  assert.equal(hex(S.T.Watch, S.encodeWatch({ table: 1 })), '27 00 05 00 00 00 01 00');
  assert.equal(hex(S.T.MoveText, S.encodeMoveText({ notation: '11-15' })), '2c 00 05 31 31 2d 31 35');
  assert.equal(hex(S.T.Move, S.encodeMove({ kind: 9, arg: [1, 2] })), '2b 00 04 09 02 01 02');
  assert.equal(hex(S.T.Offer, S.encodeOfferRequest({ what: 3, answer: 0 })), '2e 00 02 03 00');
  assert.equal(hex(S.T.Invite, S.encodeInvite({ user: 'Novate' })), '29 00 07 06 4e 6f 76 61 74 65');
  assert.equal(hex(S.T.Chat, S.encodeChat({ scope: 0, text: 'hello everyone' })), '30 00 0f 00 68 65 6c 6c 6f 20 65 76 65 72 79 6f 6e 65');
  assert.equal(hex(S.T.ListReq), '25 00 00');
});

test('continuation: a body takes ceil(n/29) segments, all but the last T|More with 29 bytes', () => {
  const text = 'ab'.repeat(20); // 41-byte body with the scope byte (docs/protocol.md 8.2)
  const wire = S.encodeMessage(S.T.Chat, S.encodeChat({ scope: 0, text }));
  assert.equal(S.toHex(wire.subarray(0, 3)), 'b0 00 1d');
  assert.equal(S.toHex(wire.subarray(32, 35)), '30 00 0c');
  assert.equal(wire.length, 32 + 15);
  for (const [n, segs] of [[0, 1], [29, 1], [30, 2], [58, 2], [59, 3]]) {
    assert.equal(S.fragment(S.T.Chat, new Uint8Array(n)).length, segs, `${n} bytes`);
  }
  // split at every byte, the decoder gives the same message
  const dec = new S.MessageDecoder();
  const got = [];
  for (const b of wire) got.push(...dec.push(Uint8Array.of(b)));
  assert.equal(got.length, 1);
  assert.deepEqual(S.decodeChat(got[0].body), { scope: 0, text });
});

test('framing errors are found before anything is buffered', () => {
  const fails = (hex, kind) => {
    const dec = new S.MessageDecoder();
    assert.throws(() => dec.push(S.fromHex(hex)), (e) => e instanceof S.FramingError && e.kind === kind, hex);
    assert.throws(() => dec.push(S.fromHex('08 00 00')), S.FramingError, 'a decoder that failed stays failed');
  };
  fails('05', 'unknown_type'); // at its first byte
  fails('51', 'unknown_type');
  fails('d1', 'unknown_type');
  fails('b0 00 1c', 'length'); // a fragment of 28 bytes, at its header
  fails('a0 00 1d', 'length'); // Hello has no fragments
  fails('2b 00 13', 'length'); // Move with 19 bytes
  fails('28 00 01', 'length'); // Leave with 1 byte
  fails('08 00 01', 'length'); // SyncEnd with a payload
  fails(`b0 00 1d ${'78 '.repeat(29)} 25 00 00`, 'fragment'); // another type inside a Chat
  fails(`b0 00 1d ${'78 '.repeat(29)} 30 00 00`, 'fragment'); // empty last segment
  // a body passing its cap fails at the segment that passes it
  const dec = new S.MessageDecoder();
  const frag = S.fromHex(`b0 00 1d ${'78 '.repeat(29)}`);
  for (let i = 0; i < 10; i++) dec.push(frag); // 290 bytes: within Chat's 300
  assert.equal(dec.assembler.buffered, 290);
  assert.throws(() => dec.push(frag), (e) => e.kind === 'fragment' && /cap of 300/.test(e.message));
});

test('encoders refuse what cannot be sent instead of cutting it', () => {
  assert.throws(() => S.encodeInvite({ user: 'x'.repeat(256) }), S.BodyError);
  assert.throws(() => S.encodeChat({ scope: 0, text: 'x'.repeat(300) }), S.BodyError);
  assert.throws(() => S.encodeMove({ kind: 1, arg: new Array(17).fill(0) }), S.BodyError);
  assert.throws(() => S.encodeName('x'.repeat(30)), S.BodyError);
  assert.throws(() => S.decodeJoined(S.fromHex('00 00 00 07')), S.BodyError);
  assert.throws(() => S.decodeJoined(S.fromHex('00 00 00 07 01 00')), S.BodyError);
});

test('safeText replaces what could move the cursor or reorder a line', () => {
  assert.equal(S.safeText('x\r Beth: type your password'), 'x\ufffd Beth: type your password');
  assert.equal(S.safeText('\x1b]0;owned\x07\x1b[2J'), '\ufffd]0;owned\ufffd\ufffd[2J');
  assert.equal(S.safeText('a\x00b\nc\td\x7f\u0085'), 'a\ufffdb\ufffdc\ufffdd\ufffd\ufffd');
  assert.equal(S.safeText('abc\u202etxt.exe\u2066\u2069\u200f'), 'abc\ufffdtxt.exe\ufffd\ufffd\ufffd');
  assert.equal(S.safeText('héllo 你好 مرحبا ☺'), 'héllo 你好 مرحبا ☺');
});
