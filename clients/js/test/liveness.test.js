// Liveness and request timeouts: Ping and Pong against a real bomberd (TCP
// and WebSocket), and, over a transport the test plays the server on, a
// frozen server given up after a Ping goes unanswered, a live one kept, and
// a request that is never answered rejected.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  BomberClient, TimeoutError, ClosedError, T, FEATURES_ALL, FEATURE_PING,
  encodeMessage, encodeWelcome, encodePong, encodeChatMsg, MessageDecoder,
} from '../src/index.js';
import { startDaemon } from './daemon.js';

let d;
before(async () => { d = await startDaemon(); });
after(async () => { await d?.stop(); });

test('the server answers ping() over TCP and WebSocket, before and after login', async () => {
  const a = await BomberClient.connectTCP(d.tcp);
  const b = await BomberClient.connectWebSocket(d.ws);
  try {
    assert.ok(a.welcome.features & FEATURE_PING, 'the daemon offers Ping');
    for (const c of [a, b]) {
      const rtt = await c.ping();
      assert.equal(typeof rtt, 'number');
    }
    await a.login('Albert', '123');
    assert.equal(typeof await a.ping(), 'number');
  } finally {
    a.close();
    b.close();
  }
});

// fakeServer is a transport the test answers for: it records what the
// client sent, by message, and hands the client a Welcome offering features.
function fakeServer(opts, { features = FEATURES_ALL, answerPings = false } = {}) {
  const sent = [];
  const dec = new MessageDecoder();
  const t = { aborted: false, closed: false };
  let client;
  const waiters = [];
  t.send = (bytes) => {
    for (const m of dec.push(bytes)) {
      sent.push(m);
      if (answerPings && m.type === T.Ping) {
        queueMicrotask(() => client._data(encodeMessage(T.Pong, encodePong({ nonce: new DataView(m.body.buffer, m.body.byteOffset).getUint32(0) }))));
      }
      for (const w of waiters.splice(0)) w();
    }
  };
  t.close = () => { t.closed = true; };
  t.abort = () => { t.aborted = true; };
  client = new BomberClient(t, opts);
  client._hello();
  client._data(encodeMessage(T.Welcome, encodeWelcome({ version: 1, features, maxMessage: 1024 })));
  const pings = () => sent.filter((m) => m.type === T.Ping).length;
  // until resolves once pred holds of what was sent
  const until = (pred) => new Promise((res) => {
    const check = () => (pred() ? res() : waiters.push(check));
    check();
  });
  return { client, t, sent, pings, until };
}

test('a server that stops answering is given up after a Ping goes unanswered', async () => {
  const s = fakeServer({ pingInterval: 20, pingTimeout: 20 });
  const closed = s.client.next('close');
  const { error } = await closed;
  assert.ok(error instanceof TimeoutError, `${error}`);
  assert.equal(s.pings(), 1, 'one Ping, then the deadline');
  assert.ok(s.t.aborted, 'the transport was dropped');
  await assert.rejects(s.client.listTables(), ClosedError);
});

test('a server that answers its Pings keeps the connection', async () => {
  const s = fakeServer({ pingInterval: 10, pingTimeout: 20 }, { answerPings: true });
  await s.until(() => s.pings() >= 5);
  assert.equal(s.client.closed, false);
  s.client.close();
});

test('without the Ping feature the client does not ping', async () => {
  const s = fakeServer({ pingInterval: 5, pingTimeout: 5, requestTimeout: 60 }, { features: 3 });
  await assert.rejects(s.client.requestView(), TimeoutError); // time for several intervals to pass
  assert.equal(s.pings(), 0);
  assert.equal(s.client.closed, false);
  await assert.rejects(s.client.ping(), /Ping/);
  s.client.close();
});

test('a request the server never answers rejects with a TimeoutError; later answers still match in order', async () => {
  const s = fakeServer({ requestTimeout: 30, pingInterval: 0 });
  await assert.rejects(s.client.listTables(), (e) => e instanceof TimeoutError && /ListReq/.test(e.message));
  const chat = s.client.chat('lobby', 'hi');
  s.client.user = 'Albert';
  s.client._data(encodeMessage(T.ChatMsg, encodeChatMsg({ scope: 0, from: 'Albert', text: 'hi' })));
  assert.equal((await chat).text, 'hi');
  s.client.close();
});
