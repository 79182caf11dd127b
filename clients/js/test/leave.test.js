// leave() settles on the answer to its own Leave: a watcher whose table
// closes (the server sends Joined table=0 on its own) while its Leave is
// on the way is not told that its Leave failed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { BomberClient } from '../src/index.js';
import { startDaemon } from './daemon.js';

let d;
const open = [];
before(async () => { d = await startDaemon(); });
after(async () => {
  for (const c of open) c.close();
  await d?.stop();
});

// heldClient connects over TCP through a transport whose incoming bytes
// the test can hold back and let go.
async function heldClient() {
  const sock = net.connect(d.tcp);
  await new Promise((res, rej) => { sock.once('connect', res); sock.once('error', rej); });
  const held = { on: false, bytes: [] };
  const c = new BomberClient({ send: (b) => sock.write(b), close: () => sock.end(), abort: () => sock.destroy() });
  sock.on('data', (b) => {
    const u = new Uint8Array(b.buffer, b.byteOffset, b.length);
    if (held.on) held.bytes.push(Uint8Array.from(u)); else c._data(u);
  });
  sock.on('close', () => c._closed(null));
  held.release = () => { held.on = false; for (const b of held.bytes.splice(0)) c._data(b); };
  c._hello();
  await c._welcome;
  open.push(c);
  return { c, held };
}

test('a watcher leaving as its table closes: leave() resolves and no error is reported', async () => {
  const albert = await BomberClient.connectTCP(d.tcp);
  open.push(albert);
  await albert.login('Albert', '123');
  const { c: beth, held } = await heldClient();
  await beth.login('Beth', '123');
  const t = await albert.createTable({ game: 'dots', seats: 2 });
  await beth.watch(t.id);
  const errors = [];
  beth.on('error', (e) => errors.push(e.error?.message ?? String(e)));
  held.on = true; // Beth has not yet heard that the table closed...
  await albert.leave(); // ...when the last player's Leave closes it
  const left = beth.leave(); // and she leaves too
  held.release();
  await left;
  assert.equal(beth.tableId, 0);
  await beth.chat('lobby', 'after leaving'); // every answer to Beth's requests is in
  assert.deepEqual(errors, [], 'Beth was told of an error');
});
