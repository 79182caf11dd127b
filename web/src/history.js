// Profiles, game histories, leaderboards, the replay of any stored game,
// and account care (password change, deletion): the "Profile" screen. The
// server computes every replayed position with the game's rules
// (BomberClient.replay); this page only draws the View it sends, with the
// same board code as a live table.
import { safeText } from 'bomber-client';
import { h } from './dom.js';

const $ = (sel) => document.querySelector(sel);
const RESULTS = ['lost', 'won', 'drawn', 'no result'];

let deps; // {app, GAMES, title, showError, showScreen}
const state = { user: '', page: 0, replay: null, view: null };

/** initHistory wires the Profile screen; deps come from main.js. */
export function initHistory(d) {
  deps = d;
  $('#profile-btn').onclick = () => showProfile(deps.app.me);
  $('#profile-back').onclick = () => deps.showScreen(deps.app.client?.tableId ? 'table' : 'lobby');
  $('#profile-form').addEventListener('submit', (e) => { e.preventDefault(); const u = $('#profile-user').value.trim(); if (u) showProfile(u); });
  $('#games-newer').onclick = () => { if (state.page > 0) { state.page--; loadGames(); } };
  $('#games-older').onclick = () => { state.page++; loadGames(); };
  $('#leader-game').onchange = loadLeaders;
  $('#rp-start').onclick = () => step(0);
  $('#rp-prev').onclick = () => step(state.replay.ply - 1);
  $('#rp-next').onclick = () => step(state.replay.ply + 1);
  $('#rp-end').onclick = () => step(state.replay.plies);
  document.addEventListener('keydown', (e) => {
    if (document.body.dataset.screen !== 'profile' || !state.replay || e.target.closest?.('input, textarea, select')) return;
    if (e.key === 'ArrowLeft') $('#rp-prev').click();
    if (e.key === 'ArrowRight') $('#rp-next').click();
  });
  $('#password-form').addEventListener('submit', (e) => { e.preventDefault(); changePassword(); });
  $('#delete-form').addEventListener('submit', (e) => { e.preventDefault(); deleteAccount(); });
}

const c = () => deps.app.client;
const when = (secs) => (secs ? new Date(secs * 1000).toLocaleString() : '');
const bdi = (text) => h('bdi', {}, safeText(text));

/** showProfile opens the Profile screen on user's ratings and games. */
export async function showProfile(user) {
  state.user = user; state.page = 0;
  deps.showScreen('profile');
  $('#profile-name').replaceChildren(bdi(user));
  $('#account-card').hidden = user !== deps.app.me;
  const sel = $('#leader-game');
  if (!sel.options.length) sel.replaceChildren(...deps.app.catalog.map((g) => h('option', { value: g.name }, deps.title(g.name))));
  try {
    const p = await c().profile(user);
    $('#profile-ratings').replaceChildren(...p.ratings.map((r) => h('li', { 'data-rating': r.game },
      `${deps.title(r.game)}: ${r.rating}${r.provisional ? '?' : ''} ± ${r.deviation} · ${r.games} rated game${r.games === 1 ? '' : 's'}${r.provisional ? ' (provisional)' : ''}`)));
    if (!p.ratings.length) $('#profile-ratings').append(h('li', { class: 'empty' }, 'No rated games yet.'));
    const hist = await c().ratingHistory(user);
    $('#profile-history').replaceChildren(...hist.map((r) => h('li', { 'data-history': r.gameID },
      `${deps.title(r.game)}: ${r.before} → ${r.rating} (${r.rating >= r.before ? '+' : ''}${r.rating - r.before}) · ${when(r.at)}`)));
    await loadGames();
    await loadLeaders();
  } catch (e) { deps.showError(e); }
}

async function loadGames() {
  const games = await c().games(state.user, { page: state.page });
  $('#profile-games').replaceChildren(...games.map((g) => h('li', { 'data-game-id': g.id, 'data-result': RESULTS[g.result] },
    `${RESULTS[g.result]} · ${deps.title(g.game)} against `, ...g.opponents.flatMap((o, i) => [i ? ', ' : '', bdi(o || 'computer')]),
    ` · ${g.rated ? `rated ${g.change >= 0 ? '+' : ''}${g.change}` : 'casual'} · ${g.moves} moves · ${g.reason} · ${when(g.ended)} `,
    h('button', { type: 'button', 'data-replay': g.id, onclick: () => openReplay(g.id) }, 'Replay'))));
  if (!games.length) $('#profile-games').append(h('li', { class: 'empty' }, state.page ? 'No older games.' : 'No games yet.'));
  $('#games-newer').disabled = state.page === 0;
  $('#games-older').disabled = games.length < 10;
}

async function loadLeaders() {
  const game = $('#leader-game').value;
  if (!game) return;
  try {
    const rows = await c().leaderboard(game);
    $('#leaderboard').replaceChildren(...rows.map((r) => h('li', { 'data-leader': r.user }, bdi(r.user), ` ${r.rating} ± ${r.deviation} · ${r.games} games`)));
    if (!rows.length) $('#leaderboard').append(h('li', { class: 'empty' }, 'Nobody with an established rating yet.'));
  } catch (e) { deps.showError(e); }
}

async function openReplay(id) {
  state.replay = { id, ply: 0, plies: 0 };
  $('#replay-card').hidden = false;
  await step(0);
  $('#replay-card').scrollIntoView?.({ block: 'nearest' });
}

// step shows the position after ply moves, as the server computes it.
async function step(ply) {
  const r = state.replay;
  if (!r) return;
  try {
    const { replay, view } = await c().replay(r.id, Math.max(0, Math.min(ply, r.plies || ply)));
    state.replay = replay; state.view = view;
    draw();
  } catch (e) { deps.showError(e); }
}

function draw() {
  const r = state.replay, v = state.view;
  const game = deps.GAMES[r.game];
  const seatName = (i) => safeText(r.seats[i] || 'computer');
  $('#replay-title').textContent = `Game #${r.id}: ${deps.title(r.game)} · ${r.seats.map((s) => safeText(s || 'computer')).join(' v ')}`;
  const move = r.ply === 0 ? 'the start' : `move ${r.ply}: ${seatName(r.seat)} ${safeText(r.notation)}`;
  $('#replay-info').textContent = `Position ${r.ply} of ${r.plies} · ${move}${r.ply === r.plies ? ` · ended: ${r.reason}` : ''}`;
  const board = $('#replay-board');
  board.dataset.ply = r.ply;
  if (!game) { board.replaceChildren(h('p', {}, 'This page cannot draw that game.')); return; }
  const ctx = {
    view: { ...v, cells: Array.from(v.cells), extra: Array.from(v.extra), toMove: Array.from(v.toMove || []), scores: Array.from(v.scores || []) },
    seat: -1, table: { id: 0, game: r.game, phase: 2, seats: r.seats.map((name) => ({ name, flags: 0 })), options: r.options },
    canMove: false, legal: null, lastMove: null, lastSteps: [],
    sendMove: () => {}, send: () => {}, seatName, option: (k) => r.options.find((o) => o.key === k)?.value,
    error: (text) => deps.showError({ text }), redraw: draw,
  };
  const out = game.render(ctx, {});
  out.board.id = 'replay-svg';
  out.board.dataset.seq = v.seq;
  board.replaceChildren(out.board);
  $('#rp-start').disabled = $('#rp-prev').disabled = r.ply === 0;
  $('#rp-next').disabled = $('#rp-end').disabled = r.ply >= r.plies;
}

async function changePassword() {
  const note = $('#account-note');
  try {
    await c().changePassword($('#pw-current').value, $('#pw-new').value);
    note.textContent = 'Password changed.';
    $('#pw-current').value = $('#pw-new').value = '';
    sessionStorage.removeItem('bomber.login');
  } catch (e) { note.textContent = ''; deps.showError(e); }
}

async function deleteAccount() {
  if (!$('#delete-confirm').checked) { deps.showError({ text: 'Tick the box to confirm that the account goes for good.' }); return; }
  try {
    deps.app.kicked = true; // the server closes the connection: that is the point, not an error
    await c().deleteAccount($('#delete-password').value);
    sessionStorage.removeItem('bomber.login');
    sessionStorage.removeItem('bomber.seat');
    $('#login-error').textContent = 'Your account was deleted. Your finished games stay, without your name.';
    deps.showScreen('login');
  } catch (e) { deps.app.kicked = false; deps.showError(e); }
}
