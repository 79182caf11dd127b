// Dots and Boxes: click (or Enter on) a line between two dots. As seed
// 002 has it, each player has an icon, drawn in the boxes they close and
// beside their name and score.
import { h, s, svg, activate, SEAT_COLORS } from '../dom.js';

const GAP = 60, M = 24;

/** ICONS name the shapes of seats 0..3: star, circle, triangle, diamond. */
export const ICONS = ['star', 'circle', 'triangle', 'diamond'];

/** icon draws seat's shape centred on (x, y), r across half its width. */
function icon(seat, x, y, r) {
  const a = { fill: SEAT_COLORS[seat], class: 'dots-icon', 'data-icon': ICONS[seat] };
  switch (seat) {
    case 0: {
      const pts = [];
      for (let i = 0; i < 10; i++) {
        const d = (i % 2 ? r * 0.45 : r), t = Math.PI * (i / 5 - 0.5);
        pts.push(`${(x + d * Math.cos(t)).toFixed(1)},${(y + d * Math.sin(t)).toFixed(1)}`);
      }
      return s('polygon', { ...a, points: pts.join(' ') });
    }
    case 1: return s('circle', { ...a, cx: x, cy: y, r: r * 0.85 });
    case 2: return s('polygon', { ...a, points: `${x},${y - r} ${x + r},${y + r * 0.8} ${x - r},${y + r * 0.8}` });
    default: return s('polygon', { ...a, points: `${x},${y - r} ${x + r},${y} ${x},${y + r} ${x - r},${y}` });
  }
}

const dot = (r, c) => String.fromCharCode(97 + c) + (r + 1);

export function render(ctx) {
  const { view } = ctx;
  const R = view.extra[0], C = view.extra[1];
  const cells = view.cells;
  const hBase = 0, vBase = R * (C - 1), bBase = vBase + (R - 1) * C;
  const myTurn = ctx.canMove;
  // the lines that may be drawn are the server's legal moves (kind 1, arg
  // the two dots' rows and columns), not every line not yet drawn
  const open = new Set((myTurn && ctx.legal || []).filter((m) => m.kind === 1 && m.arg.length === 4)
    .map((m) => `${dot(m.arg[0], m.arg[1])}-${dot(m.arg[2], m.arg[3])}`));
  const kids = [];
  for (let r = 0; r + 1 < R; r++) for (let c = 0; c + 1 < C; c++) {
    const owner = cells[bBase + r * (C - 1) + c];
    kids.push(s('rect', {
      x: M + c * GAP + 4, y: M + r * GAP + 4, width: GAP - 8, height: GAP - 8, rx: 4,
      fill: owner ? SEAT_COLORS[owner - 1] : 'transparent', opacity: 0.3,
      'data-box': dot(r, c), 'data-owner': owner ? owner - 1 : '',
    }));
    if (owner) kids.push(s('g', { 'data-box-icon': dot(r, c) }, icon(owner - 1, M + c * GAP + GAP / 2, M + r * GAP + GAP / 2, 13)));
  }
  const last = ctx.last?.arg?.length === 4 ? `${dot(ctx.last.arg[0], ctx.last.arg[1])}-${dot(ctx.last.arg[2], ctx.last.arg[3])}` : '';
  const line = (x1, y1, x2, y2, drawn, name) => {
    const g = s('g', { 'data-line': name, 'data-drawn': drawn ? 1 : 0, 'data-last': name === last ? 1 : 0 },
      s('line', { x1, y1, x2, y2, class: (drawn ? 'dots-line drawn' : 'dots-line open') + (name === last ? ' last' : '') }));
    if (!drawn && open.has(name)) {
      g.prepend(s('line', { x1, y1, x2, y2, class: 'hit' }));
      activate(g, 'draw ' + name, () => ctx.send(name));
    }
    kids.push(g);
  };
  for (let r = 0; r < R; r++) for (let c = 0; c + 1 < C; c++)
    line(M + c * GAP, M + r * GAP, M + (c + 1) * GAP, M + r * GAP, cells[hBase + r * (C - 1) + c], `${dot(r, c)}-${dot(r, c + 1)}`);
  for (let r = 0; r + 1 < R; r++) for (let c = 0; c < C; c++)
    line(M + c * GAP, M + r * GAP, M + c * GAP, M + (r + 1) * GAP, cells[vBase + r * C + c], `${dot(r, c)}-${dot(r + 1, c)}`);
  for (let r = 0; r < R; r++) for (let c = 0; c < C; c++)
    kids.push(s('circle', { cx: M + c * GAP, cy: M + r * GAP, r: 5, class: 'dot' }));
  for (let c = 0; c < C; c++) kids.push(s('text', { x: M + c * GAP, y: 12, class: 'coord' }, String.fromCharCode(97 + c)));
  for (let r = 0; r < R; r++) kids.push(s('text', { x: 8, y: M + r * GAP + 4, class: 'coord' }, r + 1));
  const W = 2 * M + (C - 1) * GAP, H = 2 * M + (R - 1) * GAP;
  const scores = view.scores.map((v, i) => `${ctx.seatName(i)} ${v}`).join(' · ');
  // the score card: each player's icon, name and boxes, whose turn marked
  const card = h('ol', { class: 'dots-scores', 'aria-label': 'scores' }, view.scores.map((v, i) => h('li', {
    'data-seat': i, class: view.toMove.includes(i) ? 'turn' : '',
  }, s('svg', { viewBox: '-10 -10 20 20', class: 'dots-chip', 'aria-hidden': 'true' }, icon(i, 0, 0, 9)),
  h('bdi', { class: 'dots-name' }, ctx.seatName(i)), h('b', { class: 'dots-score' }, String(v)))));
  return { board: svg(`0 0 ${W} ${H}`, 'Dots and Boxes board', ...kids), controls: card, info: 'Boxes: ' + scores };
}
