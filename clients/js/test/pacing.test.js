// The server closes a connection that sends more than limits.segment_rate
// segments a second (bursts of segment_burst): the client paces its sends
// so that a burst of requests all get their answers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BomberClient, ClosedError, SEGMENT_BURST } from '../src/index.js';
import { startDaemon } from './daemon.js';

let d;
const open = [];
before(async () => { d = await startDaemon(); });
after(async () => {
  for (const c of open) c.close();
  await d?.stop();
});

const N = SEGMENT_BURST + 150; // one segment each: past the burst

test('requests past the server\'s burst are paced and all answered', { timeout: 30000 }, async () => {
  const c = await BomberClient.connectTCP(d.tcp);
  open.push(c);
  const start = Date.now();
  const pongs = await Promise.all(Array.from({ length: N }, () => c.ping()));
  assert.equal(pongs.length, N);
  assert.ok(!c.closed, 'the server closed the connection');
  const s = (Date.now() - start) / 1000;
  // the 150 past the burst go at nine tenths of 50 a second: about 3.3 s
  assert.ok(s > 2 && s < 10, `${N} pings took ${s} s`);
});

test('without pacing the same burst gets the connection closed', { timeout: 30000 }, async () => {
  const c = await BomberClient.connectTCP({ ...d.tcp, segmentRate: 0 });
  open.push(c);
  const all = await Promise.allSettled(Array.from({ length: N }, () => c.ping()));
  assert.ok(all.some((r) => r.status === 'rejected' && r.reason instanceof ClosedError), 'no ping was cut off');
  assert.ok(c.closed);
});
