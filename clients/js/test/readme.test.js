// The README's bot, run as written (its import pointed at this checkout and
// its address at the test daemon) against a random player, to the end of a
// game.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BomberClient } from '../src/index.js';
import { startDaemon } from './daemon.js';
import { playRandom, dotsCandidates, rng } from './bots.js';

const here = dirname(fileURLToPath(import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'bomber-readme-'));
let d, bot;
after(async () => { // also after a timeout: leave no process behind
  bot?.kill();
  await d?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

test('the README bot plays a whole game', { timeout: 60000 }, async () => {
  d = await startDaemon({ BOMBER_WEB_LISTEN: '' });
  const readme = readFileSync(join(here, '../README.md'), 'utf8');
  const code = readme.match(/## A bot in twenty lines[\s\S]*?```js\n([\s\S]*?)```/)[1];
  assert.ok(code.split('\n').length <= 26, 'about twenty lines');
  const file = join(tmp, 'bot.mjs');
  writeFileSync(file, code
    .replace("'@bomber-game/client'", JSON.stringify(pathToFileURL(join(here, '../src/index.js')).href))
    .replace("host: '127.0.0.1', port: 20343", `host: '${d.tcp.host}', port: ${d.tcp.port}`));
  const me = await BomberClient.connectTCP(d.tcp);
  await me.login('Albert', '123');
  await me.createTable({ game: 'dots', seats: 2, options: { rows: 3, cols: 3 } });
  const joined = me.next('table', (t) => t.seats[1].name === 'Beth');
  bot = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  bot.stdout.on('data', (b) => { out += b; });
  bot.stderr.on('data', (b) => { out += b; });
  const exited = new Promise((res) => bot.once('exit', res));
  await joined;
  const game = playRandom(me, dotsCandidates, rng(7));
  await me.ready();
  const end = await game;
  assert.equal(await exited, 0, out);
  assert.match(out, new RegExp(`over: .* scores ${end.scores.join(':')}`), out);
  me.close();
});
