// "Play now": quick pairing from the lobby. The player picks a game and a
// time control and presses Play now; the server pairs them with someone of
// close rating (feature 512) and the table opens as after a join. While
// they wait, the card says whom they may meet, in words, from what the
// server says (the client computes nothing of the pairing itself), and
// offers the computer when the server does.
import { SeekState, SEEK_COMPUTER_OFFERED, SEEK_PROVISIONAL, FEATURE_PAIRING } from 'bomber-client';
import { h } from './dom.js';

// Time controls offered, in Create's clock options.
export const CLOCKS = [
  { id: '3', label: '3 minutes each', clock: { 'clock.total': 180 } },
  { id: '10+5', label: '10 minutes each, +5 s a move', clock: { 'clock.total': 600, 'clock.increment': 5 } },
  { id: 'none', label: 'no clock', clock: {} },
];

const $ = (sel) => document.querySelector(sel);

/** render draws the Play now card for the lobby: a form, or the wait. */
export function render(app, act, title) {
  const card = $('#play-now');
  if (!card) return;
  const c = app.client;
  if (!c || !(c.welcome?.features & FEATURE_PAIRING)) { card.hidden = true; return; }
  card.hidden = false;
  const seek = c.seeking;
  if (seek) {
    card.replaceChildren(
      h('h2', {}, `Play ${title(seek.game)} now`),
      h('p', { id: 'seek-status', 'aria-live': 'polite' }, waitText(seek)),
      seek.flags & SEEK_COMPUTER_OFFERED
        ? h('p', {}, 'Nobody close to your rating is free yet. ',
          h('button', { id: 'seek-computer', type: 'button', onclick: () => act(() => c.playComputer()) }, 'Play the computer'),
          ' (a casual game) or keep waiting.')
        : '',
      h('button', { id: 'seek-cancel', type: 'button', onclick: () => act(() => c.cancelSeek()) }, 'Stop looking'));
    return;
  }
  const two = app.catalog.filter((g) => (g.min ?? g.minSeats) <= 2 && (g.max ?? g.maxSeats) >= 2);
  const keep = { game: $('#seek-game')?.value, clock: $('#seek-clock')?.value, rated: $('#seek-rated')?.checked };
  card.replaceChildren(
    h('h2', {}, 'Play now'),
    h('p', {}, 'Meet someone of about your strength, as soon as one is free.'),
    h('label', {}, 'Game ', h('select', { id: 'seek-game' }, two.map((g) => h('option', { value: g.name, selected: g.name === keep.game }, title(g.name))))),
    h('label', {}, 'Time ', h('select', { id: 'seek-clock' }, CLOCKS.map((k) => h('option', { value: k.id, selected: k.id === keep.clock }, k.label)))),
    h('label', {}, h('input', { id: 'seek-rated', type: 'checkbox', checked: keep.rated ?? true }), ' rated'),
    h('button', { id: 'seek-btn', type: 'button', onclick: () => act(() => play(c)) }, 'Play now'));
}

function play(c) {
  const clock = CLOCKS.find((k) => k.id === $('#seek-clock').value) ?? CLOCKS[0];
  return c.seek($('#seek-game').value, { rated: $('#seek-rated').checked, clock: clock.clock });
}

/** waitText says in words where the player stands while it waits. */
export function waitText(s) {
  const you = s.flags & SEEK_PROVISIONAL ? `your rating ${s.rating} (provisional)` : `your rating ${s.rating}`;
  const kind = s.rated ? 'a rated game' : 'a casual game';
  const clock = s.options.length ? s.options.map((o) => `${o.key.replace('clock.', '')} ${o.value} s`).join(', ') : 'no clock';
  const waited = s.waited ? `, waiting ${s.waited} s` : '';
  return `Looking for an opponent rated ${s.low} to ${s.high} for ${kind} (${clock}); ${you}${waited}. The range widens as you wait.`;
}

/** ended tells what a Seeking that ended means, for the lobby's log; '' for a wait. */
export function ended(s) {
  if (s.state === SeekState.Paired) return 'Opponent found: the game starts.';
  if (s.state === SeekState.Cancelled) return 'You are no longer looking for a game.';
  return '';
}
