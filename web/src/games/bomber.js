// Bomber: draw three planes (click a head, then its tail three cells
// away), then guess on the enemy grid: one cell, or a whole plane (head
// then tail) in double mode. Cells are X*10+Y, X the row. While drawing,
// the cells offered come from the server's placement hints (HintReq): the
// heads the next plane may have, then the tails of the picked head, so a
// plane that leaves the board or crosses another is never offered.
import { h, s, svg, activate } from '../dom.js';

const C = 26, GAP = 30;

/** planeCells lists the cells of the plane with head hd and tail tl, or null. */
export function planeCells(hd, tl) {
  const hx = Math.floor(hd / 10), hy = hd % 10, tx = Math.floor(tl / 10), ty = tl % 10;
  const dx = tx - hx, dy = ty - hy;
  if (!((dx === 0 && Math.abs(dy) === 3) || (dy === 0 && Math.abs(dx) === 3))) return null;
  const ux = dx / 3, uy = dy / 3, vx = uy, vy = ux;
  const out = [];
  const add = (a, b) => {
    const x = hx + a * ux + b * vx, y = hy + a * uy + b * vy;
    if (x < 0 || x > 9 || y < 0 || y > 9) return false;
    out.push(x * 10 + y);
    return true;
  };
  let ok = add(0, 0);
  for (let k = -2; k <= 2; k++) ok = add(1, k) && ok;
  ok = add(2, 0) && ok;
  for (let k = -1; k <= 1; k++) ok = add(3, k) && ok;
  return ok ? out : null;
}

const cellName = (c) => String(Math.floor(c / 10)) + String(c % 10);

// hintsFor returns the server's hints for the planes drawn so far: a Map
// from each cell the next plane's head may take to its tails; null while
// they are asked for; 'all' when the server gives none (every cell is
// offered and a wrong plane is refused when clicked, as before hints; so
// in a reference-protocol duel, whose server has no hints).
function hintsFor(ctx, ui) {
  if (!ctx.planeHints) return 'all';
  const key = ui.planes.map(([a, b]) => `${a}-${b}`).join(' ');
  if (ui.hints?.key !== key) {
    const h = { key, heads: null };
    ui.hints = h;
    ctx.planeHints(ui.planes).then((heads) => { h.heads = heads; }, () => { h.heads = 'all'; }).then(() => ctx.redraw());
  }
  return ui.hints.heads;
}
const FILL = ['cell-unknown', 'cell-plane', 'cell-head', 'cell-miss', 'cell-hit', 'cell-hithead'];

export function render(ctx, ui) {
  const { view } = ctx;
  const phase = view.extra[0];
  const me = ctx.seat === 0 || ctx.seat === 1 ? ctx.seat : -1;
  const placing = phase === 0 && me >= 0 && view.toMove.includes(me);
  const guessing = phase === 1 && me >= 0 && view.extra[1] === me && ctx.canMove;
  ui.planes = ui.planes || [];
  ui.pick = ui.pick ?? -1;
  ui.mode = ui.mode || 'single';
  const used = new Set(ui.planes.flatMap(([a, b]) => planeCells(a, b)));
  const heads = placing && ui.planes.length < 3 ? hintsFor(ctx, ui) : null;
  // offered: a cell that may be clicked while drawing (the picked head
  // too, which a second click puts down)
  const offered = (c) => {
    if (!heads) return false;
    if (heads === 'all') return true;
    if (ui.pick < 0) return heads.has(c);
    return c === ui.pick || (heads.get(ui.pick) || []).includes(c);
  };
  // after the end the server sends the boards it kept secret (as moves in
  // notation): the planes nobody found show where they were
  const shown = [new Map(), new Map()];
  if (phase === 2) {
    for (const m of ctx.moves || []) {
      if (m.seat > 1 || !/^\d\d-\d\d( \d\d-\d\d){2}$/.test(m.notation || '')) continue;
      for (const pl of m.notation.split(' ')) {
        const [hd, tl] = pl.split('-').map(Number);
        (planeCells(hd, tl) || []).forEach((c, i) => shown[m.seat].set(c, i === 0 ? 'cell-head' : 'cell-plane'));
      }
    }
  }
  // the last guess: its cell, or the head of the plane it named, on the
  // grid of the player it was aimed at
  const lg = /^(\d\d)(-\d\d)?$/.exec(ctx.last?.notation || '');
  const lastAt = lg && ctx.last.seat <= 1 ? { seat: 1 - ctx.last.seat, cell: Number(lg[1]) } : null;
  // what may be guessed is the server's legal moves: single guesses
  // (kind 2, arg the cell's x, y) and whole planes (kind 3, head and tail).
  // A reference duel (duel.js) has no legal moves on its protocol: any
  // cell not guessed yet, any plane.
  const duel = !('legal' in ctx);
  const singles = new Set(), planes = new Map();
  for (const m of guessing ? ctx.legal || [] : []) {
    if (m.kind === 2 && m.arg.length === 2) singles.add(m.arg[0] * 10 + m.arg[1]);
    if (m.kind === 3 && m.arg.length === 4) {
      const hd = m.arg[0] * 10 + m.arg[1];
      planes.set(hd, [...(planes.get(hd) || []), m.arg[2] * 10 + m.arg[3]]);
    }
  }
  const guessable = (c, v) => duel ? ui.mode === 'double' || v === 0 : ui.mode === 'single' ? singles.has(c)
    : ui.pick < 0 ? planes.has(c) : c === ui.pick || (planes.get(ui.pick) || []).includes(c);
  const grid = (seat, x0, title) => {
    const g = s('g', { 'data-grid': seat });
    g.append(s('text', { x: x0 + 5 * C, y: 14, class: 'grid-title' }, title));
    for (let i = 0; i < 10; i++) {
      g.append(s('text', { x: x0 + i * C + C / 2, y: 30, class: 'coord' }, i));
      g.append(s('text', { x: x0 - 8, y: 36 + i * C + C / 2 + 4, class: 'coord' }, i));
    }
    for (let c = 0; c < 100; c++) {
      const x = x0 + (c % 10) * C, y = 36 + Math.floor(c / 10) * C;
      let v = view.cells[seat * 100 + c];
      let cls = FILL[v] || 'cell-unknown';
      if (v === 0 && shown[seat].has(c)) cls = shown[seat].get(c) + ' cell-revealed';
      if (placing && seat === me) {
        cls = used.has(c) ? (ui.planes.some(([a]) => a === c) ? 'cell-head' : 'cell-plane') : 'cell-unknown';
        if (heads && heads !== 'all' && offered(c) && c !== ui.pick) cls += ' cell-hint';
      }
      if (ui.pick === c && ((placing && seat === me) || (guessing && seat !== me))) cls += ' cell-pick';
      if (lastAt && lastAt.seat === seat && lastAt.cell === c && phase !== 0) cls += ' cell-last';
      const r = s('rect', { x, y, width: C - 2, height: C - 2, class: 'bcell ' + cls, 'data-cell': cellName(c), 'data-v': v });
      const target = (placing && seat === me && offered(c)) || (guessing && seat !== me && guessable(c, v));
      if (target) activate(r, `cell ${cellName(c)}`, () => click(seat, c));
      g.append(r);
    }
    return g;
  };
  const click = (seat, c) => {
    if (placing) {
      if (ui.pick < 0) { ui.pick = c; ctx.redraw(); return; }
      if (c === ui.pick) { ui.pick = -1; ctx.redraw(); return; }
      const cells = planeCells(ui.pick, c);
      if (!cells || cells.some((x) => used.has(x))) { ctx.error('A plane is its head and the middle of its tail, three cells apart in a row or column, on the board and clear of the others.'); ui.pick = -1; ctx.redraw(); return; }
      ui.planes.push([ui.pick, c]);
      ui.pick = -1;
      ctx.redraw();
      return;
    }
    if (ui.mode === 'single') { ctx.send(cellName(c)); return; }
    if (ui.pick < 0) { ui.pick = c; ctx.redraw(); return; }
    const hd = ui.pick; ui.pick = -1;
    ctx.send(`${cellName(hd)}-${cellName(c)}`);
  };
  const left = me === 1 ? 1 : 0, right = 1 - left;
  const name = (seat) => (seat === me ? 'Your planes' : `${ctx.seatName(seat)}'s planes`);
  const board = svg(`-14 0 ${20 * C + GAP + 14} ${36 + 10 * C}`, 'Bomber boards',
    grid(left, 0, name(left)), grid(right, 10 * C + GAP, name(right)));
  const controls = h('div', { class: 'controls' });
  if (placing) {
    controls.append(
      h('span', {}, `Planes drawn: ${ui.planes.length}/3. `),
      h('small', { id: 'bomber-hint' }, ui.planes.length === 3 ? 'Place them, or undo one. ' : ui.pick < 0 ? 'Green cells can take the next plane\'s head. ' : 'Now its tail: a green cell (or the head again to put it down). '),
      h('button', { id: 'bomber-undo', onclick: () => { ui.planes.pop(); ui.pick = -1; ctx.redraw(); } }, 'Undo plane'),
      h('button', { id: 'bomber-place', disabled: ui.planes.length !== 3, onclick: () => {
        ctx.send(ui.planes.map(([a, b]) => `${cellName(a)}-${cellName(b)}`).join(' '));
      } }, 'Place planes'));
  } else if (guessing) {
    controls.append(
      h('label', {}, h('input', { type: 'radio', name: 'bmode', id: 'mode-single', checked: ui.mode === 'single', onchange: () => { ui.mode = 'single'; ui.pick = -1; ctx.redraw(); } }), ' single guess '),
      h('label', {}, h('input', { type: 'radio', name: 'bmode', id: 'mode-double', checked: ui.mode === 'double', onchange: () => { ui.mode = 'double'; ui.pick = -1; ctx.redraw(); } }), ' whole plane (head, then tail)'), h('small', {}, ' keys: s single, d double'));
  }
  ui.keys = (e) => {
    if (!guessing || (e.key !== 'd' && e.key !== 's')) return false;
    ui.mode = e.key === 'd' ? 'double' : 'single'; ui.pick = -1; ctx.redraw();
    return true;
  };
  const phaseText = ['drawing planes', 'guessing', 'over'][phase] || '';
  const turn = phase === 1 ? ` · ${ctx.seatName(view.extra[1])} to guess` : '';
  return {
    board, controls,
    info: `Bomber: ${phaseText}${turn} · found: ${view.scores.map((v, i) => `${ctx.seatName(i)} ${v}/30`).join(', ')}`,
    hint: 'Notation: board "02-32 07-37 52-82", single "34", double "02-32".',
  };
}
