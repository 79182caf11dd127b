// The Bomber web client: log in, the lobby (who is online, lobby chat,
// open tables, create a table), a table (seats, board, moves, chat,
// offers) and a step-by-step replay of finished games. Built on the
// BomberClient library of clients/js; every board is SVG.
import { BomberClient, ErrCode, GAME_TAKEBACK, GAME_DRAWS, safeText } from 'bomber-client';
import { h } from './dom.js';
import * as bomber from './games/bomber.js';
import * as checkers from './games/checkers.js';
import * as dots from './games/dots.js';
import * as aeroplane from './games/aeroplane.js';
import * as paisho from './games/paisho.js';
import * as duel from './duel.js';
import * as playNow from './playnow.js';
import { initHistory } from './history.js';

// GAMES draws each game's board; everything else about a game (its title,
// seat range, options and the offers it allows) comes from the server's
// catalogue, which takes it from the game's rules.Spec.
const GAMES = { bomber, checkers, dots, aeroplane, paisho };
const PHASES = ['waiting', 'playing', 'over'];
const SEAT_FLAG_READY = 1, SEAT_FLAG_BOT = 2, SEAT_FLAG_GONE = 4;
const NO_SEAT = 255;

const $ = (sel) => document.querySelector(sel);
const app = {
  client: null, me: '', catalog: [], tables: new Map(), users: [],
  view: null, // the last View of the current table
  ui: {}, // per-game selection state (cleared on each new game)
  history: [], // [{seq, move, view}] of the current or last game, for replay
  replay: -1, // index into history while replaying, -1 live
  ended: null, // the last GameEnd
  offer: null, invites: [], clocks: {}, away: {},
};

// ---------- connection ----------

function wsURL() {
  const u = new URL('ws', location.href);
  u.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return u.href;
}

// connect logs in as name; with signUp it makes the account first (on the
// same connection: signing up does not log in).
async function connect(name, password, { signUp = false } = {}) {
  const client = await BomberClient.connectWebSocket(wsURL());
  app.client = client;
  app.kicked = false;
  for (const ev of ['users', 'online', 'offline', 'table', 'joined', 'started', 'moved', 'step', 'view',
    'gameEnd', 'commit', 'offer', 'chat', 'invited', 'error', 'close', 'seated', 'clock', 'away',
    'recvInvite', 'inviteAnswer', 'refuse', 'board', 'guess', 'gameOver', 'legal', 'takeback', 'seeking']) {
    client.addEventListener(ev, (e) => handle(ev, e.detail ?? {}));
  }
  if (signUp) await client.signUp(name, password);
  await client.login(name, password);
  app.me = name;
  document.body.classList.remove('offline');
  sessionStorage.setItem('bomber.login', JSON.stringify({ name, password }));
  app.catalog = await client.catalog();
  await refreshTables();
  await tryResume();
}

async function refreshTables() {
  try {
    const list = await app.client.listTables();
    app.tables = new Map((list || []).map((t) => [t.id, t]));
  } catch (e) { showError(e); }
  renderTables();
}

// A resume token (Seated) kept in sessionStorage lets a reloaded page take
// its seat back; it is used only if the library and server support it.
async function tryResume() {
  const raw = sessionStorage.getItem('bomber.seat');
  if (!raw) return;
  try {
    const s = JSON.parse(raw);
    // lastSeq 0: the server resends every move, which rebuilds the move list.
    await app.client.resume({ table: s.table, seat: s.seat, token: Uint8Array.from(s.token), lastSeq: 0 });
    addLog('Back at your seat.');
  } catch (e) {
    sessionStorage.removeItem('bomber.seat');
    showError({ text: 'Could not take your seat back: ' + (e?.text || e?.message || e) });
  }
}

// reconnect follows a dropped connection: with a seat held for us, the
// page reloads once, which logs in again and resumes the seat (at most one
// try in 20 s, so a server that is down does not make the page spin).
function reconnect(error) {
  const last = Number(sessionStorage.getItem('bomber.reconnect') || 0);
  if (error && sessionStorage.getItem('bomber.seat') && Date.now() - last > 20000) {
    sessionStorage.setItem('bomber.reconnect', String(Date.now()));
    showError({ text: 'Connection lost: taking your seat back…' });
    setTimeout(() => location.reload(), 1000);
    return;
  }
  showError({ text: 'Connection closed. Reload the page to log in again.' });
}

// ---------- events ----------

let pending = false;
function redraw() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => { pending = false; renderAll(); });
}

function handle(ev, d) {
  const c = app.client;
  switch (ev) {
    case 'seeking':
      if (playNow.ended(d)) addLobbyNote(playNow.ended(d));
      renderPlayNow(); break;
    case 'users': case 'online': case 'offline':
      renderUsers(); break;
    case 'table':
      if (d && d.id !== undefined) app.tables.set(d.id, d);
      renderTables(); redraw(); break;
    case 'joined':
      app.ui = {}; app.offer = null; app.view = null; app.clocks = {}; app.away = {};
      if (!c.tableId) { sessionStorage.removeItem('bomber.seat'); app.history = []; app.replay = -1; app.ended = null; refreshTables(); }
      showScreen(c.tableId ? 'table' : 'lobby'); clearChat('#table-chat-log'); redraw(); break;
    case 'started':
      app.ui = {}; app.history = [{ seq: 0, move: null, view: null }]; app.replay = -1; app.ended = null; app.offer = null; app.view = null;
      addLog(`Game started (seed commitment ${hex(d.seedCommit).slice(0, 16)}…)`); redraw(); break;
    case 'moved':
      record(d);
      askView();
      app.ui = keepUI(app.ui);
      redraw(); break;
    case 'step':
      addStep(d); askView(); redraw(); break; // another seat's secret move shows only as steps
    case 'commit':
      askView(); break;
    case 'view':
      app.view = d; snapshot(d); redraw(); break;
    case 'takeback': { // the library undid the last move (d): so does the move list
      const i = app.history.findLastIndex((x) => x.move && x.seq === d.seq);
      if (i > 0) app.history.splice(i, 1);
      app.ui = {};
      redraw(); break;
    }
    case 'legal':
      redraw(); break; // the targets of the seat to move
    case 'gameEnd':
      app.ended = d; app.offer = null;
      addLog(endText(d)); redraw(); break;
    case 'offer':
      app.offer = d.state === 0 ? d : null;
      addLog(offerText(d)); redraw(); break;
    case 'chat':
      addChat(d); break;
    case 'invited':
      app.invites.push(d); renderInvites(); break;
    case 'error':
      showError(d); redraw(); break;
    case 'close':
      // a connection that never logged in (a wrong password) or whose
      // login another tab took over has said what happened already
      if (c !== app.client || !c.user || app.kicked) break;
      document.body.classList.add('offline');
      if (d.reason?.code === ErrCode.RateLimited) { // the server said why: no blind reconnecting
        showError({ text: 'The server closed the connection because this page sent too much too fast. Reload the page to go on.' });
        break;
      }
      reconnect(d.error);
      break;
    case 'refuse':
      if (d.code === 4) loggedInElsewhere(); // Refuse 4 to a session a newer login took over
      break;
    case 'seated':
      if (d.token) sessionStorage.setItem('bomber.seat', JSON.stringify({ table: d.table, seat: d.seat, token: Array.from(d.token) }));
      break;
    case 'clock':
      app.clocks = { at: performance.now(), seats: d.seats || [] }; redraw(); break;
    case 'away':
      if (d.grace) app.away[d.seat] = { until: performance.now() + d.grace };
      else delete app.away[d.seat];
      addLog(`${seatLabel(currentTable(), d.seat)} ${d.grace ? `dropped; the seat is held for ${Math.round(d.grace / 1000)} s` : 'is back'}`);
      redraw(); break;
    default:
      refEvent(ev, d);
  }
}

// loggedInElsewhere: another tab or window logged in as this user, and the
// server signed this one out: say so, and offer the login form again.
function loggedInElsewhere() {
  app.kicked = true;
  sessionStorage.removeItem('bomber.seat'); // the seat is the other tab's now
  try { app.client.close(); } catch { /* already closed */ }
  $('#login-error').textContent = 'You logged in as ' + (app.me || 'this user') + ' in another tab or window, so this one was signed out. Log in again here to play here.';
  showScreen('login');
}

// askView asks for a fresh View once per burst of messages (the server
// sends moves and steps, not positions).
let viewAsked = false;
function askView() {
  if (viewAsked) return;
  viewAsked = true;
  setTimeout(() => {
    viewAsked = false;
    if (app.client.tableId) app.client.requestView().catch(() => {}); // a closed connection says so itself
  }, 0);
}

// keepUI keeps the Bomber planes being drawn, their placement hints and the guess mode across moves.
const keepUI = (ui) => ({ planes: ui.planes, mode: ui.mode, hints: ui.hints });

function snapshot(view) {
  if (!view) return;
  if (!app.history.length) app.history.push({ seq: view.seq, move: null, view });
  for (let i = app.history.length - 1; i >= 0; i--) {
    if (app.history[i].seq === view.seq) { app.history[i].view = view; break; }
  }
}

// addStep keeps a Step with the move of its update (a die's face, a
// capture), for the move list and the board.
function addStep(st) {
  const e = app.history.findLast((x) => x.seq === st.seq);
  if (e) (e.steps ||= []).push(st);
}

// record adds a Moved to the history in sequence order (a secret move
// revealed after GameEnd arrives late with its original number).
function record(m) {
  let i = app.history.length;
  while (i > 1 && app.history[i - 1].seq > m.seq) i--;
  app.history.splice(i, 0, { seq: m.seq, move: m, view: null, steps: [] });
}

// ---------- screens ----------

function showScreen(name) {
  for (const el of document.querySelectorAll('.screen')) el.hidden = el.id !== name;
  document.body.dataset.screen = name;
}

function renderAll() {
  renderPlayNow();
  renderUsers();
  renderTables();
  renderTable();
}

// bdi shows a name or chat text from the server: control and bidi
// characters replaced (safeText), and isolated, so right-to-left text in it
// cannot reorder what follows.
const bdi = (text) => h('bdi', {}, safeText(text));

function renderUsers() {
  const el = $('#users');
  if (!el || !app.client) return;
  const list = [app.me, ...[...(app.client.users || [])].filter((u) => u !== app.me).sort()];
  el.replaceChildren(...list.map((name) => h('li', { 'data-user': name }, bdi(name), name === app.me ? ' (you)' : '',
    name !== app.me ? h('button', { class: 'ref-invite', title: 'invite to Bomber the reference-client way', onclick: () => refInvite(name) }, 'Bomber duel') : '')));
  $('#online-count').textContent = String(list.length);
}

// seatLabel names seat i of table t: its player, "computer", or "seat i".
function seatLabel(t, i) {
  const s = t?.seats?.[i];
  if (s?.name) return safeText(s.name);
  return s && s.flags & SEAT_FLAG_BOT ? 'computer' : `seat ${i}`;
}

function seatsText(t) {
  return (t.seats || []).map((s) => s.name ? safeText(s.name) + (s.flags & SEAT_FLAG_BOT ? ' (computer)' : '') : '—').join(', ');
}

// optionsText says a table's options in words: "clock 60 s a game,
// +5 s a move · 4×5 dots".
function optionsText(t) {
  const o = t.options || [];
  const pairs = Array.isArray(o) ? o.map((x) => [x.key, x.value]) : Object.entries(o);
  const m = Object.fromEntries(pairs);
  const out = [];
  const clock = [];
  if (m['clock.total']) clock.push(`${m['clock.total']} s a game`);
  if (m['clock.move']) clock.push(`${m['clock.move']} s a move`);
  if (m['clock.increment']) clock.push(`+${m['clock.increment']} s a move`);
  if (clock.length) out.push('clock ' + clock.join(', '));
  if (m.rows || m.cols) out.push(`${m.rows || '?'}×${m.cols || '?'} dots`);
  // both room options, in words, whichever way the table was made
  out.push(m.start === 'host' ? 'the host starts' : 'starts when all are ready');
  out.push(m.chat === 'separate' ? 'watchers chat apart' : 'one chat for players and watchers');
  for (const [k, v] of pairs) {
    if (k.startsWith('clock.') || k === 'rows' || k === 'cols' || k === 'start' || k === 'chat') continue;
    const words = k.replace(/[-_.]/g, ' ');
    if (/^(true|on|yes)$/i.test(v)) out.push(words);
    else if (/^(false|off|no)$/i.test(v)) out.push('no ' + words);
    else out.push(`${words} ${v}`);
  }
  return out.length ? ' · ' + out.join(' · ') : '';
}

function renderTables() {
  const el = $('#tables');
  if (!el) return;
  const rows = [...app.tables.values()].filter((t) => t.phase !== 2 || isMine(t)).sort((a, b) => a.id - b.id);
  el.replaceChildren(...rows.map((t) => {
    const free = (t.seats || []).some((s) => !s.name);
    return h('li', { 'data-table': t.id, class: 'table-row' },
      h('span', { class: 'tname' }, `#${t.id} ${title(t.game)}`),
      h('span', { class: 'tmeta' }, ` ${PHASES[t.phase] || ''} · ${seatsText(t)} · ${t.watchers} watching${optionsText(t)}`),
      h('span', { class: 'tact' },
        h('button', { 'data-join': t.id, disabled: !free || t.phase !== 0, onclick: () => act(() => app.client.join(t.id, { seat: NO_SEAT, code: t.code || '' })) }, 'Join'),
        h('button', { 'data-watch': t.id, onclick: () => act(() => app.client.watch(t.id, { code: t.code || '' })) }, 'Watch')));
  }));
  if (!rows.length) el.append(h('li', { class: 'empty' }, 'No open tables yet: create one.'));
}

const isMine = (t) => app.client?.tableId === t.id;

// catalogued is the catalogue's entry for a game.
const catalogued = (name) => app.catalog.find((g) => g.name === name);
// title is a game's name for people.
const title = (name) => catalogued(name)?.title || name;
// allows says whether a game allows an offer (GAME_DRAWS, GAME_TAKEBACK);
// where the catalogue does not say (a server without the game facts), the
// button shows and the server answers.
function allows(name, flag) {
  const f = catalogued(name)?.flags;
  return f === undefined || (f & flag) !== 0;
}

function currentTable() {
  const id = app.client?.tableId;
  if (!id) return null;
  return app.client.table || app.tables.get(id) || null;
}

function mySeat() {
  const s = app.client?.seat;
  return s === undefined || s === null || s === NO_SEAT || s < 0 ? -1 : s;
}

function option(t, key) {
  const o = t?.options || [];
  if (Array.isArray(o)) return o.find((x) => x.key === key)?.value;
  return o[key];
}

// inviteLink is a link to this page that logs in (or asks to) and joins
// table t, or watches it: #t=ID&c=CODE, and &w=1 to watch.
function inviteLink(t, watch) {
  const u = new URL(location.href);
  u.hash = `t=${t.id}&c=${encodeURIComponent(t.code)}${watch ? '&w=1' : ''}`;
  return u.href;
}

// readInvite reads an invite link's #t=ID&c=CODE[&w=1]; null for none.
function readInvite() {
  const p = new URLSearchParams(location.hash.slice(1));
  const id = Number(p.get('t'));
  if (!Number.isInteger(id) || id <= 0) return null;
  return { id, code: (p.get('c') || '').trim().toUpperCase(), watch: p.get('w') === '1' };
}

// followInvite joins or watches the table of the link the page was opened
// with, once logged in, and forgets the link so a reload does not repeat it.
async function followInvite() {
  const inv = app.invite;
  if (!inv || !app.client || app.client.tableId) return;
  app.invite = null;
  history.replaceState(null, '', location.pathname + location.search);
  $('#login-note').hidden = true;
  await act(async () => {
    if (inv.watch) await app.client.watch(inv.id, { code: inv.code });
    else await app.client.join(inv.id, { seat: NO_SEAT, code: inv.code });
  });
}

// noteInvite tells the person at the login form where the link leads.
function noteInvite() {
  app.invite = readInvite();
  const note = $('#login-note');
  note.hidden = !app.invite;
  if (app.invite) note.textContent = `Log in to ${app.invite.watch ? 'watch' : 'join'} table #${app.invite.id}.`;
}

function renderTable() {
  const t = currentTable();
  if (!t || document.body.dataset.screen !== 'table') return;
  const seat = mySeat();
  const watching = seat < 0;
  $('#table-title').textContent = `Table #${t.id}: ${title(t.game)}${t.code ? ` · join code ${t.code}` : ''} · ${PHASES[t.phase]}${watching ? ' · watching' : ''}`;
  $('#table-title').dataset.phase = t.phase;
  const seats = $('#seats');
  seats.replaceChildren(...(t.seats || []).map((s, i) => {
    const clock = clockText(i);
    const li = h('li', { 'data-seat': i, class: i === seat ? 'me' : '' },
      h('span', { class: 'seat-dot', style: `background:${['#d9a400', '#2f6fd0', '#d0392b', '#239b56'][i]}` }),
      s.flags & SEAT_FLAG_BOT ? `🤖 ${safeText(s.name) || 'computer'}` : s.name ? bdi(s.name) : 'free seat',
      s.flags & SEAT_FLAG_READY ? ' ✓ ready' : '',
      s.flags & SEAT_FLAG_GONE || app.away[i] ? ' (away)' : '',
      clock ? h('span', { class: 'clock', 'data-clock': i }, ' ⏱ ' + clock) : '');
    if (!s.name && !(s.flags & SEAT_FLAG_BOT) && t.phase === 0 && seat === 0) {
      li.append(' ', h('button', { 'data-bot': i, onclick: () => act(() => app.client.addBot(i)) }, 'Add computer'));
    }
    return li;
  }));
  // start=host: the host's Ready is the seeds' Start button, enabled once
  // every seat is filled; the other players wait for it
  const hostStarts = option(t, 'start') === 'host';
  const host = (t.seats || []).findIndex((x) => x.name && !(x.flags & SEAT_FLAG_BOT));
  const full = (t.seats || []).every((x) => x.name);
  $('#ready').textContent = hostStarts ? 'Start game' : 'Ready';
  $('#ready').hidden = watching || t.phase === 1 || (hostStarts && seat !== host);
  $('#ready').disabled = hostStarts ? !full : !!((t.seats || [])[seat]?.flags & SEAT_FLAG_READY);
  // a table with a join code: links that open this page and join or watch it
  $('#invite-link-box').hidden = !t.code || t.phase === 2;
  if (t.code) {
    $('#invite-link').value = inviteLink(t, false);
    $('#watch-link').value = inviteLink(t, true);
  }
  $('#resign').hidden = watching || t.phase !== 1;
  if ($('#resign').hidden) $('#resign-box').hidden = true;
  $('#offer-draw').hidden = watching || t.phase !== 1 || !allows(t.game, GAME_DRAWS);
  $('#offer-takeback').hidden = watching || t.phase !== 1 || !allows(t.game, GAME_TAKEBACK);
  $('#offer-rematch').hidden = watching || !app.ended;
  $('#invite-box').hidden = watching || t.phase !== 0;
  $('#add-bots').hidden = seat !== 0 || t.phase !== 0 || !(t.seats || []).some((x) => !x.name);
  const offerBox = $('#offer-box');
  offerBox.hidden = !app.offer || watching || app.offer.seat === seat;
  if (app.offer) $('#offer-text').textContent = offerText(app.offer);
  renderBoard(t, seat);
  renderMoves();
}

// clockText is seat i's time left, counting down locally while its clock runs.
function clockText(i) {
  const c = app.clocks?.seats?.[i];
  if (!c) return '';
  const running = (c.flags & 1) && currentTable()?.phase === 1;
  const ms = c.left - (running ? performance.now() - app.clocks.at : 0);
  const sec = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, '0')}`;
}

function renderBoard(t, seat) {
  const live = app.view; // the library keeps the last View of any table; this one is this table's
  const replaying = app.replay >= 0;
  const entry = replaying ? app.history[app.replay] : null;
  const view = replaying ? viewAt(app.replay) : live;
  const boardEl = $('#board');
  const ctl = $('#controls');
  if (!view || !GAMES[t.game]) {
    const wait = option(t, 'start') === 'host' ? 'Waiting for every seat to be filled and the host to start the game.' : 'Waiting for every seat to be filled and ready.';
    boardEl.replaceChildren(h('p', { class: 'waiting' }, t.phase === 0 ? wait : 'Loading the board…'));
    ctl.replaceChildren(); $('#game-info').textContent = '';
    return;
  }
  const toMove = Array.from(view.toMove || []);
  const ctx = {
    view: { ...view, cells: bytes(view.cells), extra: bytes(view.extra), toMove, scores: Array.from(view.scores || []) },
    seat, table: t,
    canMove: !replaying && t.phase === 1 && seat >= 0 && toMove.includes(seat) && view.status === 0,
    // the server's legal moves for this position ({kind, arg}); null until they arrive
    legal: !replaying && app.client.legal?.table === t.id && app.client.legal.seq === view.seq ? app.client.legal.moves : null,
    lastMove: lastMovePath(replaying ? app.replay : app.history.length - 1),
    // the last move played ({seat, kind, arg, notation}), marked on every board
    last: app.history[replaying ? app.replay : app.history.length - 1]?.move || null,
    lastSteps: app.history[replaying ? app.replay : app.history.length - 1]?.steps || [],
    // the moves played ({seat, notation}), with the secret ones the server reveals after the end
    moves: app.history.filter((x) => x.move).map((x) => x.move),
    sendMove: (m) => act(() => app.client.move(m)),
    // Bomber: where the next plane may go, from the server (a Map head -> tails)
    planeHints: (planes) => app.client.planeHints(planes),
    seatName: (i) => seatLabel(t, i),
    option: (k) => option(t, k),
    send: (text) => act(() => app.client.moveText(text)),
    error: (text) => showError({ text }),
    redraw,
  };
  const out = GAMES[t.game].render(ctx, app.ui);
  out.board.id = 'board-svg';
  out.board.dataset.seq = view.seq;
  out.board.dataset.status = view.status;
  out.board.dataset.tomove = toMove.join(',');
  out.board.dataset.game = t.game;
  out.board.dataset.canmove = ctx.canMove ? 1 : 0;
  out.board.dataset.pick = JSON.stringify([app.ui.path, app.ui.pick, app.ui.hand, app.ui.from, app.ui.planes?.length]);
  boardEl.replaceChildren(out.board);
  ctl.replaceChildren(...(out.controls ? [out.controls] : []));
  let info = out.info;
  if (replaying) info = `Replay ${app.replay}/${app.history.length - 1}${entry?.move ? ': ' + moveText(entry.move, entry.steps) : ' (start)'} · ` + info;
  if (app.ended && !replaying && t.phase !== 1) info = endText(app.ended) + ' · ' + info;
  else if (ctx.canMove) info = 'Your move · ' + info;
  else if (t.phase === 1 && view.status === 0 && toMove.length) {
    const names = toMove.filter((i) => i !== seat).map((i) => ctx.seatName(i));
    info = `Waiting for ${names.join(' and ')} · ` + info;
  }
  $('#game-info').textContent = info;
  $('#game-info').dataset.ended = app.ended && !replaying ? 1 : 0;
  $('#move-hint').textContent = out.hint || '';
  $('#move-form').hidden = !ctx.canMove;
  $('#replay').hidden = !(app.ended && t.phase !== 1 && app.history.length > 1);
}

// lastMovePath is the squares of the move of history entry i (checkers:
// its path), to mark the last move on the board.
function lastMovePath(i) {
  const m = app.history[i]?.move;
  return m && m.arg ? Array.from(m.arg) : null;
}

// viewAt gives the View after history entry i, or the nearest one before
// it that the client received (views are asked for after each move).
function viewAt(i) {
  for (let k = i; k >= 0; k--) if (app.history[k]?.view) return app.history[k].view;
  return app.view;
}

function renderMoves() {
  const el = $('#moves');
  const items = app.history.filter((x) => x.move);
  el.replaceChildren(...items.map((x, i) => h('li', {
    'data-seq': x.seq, class: app.replay >= 0 && app.history[app.replay] === x ? 'current' : '',
  }, moveText(x.move, x.steps))));
  el.scrollTop = el.scrollHeight;
}

function moveText(m, steps) {
  const t = currentTable();
  const said = GAMES[t?.game]?.describe?.(m, steps || []);
  return `${seatLabel(t, m.seat)}: ${said || m.notation || '(secret)'}`;
}

const bytes = (b) => (b instanceof Uint8Array ? b : Uint8Array.from(b || []));
const hex = (b) => Array.from(bytes(b)).map((x) => x.toString(16).padStart(2, '0')).join('');

function endText(d) {
  const t = currentTable();
  const winners = Array.from(d.winners || []);
  const names = winners.map((w) => seatLabel(t, w));
  const seat = mySeat();
  let st = d.status === 2 ? 'Drawn' : d.status === 0 ? 'Abandoned: nobody won' : `Won by ${names.join(' and ')}`;
  if (seat >= 0 && d.status === 1) {
    const others = winners.filter((w) => w !== seat).map((w) => seatLabel(t, w));
    st = winners.includes(seat) ? `You won!${others.length ? ` (with ${others.join(' and ')})` : ''}` : `You lost: ${names.join(' and ')} won`;
  }
  return `Game over: ${st}${d.reason ? ` · ${d.reason}` : ''}`;
}

const OFFERS = ['', 'a draw', 'a rematch', 'a takeback'];
const OFFER_STATES = ['offers', 'agreed to', 'declined', 'expired:', 'withdrew'];
function offerText(d) {
  const t = currentTable();
  const who = seatLabel(t, d.seat);
  return `${who} ${OFFER_STATES[d.state] || ''} ${OFFERS[d.what] || ''}`;
}

// ---------- chat, log, errors ----------

function addChat(d) {
  const log = d.scope === 0 ? $('#lobby-chat-log') : $('#table-chat-log');
  const room = d.scope === 2 ? ' (watchers)' : '';
  log.append(h('li', { 'data-from': d.from }, h('b', {}, bdi(d.from), room + ': '), bdi(d.text)));
  log.scrollTop = log.scrollHeight;
}
function addLog(text) {
  const log = $('#table-chat-log');
  log.append(h('li', { class: 'sys' }, text));
  log.scrollTop = log.scrollHeight;
}
function clearChat(sel) { $(sel).replaceChildren(); }

// PLAIN says the server's refusals as a player would (by Error code); the
// server's own text follows where it tells more (why a move is illegal).
const PLAIN = {
  2: 'There is no such table (it may have closed).', 3: 'That table has no free seat.',
  4: 'You are not at a table.', 5: 'You are at a table already: leave it first.',
  7: 'It is not your turn.', 8: 'The game is not running.', 9: 'One of the options is not valid for this game.',
  10: 'The server has too many tables right now; try again later.', 11: 'That table needs its join code, or does not let you in.',
  12: 'That message could not be sent.', 13: 'That message is too long.', 14: 'You are chatting too fast: wait a moment.',
  15: 'There is no user by that name.', 16: 'You are not logged in: log in again.', 17: 'That move is not written the way this game writes moves.',
  18: 'There is no offer to answer.', 19: 'This server does not have that game.', 20: 'Only the players at the table can do that.',
};

function showError(e) {
  const code = e?.code ?? e?.error?.code;
  const raw = e?.text || e?.error?.text;
  let text = e?.text || e?.message || e?.error?.text || e?.error?.message || String(e);
  if (e?.req !== undefined || e?.error?.req !== undefined) { // a refusal from the server
    text = code === 6 ? `That move is not allowed${raw ? ': ' + raw : '.'}` : PLAIN[code] || raw || text;
  }
  const box = $('#toast');
  box.textContent = safeText(text);
  box.hidden = false;
  box.dataset.count = String(Number(box.dataset.count || 0) + 1);
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { box.hidden = true; }, 5000);
}

async function act(fn) {
  try { await fn(); } catch (e) { showError(e); }
}

function renderInvites() {
  const el = $('#invites');
  el.replaceChildren(...app.invites.map((inv, i) => h('li', { 'data-invite': inv.from },
    bdi(inv.from), ` invites you to ${safeText(title(inv.game))} (table #${inv.table}) `,
    h('button', { class: 'accept-invite', onclick: () => { app.invites.splice(i, 1); renderInvites(); act(() => app.client.join(inv.table, { seat: NO_SEAT, code: inv.code || '' })); } }, 'Join'),
    h('button', { onclick: () => { app.invites.splice(i, 1); renderInvites(); } }, 'Dismiss'))));
}

// ---------- the reference Bomber invitation (play a reference client) ----------

function refInvite(name) {
  if (app.duel && !app.duel.over) { showError({ text: 'Finish your Bomber duel first.' }); return; }
  app.client.sendInvite(name);
  app.pendingDuel = name;
  addLobbyNote(`Invited ${safeText(name)} to a Bomber duel…`);
}

function refEvent(ev, d) {
  const c = app.client;
  if (ev === 'recvInvite') {
    const from = d.from;
    $('#invites').append(h('li', { 'data-ref-invite': from }, bdi(from), ' invites you to a Bomber duel ',
      h('button', { class: 'accept-duel', onclick: (e) => { e.target.parentNode.remove(); c.answerInvite(true); startDuel(from, 1); } }, 'Accept'),
      h('button', { onclick: (e) => { e.target.parentNode.remove(); c.answerInvite(false); } }, 'Refuse')));
  } else if (ev === 'inviteAnswer') {
    const who = app.pendingDuel; app.pendingDuel = null;
    if (d.accepted && who) startDuel(who, 0);
    else addLobbyNote(`${who || 'The player'} ${['is not online', '', 'refused', '', '', '', 'is busy'][d.code] || 'refused'}.`);
  } else if (!app.duel) {
    return;
  } else if (ev === 'board') {
    app.duel.theirs = duel.planesOf(d.planes); drawDuel();
  } else if (ev === 'guess') {
    const g = d.kind === 'single' ? { kind: 'single', cell: d.x * 10 + d.y } : { kind: 'double', head: d.head[0] * 10 + d.head[1], tail: d.tail[0] * 10 + d.tail[1] };
    duelGuess(1 - app.duel.role, g);
  } else if (ev === 'gameOver') {
    // GameOver before anyone found every plane: the opponent's client went
    // away (it closed, or its user logged in elsewhere); nobody won
    if (!app.duel.over) app.duel.over = { winner: -1, left: true };
    drawDuel();
  }
}

function startDuel(opponent, role) {
  app.duel = duel.newDuel(opponent, role);
  app.ui = {};
  showScreen('duel');
  drawDuel();
}

// duelGuess applies a guess of seat to the duel: the turn passes, and a
// seat that revealed all 30 cells has won.
function duelGuess(seat, g) {
  const d = app.duel;
  d.guesses[seat].push(g);
  d.log.push({ seat, g });
  d.turn = 1 - seat;
  const target = seat === d.role ? d.theirs : d.mine;
  if (duel.found(target, d.guesses[seat]) === 30) d.over = { winner: seat };
  drawDuel();
}

function drawDuel() {
  const d = app.duel;
  if (!d) return;
  const names = [];
  names[d.role] = app.me; names[1 - d.role] = d.opponent;
  const v = duel.view(d);
  const ctx = {
    view: v, seat: d.role, table: null,
    canMove: !d.over && v.toMove.includes(d.role),
    seatName: (i) => names[i],
    option: () => undefined,
    send: (text) => duelSend(text),
    error: (text) => showError({ text }),
    redraw: drawDuel,
  };
  const out = GAMES.bomber.render(ctx, app.ui);
  out.board.id = 'duel-svg';
  out.board.dataset.canmove = ctx.canMove ? 1 : 0;
  $('#duel-board').replaceChildren(out.board);
  $('#duel-controls').replaceChildren(...(out.controls ? [out.controls] : []));
  const end = !d.over ? '' : d.over.left ? `${d.opponent} left: the game is over, and nobody won · `
    : d.over.winner === d.role ? 'You won! · ' : `${d.opponent} won: you lost · `;
  $('#duel-title').textContent = `Bomber duel with ${d.opponent} (reference protocol)`;
  $('#duel-info').textContent = end + out.info;
  $('#duel-info').dataset.over = d.over ? 1 : 0;
  $('#duel-moves').replaceChildren(...d.log.map((x) => h('li', {}, `${names[x.seat]}: ${x.g.kind === 'single' ? cellText(x.g.cell) : cellText(x.g.head) + '-' + cellText(x.g.tail)}`)));
}

const cellText = (c) => `${Math.floor(c / 10)}${c % 10}`;

// duelSend turns the Bomber board's notation into the reference segments.
function duelSend(text) {
  const d = app.duel, c = app.client;
  const pairs = text.trim().split(/\s+/).map((p) => p.split('-').map((x) => Number(x)));
  if (pairs.length === 3) {
    c.sendBoard(pairs.map(([hd, tl]) => [Math.floor(hd / 10), hd % 10, Math.floor(tl / 10), tl % 10]));
    d.mine = pairs.map(([hd, tl]) => [hd, tl]);
    app.ui = {};
  } else if (pairs[0].length === 1) {
    const x = pairs[0][0];
    c.guess(Math.floor(x / 10), x % 10);
    duelGuess(d.role, { kind: 'single', cell: x });
    return;
  } else {
    const [hd, tl] = pairs[0];
    c.guessPlane([Math.floor(hd / 10), hd % 10], [Math.floor(tl / 10), tl % 10]);
    duelGuess(d.role, { kind: 'double', head: hd, tail: tl });
    return;
  }
  drawDuel();
}

function addLobbyNote(text) {
  const log = $('#lobby-chat-log');
  log.append(h('li', { class: 'sys' }, text));
  log.scrollTop = log.scrollHeight;
}

function renderPlayNow() { playNow.render(app, act, title); }

// ---------- create form ----------

function renderCreate() {
  const sel = $('#game');
  sel.replaceChildren(...app.catalog.map((g) => h('option', { value: g.name }, title(g.name))));
  sel.onchange = renderCreateOptions;
  renderCreateOptions();
}

function renderCreateOptions() {
  const g = app.catalog.find((x) => x.name === $('#game').value);
  if (!g) return;
  const seats = $('#seats-n');
  const min = g.min ?? g.minSeats, max = g.max ?? g.maxSeats;
  seats.min = min; seats.max = max; seats.value = min;
  seats.disabled = min === max;
  $('#opt-extra').value = '';
  const box = $('#game-options');
  box.replaceChildren(...(g.options || []).map((o) => {
    const id = 'opt-' + o.key;
    let input;
    if (o.kind === 1) input = h('input', { type: 'checkbox', id, 'data-key': o.key, checked: /^(true|on|yes|1)$/i.test(o.default) });
    else if (o.kind === 2) input = h('select', { id, 'data-key': o.key }, (o.choices || []).map((c) => h('option', { value: c, selected: c === o.default }, c)));
    else if (o.kind === 0) input = h('input', { type: 'number', id, 'data-key': o.key, min: o.min, max: o.max, value: o.default });
    else input = h('input', { type: 'text', id, 'data-key': o.key, value: o.default, placeholder: o.default });
    return h('label', { class: 'opt', title: o.doc || '' }, h('span', {}, o.key + (o.kind === 0 ? ` (${o.min}–${o.max})` : '')), input,
      o.doc ? h('small', {}, o.doc) : '');
  }));
}

// extraOptions reads the free "key=value key=value" field (options the
// form does not list, such as a later server's clock settings).
function extraOptions(text) {
  const out = {};
  for (const pair of text.trim().split(/\s+/).filter(Boolean)) {
    const i = pair.indexOf('=');
    if (i > 0) out[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return out;
}

function createRequest() {
  const g = app.catalog.find((x) => x.name === $('#game').value);
  const options = {};
  for (const el of $('#game-options').querySelectorAll('[data-key]')) {
    const o = g.options.find((x) => x.key === el.dataset.key);
    const v = el.type === 'checkbox' ? (el.checked ? 'true' : 'false') : el.value;
    const def = o.kind === 1 ? (/^(true|on|yes|1)$/i.test(o.default) ? 'true' : 'false') : o.default;
    if (v !== def) options[o.key] = v;
  }
  for (const k of ['move', 'total', 'increment']) {
    const v = $('#clock-' + k).value.trim();
    if (v) options['clock.' + k] = v;
  }
  Object.assign(options, extraOptions($('#opt-extra').value));
  // the seeds' host starts; the form says so whichever the server's default
  options.start = $('#start-mode').value;
  if ($('#chat-separate').checked) options.chat = 'separate';
  return { game: g.name, seats: Number($('#seats-n').value), private: $('#private').checked, watch: Number($('#watch').value), options };
}

// ---------- wiring ----------

function wire() {
  const form = (sel, fn) => $(sel).addEventListener('submit', (e) => { e.preventDefault(); fn(e.target); });
  const enter = async (signUp) => {
    const name = $('#name').value.trim(), password = $('#password').value;
    $('#login-error').textContent = '';
    $('#login-btn').disabled = $('#signup-btn').disabled = true;
    performance.mark('bomber-login');
    try {
      await connect(name, password, { signUp });
      $('#me').textContent = name;
      renderCreate();
      showScreen(app.client.tableId ? 'table' : 'lobby');
      renderAll();
      performance.mark?.('bomber-lobby');
      followInvite();
    } catch (e) {
      $('#login-error').textContent = e?.text || e?.message || String(e);
      try { app.client?.close?.(); } catch { /* already closed */ }
    } finally {
      $('#login-btn').disabled = $('#signup-btn').disabled = false;
    }
  };
  form('#login-form', () => enter(false));
  $('#signup-btn').addEventListener('click', () => {
    if ($('#login-form').reportValidity()) enter(true);
  });
  form('#lobby-chat-form', (f) => sendChat(0, f));
  // one room for players and watchers unless the table keeps its watchers apart
  form('#table-chat-form', (f) => sendChat(mySeat() < 0 && option(currentTable(), 'chat') === 'separate' ? 2 : 1, f));
  form('#create-form', () => act(async () => { await app.client.createTable(createRequest()); }));
  form('#code-form', () => act(async () => {
    const id = Number($('#code-table').value), code = $('#code').value.trim().toUpperCase();
    await app.client.join(id, { seat: NO_SEAT, code });
  }));
  $('#code-watch').onclick = () => {
    if (!$('#code-form').reportValidity()) return;
    act(async () => {
      const id = Number($('#code-table').value), code = $('#code').value.trim().toUpperCase();
      await app.client.watch(id, { code });
    });
  };
  form('#move-form', () => { const v = $('#move-input').value.trim(); if (v) { $('#move-input').value = ''; act(() => app.client.moveText(v)); } });
  form('#invite-form', () => { const u = $('#invite-name').value.trim(); if (u) act(async () => { await app.client.invite(u); addLog(`Invited ${u}`); }); });
  $('#refresh').onclick = refreshTables;
  $('#duel-back').onclick = () => { if (app.duel && !app.duel.over) return; app.duel = null; app.ui = {}; showScreen('lobby'); };
  $('#ready').onclick = () => act(() => app.client.ready());
  const copy = (sel) => act(async () => {
    const el = $(sel);
    el.select();
    try { await navigator.clipboard.writeText(el.value); } catch { document.execCommand?.('copy'); }
    addLog('Link copied: send it to whoever you want at the table.');
  });
  $('#copy-invite').onclick = () => copy('#invite-link');
  $('#copy-watch').onclick = () => copy('#watch-link');
  $('#add-bots').onclick = () => act(() => app.client.addBot(NO_SEAT));
  $('#leave').onclick = () => act(async () => { await app.client.leave(); });
  // Resign asks for a confirmation on a button of its own, below the row
  // (nothing moves under the pointer): the second click of a double click
  // lands on Resign again, which takes the question back (no modal
  // dialog, so keyboards and tests reach it).
  const resignAsk = (on) => {
    $('#resign-box').hidden = !on;
    $('#resign').setAttribute('aria-expanded', on ? 'true' : 'false');
    clearTimeout(resignAsk.timer);
    if (on) resignAsk.timer = setTimeout(() => resignAsk(false), 8000);
  };
  $('#resign').onclick = () => resignAsk($('#resign-box').hidden);
  $('#resign-cancel').onclick = () => resignAsk(false);
  $('#resign-confirm').onclick = () => { resignAsk(false); act(() => app.client.resign()); };
  $('#offer-draw').onclick = () => act(() => app.client.offer(1, 0));
  $('#offer-rematch').onclick = () => act(() => app.client.offer(2, 0));
  $('#offer-takeback').onclick = () => act(() => app.client.offer(3, 0));
  $('#offer-accept').onclick = () => act(() => app.client.offer(app.offer.what, 1));
  $('#offer-decline').onclick = () => act(() => app.client.offer(app.offer.what, 2));
  const step = (to) => { app.replay = Math.max(0, Math.min(app.history.length - 1, to)); redraw(); };
  $('#replay-start').onclick = () => step(0);
  $('#replay-prev').onclick = () => step((app.replay < 0 ? app.history.length - 1 : app.replay) - 1);
  $('#replay-next').onclick = () => step((app.replay < 0 ? app.history.length - 1 : app.replay) + 1);
  $('#replay-end').onclick = () => { app.replay = -1; redraw(); };
  document.addEventListener('keydown', (e) => {
    if (e.target.closest?.('input, textarea, select')) return;
    if (app.ui.keys?.(e)) { e.preventDefault(); return; }
    if (!$('#replay').hidden && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
      (e.key === 'ArrowLeft' ? $('#replay-prev') : $('#replay-next')).click();
    }
  });
  noteInvite();
  // a link opened in a logged-in page: follow it at once
  window.addEventListener('hashchange', () => { noteInvite(); if (app.client && !app.client.closed) followInvite(); });
  const saved = sessionStorage.getItem('bomber.login');
  if (saved) {
    try {
      const { name, password } = JSON.parse(saved);
      $('#name').value = name; $('#password').value = password;
      if (sessionStorage.getItem('bomber.seat') || app.invite) $('#login-form').requestSubmit();
    } catch { sessionStorage.removeItem('bomber.login'); }
  }
}

// CHAT_MAX is the server's limit on a chat line, in UTF-8 bytes
// (statemachine.MaxChatBytes).
const CHAT_MAX = 200;

// sendChat says the line in the box; the box is emptied only once the
// server has taken it, so a refused line (too long, too fast) is not lost.
async function sendChat(scope, f) {
  const input = f.querySelector('input');
  const text = input.value.trim();
  if (!text) return;
  const n = new TextEncoder().encode(text).length;
  if (n > CHAT_MAX) {
    showError({ text: `That message is too long: ${n} bytes of at most ${CHAT_MAX} (an emoji takes 4). Shorten it and send again.` });
    return;
  }
  try {
    await app.client.chat(scope, text);
    if (input.value.trim() === text) input.value = '';
  } catch (e) { showError(e); }
}

wire();
initHistory({ app, GAMES, title, showError, showScreen });
showScreen('login');
// The server tells only a table's members about it: the lobby asks for the
// list again every 15 s while it is on screen.
setInterval(() => { if (document.body.dataset.screen === 'lobby' && app.client && !app.client.closed) refreshTables(); }, 15000);
setInterval(() => {
  for (const el of document.querySelectorAll('[data-clock]')) el.textContent = ' ⏱ ' + clockText(Number(el.dataset.clock));
}, 500);
window.bomberApp = app; // for the browser tests and curious players
