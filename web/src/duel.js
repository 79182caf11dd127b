// A Bomber game the reference client's way (SendInvit, Board, SingleCoord,
// DoubleCoord, GameOver), so a browser user can play someone on the
// reference Electron client. The server only relays and judges the win;
// the client keeps the game, so this module tracks both boards and draws
// them with the Bomber board of games/bomber.js through a View it builds.
import { planeCells } from './games/bomber.js';

const cell = (x, y) => x * 10 + y;

/** newDuel starts a duel: role 0 the inviter (guesses first), 1 the invitee. */
export function newDuel(opponent, role) {
  return { opponent, role, mine: null, theirs: null, guesses: [[], []], turn: 0, over: null, log: [] };
}

/** planesOf turns library planes ({head: [x, y], tail: [x, y]}) into [head, tail] cells. */
export function planesOf(list) {
  return list.map((p) => [cell(...p.head), cell(...p.tail)]);
}

// revealed lists the cells of `planes` that the guesses found (single
// hits and whole planes named right), with their heads.
function revealed(planes, guesses) {
  const out = new Map(); // cell -> 4 body or 5 head
  const heads = new Set(planes.map(([h]) => h));
  const all = new Set(planes.flatMap(([h, t]) => planeCells(h, t)));
  for (const g of guesses) {
    if (g.kind === 'single') {
      if (all.has(g.cell)) out.set(g.cell, heads.has(g.cell) ? 5 : 4);
    } else {
      const p = planes.find(([h, t]) => h === g.head && t === g.tail);
      if (p) for (const c of planeCells(...p)) out.set(c, c === p[0] ? 5 : 4);
    }
  }
  return out;
}

/** found counts the plane cells of `planes` the guesses revealed. */
export function found(planes, guesses) {
  return planes ? revealed(planes, guesses).size : 0;
}

/** view builds a Bomber View (rules/bomber/doc.go layout) of the duel for its player. */
export function view(d) {
  const me = d.role, them = 1 - me;
  const cells = new Uint8Array(200);
  const grid = (seat, planes, guesses, own) => {
    const base = seat * 100;
    if (own && planes) for (const [h, t] of planes) for (const c of planeCells(h, t)) cells[base + c] = c === h ? 2 : 1;
    for (const g of guesses) if (g.kind === 'single') cells[base + g.cell] = cells[base + g.cell] || 3;
    if (planes) for (const [c, v] of revealed(planes, guesses)) cells[base + c] = v;
  };
  grid(me, d.mine, d.guesses[them], true);
  grid(them, d.theirs, d.guesses[me], false);
  const phase = d.over ? 2 : d.mine && d.theirs ? 1 : 0;
  const extra = new Uint8Array(91);
  extra[0] = phase; extra[1] = d.turn; extra[2] = d.over ? d.over.winner : 255;
  const scores = [0, 0];
  scores[me] = found(d.theirs, d.guesses[me]);
  scores[them] = found(d.mine, d.guesses[them]);
  const toMove = phase === 0 ? (d.mine ? [] : [me]) : phase === 1 ? [d.turn] : [];
  return { seq: d.log.length, viewer: me, status: d.over ? 1 : 0, toMove, scores, cells, extra };
}
