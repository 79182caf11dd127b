// Checkers (English draughts): click a piece, then each square it lands
// on; a multi-jump is sent when the path cannot go on. The highlighted
// moves come from the View alone (a small move finder, for display only:
// the server's rules decide and a refused move shows its error).
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

/** paths lists the move paths (PDN squares) for side 0 (Black) or 1 (White). */
export function paths(cells, side, compulsory = true) {
  const mine = (v) => v && (side === 0 ? black(v) : !black(v));
  const dirs = (v) => king(v) ? [-1, 1] : [side === 0 ? 1 : -1];
  const jumps = [], simple = [];
  const jumpFrom = (board, from, v, path, taken) => {
    const [r, c] = rc(from);
    let more = false;
    for (const dr of dirs(v)) for (const dc of [-1, 1]) {
      const over = sq(r + dr, c + dc), to = sq(r + 2 * dr, c + 2 * dc);
      if (!over || !to || board[to - 1] || !board[over - 1] || mine(board[over - 1]) || taken.has(over)) continue;
      more = true;
      const [tr] = rc(to);
      const crowned = !king(v) && (side === 0 ? tr === 7 : tr === 0);
      const next = board.slice(); next[from - 1] = 0; next[to - 1] = v;
      const t2 = new Set(taken); t2.add(over);
      if (crowned) jumps.push([...path, to]);
      else jumpFrom(next, to, v, [...path, to], t2);
    }
    if (!more && path.length > 1) jumps.push(path);
  };
  for (let n = 1; n <= 32; n++) {
    const v = cells[n - 1];
    if (!mine(v)) continue;
    jumpFrom(Array.from(cells), n, v, [n], new Set());
    const [r, c] = rc(n);
    for (const dr of dirs(v)) for (const dc of [-1, 1]) {
      const to = sq(r + dr, c + dc);
      if (to && !cells[to - 1]) simple.push([n, to]);
    }
  }
  return jumps.length && compulsory ? jumps : [...jumps, ...simple];
}

const notation = (p) => p.join(Math.abs(rc(p[0])[0] - rc(p[1])[0]) === 2 ? 'x' : '-');

export function render(ctx, ui) {
  const { view } = ctx;
  const cells = view.cells;
  const flip = ctx.seat === 0; // each player sees its own men at the bottom; watchers see Black on top
  const compulsory = !/^(false|off|no|0)$/i.test(ctx.option('compulsory_capture') || 'true');
  const legal = ctx.canMove ? paths(cells, view.extra[0], compulsory) : [];
  ui.path = ui.path || [];
  const cand = legal.filter((p) => ui.path.every((q, i) => p[i] === q));
  if (ui.path.length && !cand.length) ui.path = [];
  const nextSquares = new Set((ui.path.length ? cand : legal).map((p) => p[ui.path.length]).filter(Boolean));
  const click = (n) => {
    if (ui.path.length && n === ui.path[ui.path.length - 1] && ui.path.length === 1) { ui.path = []; ctx.redraw(); return; }
    const path = nextSquares.has(n) ? [...ui.path, n] : (legal.some((p) => p[0] === n) ? [n] : []);
    const ways = legal.filter((p) => path.every((q, i) => p[i] === q));
    if (path.length > 1 && ways.length && ways.every((p) => p.length === path.length)) {
      ui.path = [];
      ctx.send(notation(path));
      return;
    }
    ui.path = path;
    ctx.redraw();
  };
  const kids = [];
  for (let r = 0; r < 8; r++) for (let c = 0; c < 8; c++) {
    const x = (flip ? 7 - c : c) * SQ, y = (flip ? 7 - r : r) * SQ;
    const n = sq(r, c);
    kids.push(s('rect', { x, y, width: SQ, height: SQ, class: n ? 'ck-dark' : 'ck-light' }));
    if (!n) continue;
    const v = cells[n - 1];
    const g = s('g', { 'data-sq': n, 'data-piece': v });
    if (ui.path.includes(n)) g.append(s('rect', { x: x + 2, y: y + 2, width: SQ - 4, height: SQ - 4, class: 'ck-sel' }));
    else if (nextSquares.has(n)) g.append(s('rect', { x: x + 3, y: y + 3, width: SQ - 6, height: SQ - 6, class: 'ck-hint' }));
    g.append(s('text', { x: x + 3, y: y + 11, class: 'ck-num' }, n));
    if (v) {
      g.append(s('circle', { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.38, class: black(v) ? 'ck-black' : 'ck-white' }));
      if (king(v)) g.append(s('text', { x: x + SQ / 2, y: y + SQ / 2 + 6, class: 'ck-king' }, '♛'));
    }
    if (ctx.canMove) activate(g, `square ${n}`, () => click(n));
    kids.push(g);
  }
  const side = view.extra[0] === 0 ? 'Black' : 'White';
  const offer = view.extra[1] !== 255 ? ` · ${ctx.seatName(view.extra[1])} offers a draw` : '';
  return {
    board: svg('0 0 400 400', 'Checkers board', ...kids),
    info: `${side} to move · captured: Black ${view.scores[0]}, White ${view.scores[1]}${offer}`,
    hint: 'Click a piece, then each square it lands on. Notation: 11-15, 22x15, 11x18x25.',
  };
}
