// Requests the encoder refuses (a chat line or a move too long for its
// message) reject their promise, as every other refusal does, instead of
// throwing at the caller; the client goes on working.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BomberClient, RequestError, ClosedError, ErrCode } from '../src/index.js';
import { startDaemon } from './daemon.js';

let d;
const open = [];
before(async () => { d = await startDaemon(); });
after(async () => {
  for (const c of open) c.close();
  await d?.stop();
});

test('a chat line or a move too long for its message rejects the promise; the client goes on', async () => {
  const c = await BomberClient.connectTCP(d.tcp);
  open.push(c);
  await c.login('Albert', '123');
  const calls = {
    chat: () => c.chat('lobby', 'x'.repeat(400)),
    moveText: () => c.moveText('1'.repeat(400)),
    move: () => c.move({ kind: 1, arg: new Array(400).fill(1) }),
  };
  for (const [name, call] of Object.entries(calls)) {
    let p;
    assert.doesNotThrow(() => { p = call(); }, `${name} threw at the caller`);
    assert.ok(p instanceof Promise, `${name} gave no promise`);
    await assert.rejects(p, (e) => e instanceof Error && !(e instanceof assert.AssertionError), `${name} did not reject`);
  }
  const said = await c.chat('lobby', 'still here');
  assert.equal(said.text, 'still here');
});

test('a connection the server closes for sending too fast says so: its promises and its close name RateLimited', async () => {
  // no pacing: the client sends as fast as its caller asks
  const c = await BomberClient.connectTCP({ ...d.tcp, segmentRate: 0 });
  open.push(c);
  await c.login('Beth', '123');
  const closed = c.next('close');
  const all = await Promise.allSettled(Array.from({ length: 400 }, () => c.listTables()));
  const { reason } = await closed;
  assert.ok(reason instanceof RequestError, `close event reason ${reason}`);
  assert.equal(reason.code, ErrCode.RateLimited);
  const rejected = all.filter((r) => r.status === 'rejected').map((r) => r.reason);
  assert.ok(rejected.length > 0, 'every request answered');
  for (const e of rejected) {
    assert.ok(e.code === ErrCode.RateLimited || e.reason?.code === ErrCode.RateLimited, `${e}`);
    assert.match(e.message, /too fast/);
  }
  assert.ok(rejected.some((e) => e instanceof ClosedError), 'the requests still waiting are rejected at the close');
});
