// Starts a real bomberd for the tests: built from this repository into a
// temporary directory (or the binary in $BOMBERD), on 127.0.0.1 port 0 with a
// fresh embedded store and its demo accounts (password 123). The addresses
// are read from its log, as cmd/bomberd/main_test.go does.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
let built = null;

function binary() {
  if (process.env.BOMBERD) return process.env.BOMBERD;
  if (!built) {
    const dir = mkdtempSync(join(tmpdir(), 'bomberd-bin-'));
    built = { dir, bin: join(dir, 'bomberd') };
    execFileSync('go', ['build', '-o', built.bin, './cmd/bomberd'], { cwd: repo, stdio: 'inherit' });
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return built.bin;
}

/** Starts bomberd; resolves with {tcp: {host, port}, ws: url, stop()}. */
export async function startDaemon(env = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'bomberd-js-'));
  writeFileSync(join(dir, 'none.yaml'), 'log:\n  format: console\n');
  const child = spawn(binary(), ['--config', join(dir, 'none.yaml')], {
    cwd: dir,
    env: {
      ...process.env,
      BOMBER_LISTEN: '127.0.0.1:0',
      BOMBER_ADMIN_LISTEN: '127.0.0.1:0',
      BOMBER_WEB_LISTEN: '127.0.0.1:0',
      BOMBER_HASHING_MEMORY_KIB: '64',
      BOMBER_HASHING_ITERATIONS: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const exited = new Promise((res) => child.once('exit', res));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const addrs = await new Promise((res, rej) => {
    const found = {};
    const look = (chunk) => {
      log += chunk;
      for (const [key, what] of [['tcp', 'listening'], ['web', 'web listening']]) {
        const m = log.match(new RegExp(`\\t${what}\\t\\{"addr": "([^"]+)"`));
        if (m) found[key] = m[1];
      }
      if (found.tcp && (found.web || env.BOMBER_WEB_LISTEN === '')) res(found);
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.once('exit', (code) => rej(new Error(`bomberd exited (${code}):\n${log}`)));
    setTimeout(() => rej(new Error(`bomberd did not start:\n${log}`)), 30000).unref();
  }).catch(async (e) => { await stop(); throw e; }); // leave no daemon behind
  const i = addrs.tcp.lastIndexOf(':');
  return {
    tcp: { host: addrs.tcp.slice(0, i), port: Number(addrs.tcp.slice(i + 1)) },
    ws: addrs.web ? `ws://${addrs.web}/ws` : null,
    http: addrs.web ? `http://${addrs.web}/` : null,
    log: () => log,
    stop,
  };
}
