// Dots and Boxes: click (or Enter on) a line between two dots.
import { s, svg, activate, SEAT_COLORS } from '../dom.js';

const GAP = 60, M = 24;

const dot = (r, c) => String.fromCharCode(97 + c) + (r + 1);

export function render(ctx) {
  const { view } = ctx;
  const R = view.extra[0], C = view.extra[1];
  const cells = view.cells;
  const hBase = 0, vBase = R * (C - 1), bBase = vBase + (R - 1) * C;
  const myTurn = ctx.canMove;
  const kids = [];
  for (let r = 0; r + 1 < R; r++) for (let c = 0; c + 1 < C; c++) {
    const owner = cells[bBase + r * (C - 1) + c];
    kids.push(s('rect', {
      x: M + c * GAP + 4, y: M + r * GAP + 4, width: GAP - 8, height: GAP - 8, rx: 4,
      fill: owner ? SEAT_COLORS[owner - 1] : 'transparent', opacity: 0.55,
      'data-box': dot(r, c), 'data-owner': owner ? owner - 1 : '',
    }));
  }
  const line = (x1, y1, x2, y2, drawn, name) => {
    const g = s('g', { 'data-line': name, 'data-drawn': drawn ? 1 : 0 },
      s('line', { x1, y1, x2, y2, class: drawn ? 'dots-line drawn' : 'dots-line open' }));
    if (!drawn && myTurn) {
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
  return { board: svg(`0 0 ${W} ${H}`, 'Dots and Boxes board', ...kids), info: 'Boxes: ' + scores };
}
