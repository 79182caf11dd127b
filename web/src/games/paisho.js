// Vagabond Pai Sho: the circular board with its four temples; tiles in
// hand below it. Click a tile in your hand, then an empty point, to
// deploy; click one of your tiles on the board, then where it goes.
import { h, s, svg, activate } from '../dom.js';

const U = 20;
const LETTERS = ['', 'L', 'S', 'B', 'W', 'C', 'F', 'D'];
const TILE_NAMES = ['', 'White Lotus', 'Sky Bison', 'Badgermole', 'Wheel', 'Chrysanthemum', 'Fire Lily', 'White Dragon'];
const TEMPLES = new Set(['0,8', '0,-8', '8,0', '-8,0']);
const pt = (x, y) => `(${x},${y})`;

export function render(ctx, ui) {
  const { view } = ctx;
  const ex = view.extra;
  const mine = ctx.canMove && (ctx.seat === 0 || ctx.seat === 1);
  const kids = [s('circle', { cx: 0, cy: 0, r: Math.sqrt(80) * U + 8, class: 'ps-disc' })];
  for (let k = -8; k <= 8; k++) {
    const w = Math.floor(Math.sqrt(80 - k * k));
    kids.push(s('line', { x1: -w * U, y1: -k * U, x2: w * U, y2: -k * U, class: 'ps-grid' }));
    kids.push(s('line', { x1: k * U, y1: -w * U, x2: k * U, y2: w * U, class: 'ps-grid' }));
  }
  kids.push(s('line', { x1: -8 * U, y1: 0, x2: 8 * U, y2: 0, class: 'ps-axis' }), s('line', { x1: 0, y1: -8 * U, x2: 0, y2: 8 * U, class: 'ps-axis' }));
  // What the picked tile may do, from the server's legal moves (ctx.legal):
  // kind 1 deploys tile arg[0] at (arg[1]-8, arg[2]-8); kind 2 moves the
  // tile at (arg[0]-8, arg[1]-8) to (arg[2]-8, arg[3]-8).
  const legal = mine ? (ctx.legal || []) : [];
  const deploys = (t) => legal.filter((m) => m.kind === 1 && m.arg[0] === t);
  const movesFrom = (x, y) => legal.filter((m) => m.kind === 2 && m.arg[0] === x + 8 && m.arg[1] === y + 8);
  // "x,y" → the move that takes the picked tile there; read from ui when
  // asked, as a click may come before the board is drawn again
  const targetsNow = () => {
    const out = new Map();
    if (ui.hand) for (const m of deploys(ui.hand)) out.set(`${m.arg[1] - 8},${m.arg[2] - 8}`, m);
    if (ui.from) for (const m of movesFrom(ui.from[0], ui.from[1])) out.set(`${m.arg[2] - 8},${m.arg[3] - 8}`, m);
    return out;
  };
  const targets = targetsNow();
  const click = (x, y, v) => {
    const m = targetsNow().get(`${x},${y}`);
    if (m) { ui.hand = 0; ui.from = null; ctx.sendMove(m); return; }
    ui.hand = 0;
    ui.from = movesFrom(x, y).length && !(ui.from && ui.from[0] === x && ui.from[1] === y) ? [x, y] : null;
    ctx.redraw();
  };
  // the last move: where a tile was deployed, or where one moved from and to
  const lm = ctx.last, lastAt = new Set();
  if (lm?.kind === 1 && lm.arg.length >= 3) lastAt.add(`${lm.arg[1] - 8},${lm.arg[2] - 8}`);
  if (lm?.kind === 2 && lm.arg.length >= 4) lastAt.add(`${lm.arg[0] - 8},${lm.arg[1] - 8}`).add(`${lm.arg[2] - 8},${lm.arg[3] - 8}`);
  for (let x = -8; x <= 8; x++) for (let y = -8; y <= 8; y++) {
    const v = view.cells[(x + 8) * 17 + (y + 8)];
    if (v === 255) continue;
    const cx = x * U, cy = -y * U;
    const temple = TEMPLES.has(`${x},${y}`);
    const g = s('g', { 'data-pt': `${x},${y}`, 'data-tile': v, 'data-last': lastAt.has(`${x},${y}`) ? 1 : 0 });
    if (lastAt.has(`${x},${y}`)) g.append(s('circle', { cx, cy, r: 12, class: 'ps-last' }));
    g.append(temple ? s('rect', { x: cx - 8, y: cy - 8, width: 16, height: 16, transform: `rotate(45 ${cx} ${cy})`, class: 'ps-temple' })
      : s('circle', { cx, cy, r: 3, class: 'ps-point' }));
    // a wide transparent disc takes the clicks aimed at the point
    g.prepend(s('circle', { cx, cy, r: U / 2, class: 'ps-hit' }));
    if (v) {
      const guest = v > 8, t = guest ? v - 8 : v;
      const sel = ui.from && ui.from[0] === x && ui.from[1] === y;
      const can = !ui.hand && !ui.from && movesFrom(x, y).length > 0;
      g.append(s('circle', { cx, cy, r: 9, class: (guest ? 'ps-guest' : 'ps-host') + (sel ? ' ps-sel' : can ? ' ps-can' : '') }),
        s('text', { x: cx, y: cy + 4, class: guest ? 'ps-label-g' : 'ps-label' }, LETTERS[t]));
    }
    if (targets.has(`${x},${y}`)) g.append(s('circle', { cx, cy, r: 6, class: 'ps-target' }));
    if (mine) activate(g, `point ${x},${y}${v ? ' ' + TILE_NAMES[v > 8 ? v - 8 : v] : ''}`, () => click(x, y, v));
    kids.push(g);
  }
  const lim = Math.sqrt(80) * U + 12;
  const hand = (seat) => {
    const base = seat * 7, el = h('div', { class: 'ps-hand', 'data-hand': seat }, h('strong', {}, `${ctx.seatName(seat)} (${seat ? 'guest' : 'host'}) in hand: `));
    for (let t = 1; t <= 7; t++) {
      const n = ex[base + t - 1];
      if (!n) continue;
      const can = mine && seat === ctx.seat && deploys(t).length > 0;
      el.append(h('button', {
        class: 'ps-tile' + (seat ? ' guest' : '') + (ui.hand === t && can ? ' sel' : ''), 'data-tile': LETTERS[t], disabled: !can,
        title: TILE_NAMES[t], onclick: () => { ui.hand = ui.hand === t ? 0 : t; ui.from = null; ctx.redraw(); },
      }, `${LETTERS[t]}×${n}`));
    }
    return el;
  };
  const turn = (ex[14] << 8) | ex[15];
  const ends = ['', 'White Lotus captured', 'resignation', 'draw agreed', 'move limit reached', 'no legal move'];
  const offer = ex[16] ? ` · ${ex[16] === 1 ? 'host' : 'guest'} offers a draw` : '';
  return {
    board: svg(`${-lim} ${-lim} ${2 * lim} ${2 * lim}`, 'Pai Sho board', ...kids),
    controls: h('div', { class: 'controls' }, hand(0), hand(1)),
    info: `Turn ${turn}${offer}${ex[17] ? ' · ' + ends[ex[17]] : ''} · captured: ${view.scores.join(' – ')}`,
    hint: 'Tiles: L Lotus, S Sky Bison, B Badgermole, W Wheel, C Chrysanthemum, F Fire Lily, D White Dragon. Notation: L(0,0), (0,8)-(2,6).',
  };
}
