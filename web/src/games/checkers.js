// Checkers (English draughts): click a piece, then each square it lands
// on; a multi-jump is sent when the path cannot go on. The pieces that can
// move and the squares they reach come from the server's list of legal
// moves (ctx.legal: kind 1 a step, kind 2 a jump, the argument the path of
// squares), so the page knows no rule of the game.
import { s, svg, activate } from '../dom.js';

const SQ = 50;

/** rc gives the row and column (0..7, row 0 at Black's side) of PDN square n. */
export function rc(n) {
  const r = Math.floor((n - 1) / 4), i = (n - 1) % 4;
  return [r, r % 2 === 0 ? 2 * i + 1 : 2 * i];
}
function sq(r, c) {
  if (r < 0 || r > 7 || c < 0 || c > 7 || (r + c) % 2 === 0) return 0;
  return r * 4 + Math.floor(c / 2) + 1;
}
const black = (v) => v === 1 || v === 2;
const king = (v) => v === 2 || v === 4;

export function render(ctx, ui) {
  const { view } = ctx;
  const cells = view.cells;
  const flip = ctx.seat === 0; // each player sees its own men at the bottom; watchers see Black on top
  const legal = ctx.canMove ? (ctx.legal || []).filter((m) => m.kind === 1 || m.kind === 2) : [];
  const pathOf = (m) => m.arg;
  ui.path = ui.path || [];
  if (ui.path.length && !legal.some((m) => ui.path.every((q, i) => pathOf(m)[i] === q))) ui.path = [];
  // the squares the picked path can go on to, read from ui when asked (a
  // click may come before the board is drawn again)
  const nextOf = (path) => new Set(legal.filter((m) => path.every((q, i) => pathOf(m)[i] === q))
    .map((m) => pathOf(m)[path.length]).filter(Boolean));
  const nextSquares = nextOf(ui.path);
  const click = (n) => {
    if (ui.path.length === 1 && n === ui.path[0]) { ui.path = []; ctx.redraw(); return; }
    const path = nextOf(ui.path).has(n) ? [...ui.path, n] : (legal.some((m) => pathOf(m)[0] === n) ? [n] : []);
    const ways = legal.filter((m) => path.every((q, i) => pathOf(m)[i] === q));
    if (path.length > 1 && ways.length === 1 && pathOf(ways[0]).length === path.length) {
      ui.path = [];
      ctx.sendMove(ways[0]);
      return;
    }
    ui.path = path;
    ctx.redraw();
  };
  const kids = [];
  for (let r = 0; r < 8; r++) for (let c = 0; c < 8; c++) {
    const x = (flip ? 7 - c : c) * SQ, y = (flip ? 7 - r : r) * SQ;
    const n = sq(r, c);
    if (!n) { kids.push(s('rect', { x, y, width: SQ, height: SQ, class: 'ck-light' })); continue; }
    const v = cells[n - 1];
    // the whole square is the group, so a click anywhere on it is a click on the square
    const g = s('g', { 'data-sq': n, 'data-piece': v }, s('rect', { x, y, width: SQ, height: SQ, class: 'ck-dark' }));
    if (ui.path.includes(n)) g.append(s('rect', { x: x + 2, y: y + 2, width: SQ - 4, height: SQ - 4, class: 'ck-sel' }));
    else if (nextSquares.has(n)) g.append(s('rect', { x: x + 3, y: y + 3, width: SQ - 6, height: SQ - 6, class: 'ck-hint' }));
    g.append(s('text', { x: x + 3, y: y + 11, class: 'ck-num' }, n));
    if (v) {
      g.append(s('circle', { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.38, class: black(v) ? 'ck-black' : 'ck-white' }));
      if (king(v)) g.append(s('text', { x: x + SQ / 2, y: y + SQ / 2 + 6, class: 'ck-king' }, '♛'));
    }
    if (ctx.lastMove?.includes(n)) g.classList.add('ck-last');
    if (ctx.canMove) activate(g, `square ${n}`, () => click(n));
    kids.push(g);
  }
  const side = view.extra[0] === 0 ? 'Black' : 'White';
  const offer = view.extra[1] !== 255 ? ` · ${ctx.seatName(view.extra[1])} offers a draw` : '';
  return {
    board: svg('0 0 400 400', 'Checkers board', ...kids),
    info: `${side} (${ctx.seatName(view.extra[0])}) to move · captured: Black ${view.scores[0]}, White ${view.scores[1]}${offer}`,
    hint: 'Click a piece, then each square it lands on. Notation: 11-15, 22x15, 11x18x25.',
  };
}
