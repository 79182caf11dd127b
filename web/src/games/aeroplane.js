// Aeroplane Chess: the 52-space track on a ring, each colour's bridge to
// the centre, camps outside, the shortcut flights across, and the die.
// Roll, then click (or press 1-4 for) the piece to move.
import { h, s, svg, activate, SEAT_COLORS } from '../dom.js';

const R = 150, STEP = 360 / 52;
const NAMES = ['yellow', 'blue', 'red', 'green'];
// step kinds (rules/aeroplane/steps.go)
const STEP_ROLL = 1, STEP_LAUNCH = 2, STEP_MOVE = 3, STEP_BOUNCE = 4, STEP_JUMP = 5, STEP_FLIGHT = 6, STEP_CAPTURE = 7,
  STEP_FINISH = 8, STEP_THREE_SIXES = 9, STEP_NO_MOVE = 11;

/**
 * describe says a move for the move list with what its steps showed: the
 * face rolled (and that it could not move), or the piece moved, numbered
 * as the board labels it, and what happened to it.
 */
export function describe(m, steps) {
  if (m.kind === 1) {
    const roll = steps.find((st) => st.kind === STEP_ROLL);
    if (!roll) return 'roll';
    if (steps.some((st) => st.kind === STEP_THREE_SIXES)) return `rolled ${roll.a}: three sixes, back to camp`;
    if (steps.some((st) => st.kind === STEP_NO_MOVE)) return `rolled ${roll.a}: no piece can move`;
    return `rolled ${roll.a}`;
  }
  if (m.kind === 2) {
    const parts = [`piece ${m.arg[0] + 1}`];
    for (const st of steps) {
      if (st.kind === STEP_LAUNCH) parts.push('leaves the camp');
      else if (st.kind === STEP_MOVE) parts.push(`moves ${st.c - st.b}`);
      else if (st.kind === STEP_BOUNCE) parts.push('bounces back');
      else if (st.kind === STEP_JUMP) parts.push('jumps');
      else if (st.kind === STEP_FLIGHT) parts.push('flies the shortcut');
      else if (st.kind === STEP_CAPTURE) parts.push(`sends a ${NAMES[st.player]} piece home`);
      else if (st.kind === STEP_FINISH) parts.push('reaches the centre');
    }
    return parts.join(', ');
  }
  return '';
}

// LOST_ROLL_MS is how long a roll that cannot move stays by its roller's camp.
const LOST_ROLL_MS = 1500;
// lostRoll is the lost roll being shown (table/seq) and until when.
const lostRoll = { key: '', until: 0 };

const polar = (r, deg) => [r * Math.cos((deg - 90) * Math.PI / 180), r * Math.sin((deg - 90) * Math.PI / 180)];
const trackAngle = (i) => i * STEP;

/** spot gives the drawing position of seat's piece k with cell value v. */
function spot(seat, k, v) {
  const entry = trackAngle(13 * seat) - 8;
  if (v === 0) { // camp: a 2x2 block outside the ring
    const [cx, cy] = polar(R + 38, entry - 10);
    return [cx + (k % 2 ? 9 : -9), cy + (k < 2 ? -9 : 9)];
  }
  if (v === 1) return polar(R + 18, entry);
  if (v <= 51) return polar(R, trackAngle((13 * seat + v - 2) % 52));
  if (v <= 56) return polar(R * (1 - (v - 51) / 6.2), trackAngle((13 * seat + 49) % 52));
  return polar(12, 90 * seat);
}

export function render(ctx, ui) {
  const { view } = ctx;
  const N = view.extra[0], actor = view.extra[1], phase = view.extra[2], face = view.extra[3];
  const mine = ctx.canMove && ctx.seat === actor;
  // the seed's blue and white: a blue sky, a white ring
  const kids = [s('rect', { x: -R - 82, y: -R - 82, width: 2 * R + 164, height: 2 * R + 164, rx: 12, class: 'ae-sky' }),
    s('circle', { cx: 0, cy: 0, r: R + 12, class: 'ae-ring' })];
  for (let i = 0; i < 52; i++) {
    const [x, y] = polar(R, trackAngle(i));
    kids.push(s('circle', { cx: x, cy: y, r: 8, fill: SEAT_COLORS[(i + 3) % 4], class: 'ae-space', 'data-track': i }));
  }
  for (let c = 0; c < 4; c++) {
    const a = trackAngle((13 * c + 49) % 52);
    for (let b = 1; b <= 5; b++) {
      const [x, y] = polar(R * (1 - b / 6.2), a);
      kids.push(s('rect', { x: x - 6, y: y - 6, width: 12, height: 12, rx: 2, fill: SEAT_COLORS[c], class: 'ae-bridge' }));
    }
    const [fx, fy] = polar(R, trackAngle((13 * c + 17) % 52)), [tx, ty] = polar(R, trackAngle((13 * c + 29) % 52));
    kids.push(s('line', { x1: fx, y1: fy, x2: tx, y2: ty, stroke: SEAT_COLORS[c], class: 'ae-flight' }));
    const [cx, cy] = polar(R + 38, trackAngle(13 * c) - 18);
    kids.push(s('rect', { x: cx - 19, y: cy - 19, width: 38, height: 38, rx: 6, fill: SEAT_COLORS[c], class: 'ae-camp', 'data-camp': c }));
    // the player's name just outside its camp, underlined while it is their turn
    const [nx, ny] = polar(R + 68, trackAngle(13 * c) - 18);
    if (c < N) kids.push(s('text', { x: nx, y: ny + 4, class: 'ae-name' + (c === actor && phase !== 2 ? ' ae-turn' : ''), 'data-camp': c }, ctx.seatName(c).slice(0, 10)));
    const [sx, sy] = polar(R + 18, trackAngle(13 * c) - 8);
    kids.push(s('circle', { cx: sx, cy: sy, r: 7, fill: SEAT_COLORS[c], class: 'ae-start' }));
  }
  kids.push(s('circle', { cx: 0, cy: 0, r: 22, class: 'ae-centre' }));
  const stacks = new Map();
  for (let seat = 0; seat < N; seat++) for (let k = 0; k < 4; k++) {
    const v = view.cells[seat * 4 + k];
    if (v === 255) continue;
    let [x, y] = spot(seat, k, v);
    if (v !== 0) { // pieces sharing a spot fan out
      const key = `${Math.round(x)},${Math.round(y)}`;
      const n = stacks.get(key) || 0; stacks.set(key, n + 1);
      x += n * 4; y -= n * 4;
    }
    // which pieces may move comes from the server's legal moves (kind 2, arg the piece)
    const movable = mine && seat === actor && (ctx.legal || []).some((m) => m.kind === 2 && m.arg[0] === k);
    const last = ctx.last?.kind === 2 && ctx.last.seat === seat && ctx.last.arg?.[0] === k;
    const g = s('g', { 'data-piece': `${seat}-${k}`, 'data-pos': v, 'data-last': last ? 1 : 0, class: (movable ? 'ae-movable' : '') + (last ? ' ae-last' : '') },
      s('circle', { cx: x, cy: y, r: 8, fill: SEAT_COLORS[seat], class: 'ae-piece' }),
      s('text', { x, y: y + 4, class: 'ae-label' }, k + 1));
    if (movable) activate(g, `move piece ${k + 1}`, () => ctx.send(`move ${k}`));
    kids.push(g);
  }
  // the die shows the face to move with, or else the last roll (one
  // that could not move passes the turn at once, and would never be seen)
  const last = ctx.lastSteps?.find((st) => st.kind === STEP_ROLL);
  const shown = face || last?.a || 0;
  const lost = !face && ctx.lastSteps?.some((st) => st.kind === STEP_NO_MOVE || st.kind === STEP_THREE_SIXES);
  const canRoll = mine && (ctx.legal || []).some((m) => m.kind === 1);
  // as in seed 000 the die sits by the camp of the player to roll or move,
  // "Roll" on it until the player rolls, and a click on it rolls; a lost
  // roll stays by the roller's camp a while, so its number is seen
  const key = `${ctx.table?.id}/${view.seq}`;
  if (lost && lostRoll.key !== key) {
    lostRoll.key = key; lostRoll.until = performance.now() + LOST_ROLL_MS;
    setTimeout(ctx.redraw, LOST_ROLL_MS + 20);
  }
  const lingering = lost && last && performance.now() < lostRoll.until;
  const at = lingering ? last.player : actor;
  const [dx, dy] = polar(R + 40, trackAngle(13 * at) + 8);
  const die = s('g', { class: 'ae-die' + (canRoll ? ' ae-die-roll' : ''), 'data-face': shown, 'data-lost': lost ? 1 : 0, 'data-camp': at },
    s('rect', { x: dx - 17, y: dy - 17, width: 34, height: 34, rx: 6 }),
    canRoll && !lingering
      ? s('text', { x: dx, y: dy + 4, class: 'ae-die-ask' }, 'Roll')
      : s('text', { x: dx, y: dy + 8 }, shown ? String(shown) : '–'),
    lingering ? s('text', { x: dx, y: dy + 28, class: 'ae-lost' }, 'no move') : null);
  if (canRoll) activate(die, 'roll the die', () => ctx.send('roll'));
  kids.push(die);
  const controls = h('div', { class: 'controls' });
  if (canRoll) controls.append(h('button', { id: 'ae-roll', onclick: () => ctx.send('roll') }, 'Roll (r)'));
  if (mine && phase === 1) controls.append(h('span', {}, `You rolled ${face}: click a piece or press 1-4.`));
  ui.keys = (e) => {
    if (!mine) return false;
    if (e.key === 'r' && phase === 0) { ctx.send('roll'); return true; }
    if (/^[1-4]$/.test(e.key) && phase === 1) { ctx.send(`move ${Number(e.key) - 1}`); return true; }
    return false;
  };
  const who = phase === 2 ? `${ctx.seatName(actor)} won` : `${ctx.seatName(actor)} (${NAMES[actor]}) to ${phase === 0 ? 'roll' : 'move ' + face}`;
  return {
    board: svg(`${-R - 82} ${-R - 82} ${2 * R + 164} ${2 * R + 164}`, 'Aeroplane Chess board', ...kids),
    controls,
    info: `${who} · home: ${view.scores.map((v, i) => `${NAMES[i]} ${v}/4`).join(', ')}`,
    hint: 'Keys: r rolls (or click the die), 1-4 move the piece so numbered. Notation: roll, move 0..3.',
  };
}
