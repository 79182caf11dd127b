// Tiny random players written with the library. The client has no rules
// engine: a bot lists candidate moves from the View (layouts in
// rules/<game>/doc.go) and lets the server say which are legal.
import { ErrCode } from '../src/index.js';

const letter = (i) => String.fromCharCode(97 + i);

/** Every free line of a Dots and Boxes view, in notation ("a1-b1"). */
export function dotsCandidates(view) {
  const [R, C] = view.extra;
  const out = [];
  for (let r = 0; r < R; r++) {
    for (let c = 0; c < C - 1; c++) if (!view.cells[r * (C - 1) + c]) out.push(`${letter(c)}${r + 1}-${letter(c + 1)}${r + 1}`);
  }
  for (let r = 0; r < R - 1; r++) {
    for (let c = 0; c < C; c++) if (!view.cells[R * (C - 1) + r * C + c]) out.push(`${letter(c)}${r + 1}-${letter(c)}${r + 2}`);
  }
  return out;
}

// Checkers: PDN square n (1..32) ↔ row and column of the 8x8 board.
const rc = (n) => { const r = Math.floor((n - 1) / 4), i = (n - 1) % 4; return [r, r % 2 === 0 ? 2 * i + 1 : 2 * i]; };
const sq = (r, c) => (r < 0 || r > 7 || c < 0 || c > 7 || (r + c) % 2 === 0 ? 0 : r * 4 + Math.floor(c / 2) + 1);

/** The moves of seat's pieces in a Checkers view: every jump path when any, else every step. */
export function checkersCandidates(view, seat) {
  const cells = view.cells; // 1 Black man, 2 Black king, 3 White man, 4 White king
  const mine = (v) => (seat === 0 ? v === 1 || v === 2 : v === 3 || v === 4);
  const theirs = (v) => v !== 0 && !mine(v);
  const jumps = [];
  const steps = [];
  for (let n = 1; n <= 32; n++) {
    const v = cells[n - 1];
    if (!mine(v)) continue;
    const king = v === 2 || v === 4;
    const fwd = seat === 0 ? 1 : -1;
    const dirs = king ? [[1, 1], [1, -1], [-1, 1], [-1, -1]] : [[fwd, 1], [fwd, -1]];
    const [r, c] = rc(n);
    for (const [dr, dc] of dirs) {
      const to = sq(r + dr, c + dc);
      if (to && cells[to - 1] === 0) steps.push(`${n}-${to}`);
    }
    const board = Array.from(cells);
    board[n - 1] = 0;
    const walk = (path, r0, c0, taken) => {
      let more = false;
      for (const [dr, dc] of dirs) {
        const over = sq(r0 + dr, c0 + dc);
        const land = sq(r0 + 2 * dr, c0 + 2 * dc);
        if (!over || !land || !theirs(board[over - 1]) || taken.has(over) || board[land - 1] !== 0) continue;
        more = true;
        const [lr, lc] = rc(land);
        const crowned = !king && (lr === (seat === 0 ? 7 : 0));
        if (crowned) jumps.push([...path, land].join('x'));
        else walk([...path, land], lr, lc, new Set([...taken, over]));
      }
      if (!more && path.length > 1) jumps.push(path.join('x'));
    };
    walk([n], r, c, new Set());
  }
  return jumps.length ? jumps : steps;
}

/** The moves the server listed for the seat to move (client.legal): no rules in the client at all. */
export function legalCandidates(view, seat, client) {
  return client.legal && client.legal.seq === view.seq ? [...client.legal.moves] : [];
}

function shuffle(a, rand) {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/** A small seeded generator (mulberry32), so a failing game can be replayed. */
export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Plays client's seat with random moves from candidates(view, seat) until
 * the game ends; resolves with GameEnd. Whenever a move is announced it asks
 * for a fresh View and, on its turn, tries candidates in random order until
 * the server accepts one.
 */
export function playRandom(client, candidates, rand) {
  return new Promise((resolve, reject) => {
    let busy = false;
    let again = false;
    let over = false;
    const fail = (e) => { over = true; offs.forEach((f) => f()); reject(e); };
    const act = async () => {
      if (busy) { again = true; return; }
      busy = true;
      try {
        do {
          again = false;
          if (over) return;
          let view;
          try {
            view = await client.requestView();
          } catch (e) {
            if (e.code === ErrCode.GameOver || e.code === ErrCode.NotSeated) continue; // no game yet (or any more)
            throw e;
          }
          if (over || view.status !== 0 || !view.toMove.includes(client.seat)) continue;
          let played = false;
          for (const m of shuffle(candidates(view, client.seat, client), rand)) {
            try {
              await (typeof m === 'string' ? client.moveText(m) : client.move(m));
              played = true;
              break;
            } catch (e) {
              if (e.code === ErrCode.Illegal || e.code === ErrCode.BadNotation) continue;
              if (e.code === ErrCode.NotYourTurn || e.code === ErrCode.GameOver || e.code === ErrCode.NotSeated) break;
              throw e;
            }
          }
          if (!played && !over && view.toMove.includes(client.seat)) {
            const fresh = await client.requestView();
            if (fresh.seq === view.seq && fresh.toMove.includes(client.seat)) {
              throw new Error(`no candidate accepted in ${JSON.stringify({ ...view, cells: [...view.cells] })}`);
            }
            again = true;
          }
        } while (again);
      } catch (e) {
        fail(e);
      } finally {
        busy = false;
      }
    };
    const offs = [
      client.on('started', () => act()),
      client.on('moved', () => act()),
      client.on('gameEnd', (e) => { over = true; offs.forEach((f) => f()); resolve(e); }),
      client.on('close', () => fail(new Error('connection closed mid-game'))),
    ];
    act();
  });
}
