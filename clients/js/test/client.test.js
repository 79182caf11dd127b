// BomberClient against a real bomberd (built and started by daemon.js), over
// TCP and over the WebSocket gateway.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  BomberClient, RequestError, T, ErrCode, OfferState, Scope, SeatFlag, SEAT_WATCHER,
  FEATURES_ALL, FEATURE_GAME_FACTS, GAME_TAKEBACK, GAME_DRAWS,
} from '../src/index.js';
import { startDaemon } from './daemon.js';
import { playRandom, dotsCandidates, checkersCandidates, legalCandidates, rng } from './bots.js';

let d;
const open = [];

before(async () => {
  assert.equal(typeof WebSocket, 'function', 'run with a global WebSocket (Node 22+, or node --experimental-websocket on Node 20)');
  // seats are held after a client closes (resume), so tables outlive tests
  d = await startDaemon({ BOMBER_TABLES_MAX_TABLES_PER_USER: '50', BOMBER_ACCOUNTS_REGISTRATION: 'open' });
});
after(async () => {
  for (const c of open) c.close();
  await d?.stop();
});

async function tcp(user) {
  const c = await BomberClient.connectTCP(d.tcp);
  open.push(c);
  if (user) await c.login(user, '123');
  return c;
}

async function websocket(user) {
  const c = await BomberClient.connectWebSocket(d.ws);
  open.push(c);
  if (user) await c.login(user, '123');
  return c;
}

function closeAll() {
  while (open.length) open.pop().close();
}

async function rejects(p, code, req) {
  await assert.rejects(p, (e) => {
    assert.ok(e instanceof RequestError, `${e}`);
    assert.equal(e.code, code, e.message);
    if (req !== undefined) assert.equal(e.req, req);
    return true;
  });
}

test('Hello is automatic; login fills the user list; online and offline events follow', async () => {
  const a = await tcp();
  assert.equal(a.welcome.version, 1);
  assert.equal(a.welcome.features & 3, 3);
  await a.login('Albert', '123');
  assert.equal(a.user, 'Albert');
  const online = a.next('online', (e) => e.user === 'Beth');
  const b = await websocket('Beth');
  assert.ok(b.users.has('Albert'), 'Beth sees Albert online');
  await online;
  assert.ok(a.users.has('Beth'));
  const offline = a.next('offline', (e) => e.user === 'Beth');
  b.close();
  await offline;
  assert.ok(!a.users.has('Beth'));
  closeAll();
});

test('a refused login rejects with the reply code', async () => {
  const a = await websocket();
  await rejects(a.login('Nobody', '123'), 0, T.Info);
  await rejects(a.login('Albert', 'wrong'), 3, T.Passwd);
  await a.login('Albert', '123');
  closeAll();
});

test('requests before login are refused with NotLoggedIn', async () => {
  const a = await tcp();
  await rejects(a.listTables(), ErrCode.NotLoggedIn, T.ListReq);
  closeAll();
});

test('the catalog lists the games with their options', async () => {
  const a = await tcp('Albert');
  const games = await a.catalog();
  const dots = games.find((g) => g.name === 'dots');
  assert.ok(dots, JSON.stringify(games.map((g) => g.name)));
  assert.deepEqual([dots.min, dots.max], [2, 4]);
  assert.deepEqual(dots.options.map((o) => [o.key, o.min, o.max]), [['rows', 3, 8], ['cols', 3, 8]]);
  for (const name of ['bomber', 'aeroplane', 'paisho']) assert.ok(games.some((g) => g.name === name), name);
  // each game's title and the offers it allows (the game facts this library asks for)
  assert.deepEqual(games.map((g) => [g.name, g.title, g.flags]), [
    ['bomber', 'Bomber', 0],
    ['checkers', 'Checkers', GAME_TAKEBACK | GAME_DRAWS],
    ['dots', 'Dots and Boxes', GAME_TAKEBACK],
    ['aeroplane', 'Aeroplane Chess', 0],
    ['paisho', 'Pai Sho', GAME_TAKEBACK | GAME_DRAWS],
  ]);
  // a client that does not ask for them reads the catalogue as before
  const old = await BomberClient.connectTCP({ ...d.tcp, features: FEATURES_ALL & ~FEATURE_GAME_FACTS });
  open.push(old);
  await old.login('Beth', '123');
  const plain = await old.catalog();
  assert.deepEqual(plain.map((g) => g.name), games.map((g) => g.name));
  assert.ok(plain.every((g) => g.title === undefined && g.flags === undefined), JSON.stringify(plain[0]));
  closeAll();
});

test('tables: create, list, join with a code, watch, chat, invite and refusals', async () => {
  const a = await tcp('Albert');
  const b = await websocket('Beth');
  const c = await tcp('Cindy');

  await rejects(a.createTable({ game: 'chess' }), ErrCode.UnknownGame, T.Create);
  await rejects(a.createTable({ game: 'dots', options: { rows: 99 } }), ErrCode.BadOption, T.Create);
  const t = await a.createTable({ game: 'dots', seats: 2, private: true, watch: 'code', options: { rows: 3, cols: 3 } });
  assert.equal(t.code.length, 6);
  assert.equal(a.seat, 0);
  assert.equal(a.table.id, t.id);
  assert.ok((await a.listTables()).some((x) => x.id === t.id), 'the creator lists its table');
  assert.ok(!(await b.listTables()).some((x) => x.id === t.id), 'a private table is not listed to others');

  await rejects(b.join(t.id, { code: 'WRONG1' }), ErrCode.NotAllowed, T.Join);
  await rejects(b.join(999999), ErrCode.NoTable, T.Join);
  const invited = c.next('invited');
  const joined = await b.join(t.id, { code: t.code });
  assert.deepEqual(joined.seats.map((s) => s.name), ['Albert', 'Beth']);
  assert.equal(b.seat, 1);
  await a.invite('Cindy');
  assert.deepEqual(await invited, { from: 'Albert', table: t.id, game: 'dots', code: t.code });
  await rejects(a.invite('Nobody'), ErrCode.NoUser, T.Invite);

  await rejects(c.watch(t.id), ErrCode.NotAllowed, T.Watch);
  await c.watch(t.id, { code: t.code });
  assert.equal(c.seat, SEAT_WATCHER);

  await rejects(a.moveText('a1-b1'), ErrCode.GameOver, T.MoveText); // seated, but no game running yet
  const heard = b.next('chat');
  const mine = await a.chat('table', 'good luck');
  assert.deepEqual(mine, { scope: Scope.Table, table: t.id, from: 'Albert', text: 'good luck' });
  assert.deepEqual(await heard, mine);
  // one room for players and watchers: the watcher's line reaches the
  // players, whichever table scope it names, and reads as the table's
  const bHears = b.next('chat', (m) => m.from === 'Cindy');
  await c.chat('table', 'hi');
  assert.deepEqual(await bHears, { scope: Scope.Table, table: t.id, from: 'Cindy', text: 'hi' });
  assert.equal((await c.chat('watchers', 'watching')).scope, Scope.Table);
  const lobby = c.next('chat', (m) => m.scope === Scope.Lobby);
  await b.chat('lobby', 'hello all');
  assert.equal((await lobby).from, 'Beth');

  await b.leave();
  assert.equal(b.seat, null);
  assert.equal(b.table, null);
  closeAll();
});

test('a whole game of Dots and Boxes, TCP against WebSocket, with a watcher', { timeout: 60000 }, async () => {
  const a = await tcp('Albert');
  const b = await websocket('Beth');
  const w = await websocket('Cindy');
  const t = await a.createTable({ game: 'dots', seats: 2, options: { rows: 4, cols: 4 } });
  await b.join(t.id);
  await w.watch(t.id);
  const seen = [];
  w.on('moved', (m) => seen.push(m.notation));
  const watcherEnd = w.next('gameEnd');
  const started = w.next('started');
  const games = [playRandom(a, dotsCandidates, rng(1)), playRandom(b, dotsCandidates, rng(2))];
  await Promise.all([a.ready(), b.ready()]);
  assert.equal((await started).table, t.id);
  const [endA, endB] = await Promise.all(games);
  assert.deepEqual(endA, endB);
  assert.deepEqual(await watcherEnd, endA);
  assert.equal(endA.scores.reduce((s, x) => s + x, 0), 9, 'all nine boxes scored');
  assert.equal(a.moves.length, 24, 'every line drawn');
  assert.deepEqual(seen, a.moves.map((m) => m.notation), 'the watcher saw every move');
  closeAll();
});

test('a whole game of Checkers with a declined draw offer', { timeout: 120000 }, async () => {
  const a = await websocket('Albert');
  const b = await tcp('Beth');
  const t = await a.createTable({ game: 'checkers', seats: 2 });
  await b.join(t.id);
  await Promise.all([a.ready(), b.ready()]);
  await a.requestView();
  const offered = b.next('offer');
  const proposal = await a.offer('draw', 'propose');
  assert.deepEqual(proposal, { what: 1, state: OfferState.Proposed, seat: 0 });
  assert.deepEqual(await offered, proposal);
  const declined = await b.offer('draw', 'decline');
  assert.equal(declined.state, OfferState.Declined);
  await rejects(b.offer('draw', 'accept'), ErrCode.NoOffer, T.Offer);
  const [endA, endB] = await Promise.all([playRandom(a, checkersCandidates, rng(3)), playRandom(b, checkersCandidates, rng(4))]);
  assert.deepEqual(endA, endB);
  assert.ok(endA.status === 1 || endA.status === 2, `status ${endA.status}`);
  assert.ok(a.moves.length > 10, `${a.moves.length} moves`);
  closeAll();
});

test('legal moves: the seat to move gets them with every update, the other seat and watchers never', { timeout: 120000 }, async () => {
  const a = await websocket('Albert');
  const b = await tcp('Beth');
  const w = await tcp('Cindy');
  const t = await a.createTable({ game: 'checkers', seats: 2 });
  await b.join(t.id);
  await w.watch(t.id);
  let watcherLegal = 0;
  w.on('legal', () => { watcherLegal++; });
  const first = a.next('legal');
  await Promise.all([a.ready(), b.ready()]);
  const l = await first;
  assert.equal(l.seat, 0);
  assert.deepEqual(l.moves.map((m) => m.arg.join('-')).sort(),
    ['10-14', '10-15', '11-15', '11-16', '12-16', '9-13', '9-14'], 'Black opens with seven moves');
  const moved = await a.move(l.moves.find((m) => m.arg.join('-') === '11-15'));
  assert.equal(moved.notation, '11-15');
  assert.equal(a.legal, null, 'after its move Albert has no legal moves');
  const v = await b.requestView();
  assert.equal(b.legal.seq, v.seq, 'Beth\'s list belongs to the View');
  assert.ok(b.legal.moves.length > 0);
  // the rest of the game played from the server's lists alone
  const [endA, endB] = await Promise.all([playRandom(a, legalCandidates, rng(5)), playRandom(b, legalCandidates, rng(6))]);
  assert.deepEqual(endA, endB);
  assert.equal(watcherLegal, 0, 'a watcher never gets legal moves');
  closeAll();
});

test('placement hints: a seat drawing its Bomber board asks where the next plane may go', async () => {
  const a = await websocket('Albert');
  const b = await tcp('Beth');
  const w = await tcp('Cindy');
  const t = await a.createTable({ game: 'bomber', seats: 2 });
  await b.join(t.id);
  await w.watch(t.id);
  await Promise.all([a.ready(), b.ready()]);
  await a.requestView();
  const first = await a.planeHints([]);
  assert.equal(first.size, 84, 'every head of the 168 planes');
  assert.deepEqual(first.get(2), [32], 'a head in row 0 points up only');
  assert.deepEqual(first.get(44).sort(), [14, 41, 47, 74]);
  assert.ok(!first.has(0), 'no plane has its head in a corner');
  const third = await a.planeHints([[2, 32], [7, 37]]);
  assert.ok(!third.has(2) && !third.has(12), 'cells the first planes cover take no head');
  assert.ok(third.has(52) && third.get(52).includes(82));
  const raw = await a.hints([0, 2, 3, 2]);
  assert.equal(raw.seat, 0);
  assert.ok(raw.moves.every((m) => m.kind === 1 && m.arg.length === 4));
  await rejects(a.planeHints([[2, 32], [12, 42]]), ErrCode.Illegal, T.HintReq);
  await rejects(w.planeHints([]), ErrCode.NotSeated, T.HintReq);
  await a.moveText('02-32 07-37 52-82');
  await rejects(a.planeHints([]), ErrCode.NotYourTurn, T.HintReq);
  assert.equal((await b.planeHints([])).size, 84, 'Beth, still drawing, gets her own');
  closeAll();
});

test('resigning ends the game for the other seat', async () => {
  const a = await tcp('Albert');
  const b = await websocket('Beth');
  const t = await a.createTable({ game: 'dots', seats: 2, options: { rows: 3, cols: 3 } });
  await b.join(t.id);
  await Promise.all([a.ready(), b.ready()]);
  const end = a.next('gameEnd');
  await b.resign();
  const e = await end;
  assert.deepEqual(e.winners, [0]);
  closeAll();
});

test('reference Bomber by invitation between the two transports', { timeout: 30000 }, async () => {
  const n = await websocket('Novate');
  const l = await tcp('Larry');
  const invite = l.next('recvInvite');
  n.sendInvite('Larry');
  assert.equal((await invite).from, 'Novate');
  const answer = n.next('inviteAnswer');
  l.answerInvite(true);
  assert.equal((await answer).accepted, true);
  const larry = [{ head: [0, 2], tail: [3, 2] }, { head: [0, 7], tail: [3, 7] }, { head: [5, 7], tail: [8, 7] }];
  const novate = [{ head: [0, 2], tail: [3, 2] }, { head: [0, 7], tail: [3, 7] }, { head: [5, 2], tail: [8, 2] }];
  const boards = [n.next('board'), l.next('board')];
  l.sendBoard(larry);
  n.sendBoard(novate);
  const [nb, lb] = await Promise.all(boards);
  assert.deepEqual(nb.planes, larry);
  assert.deepEqual(lb.planes, novate);
  const lost = l.next('gameOver');
  for (let i = 0; i < 3; i++) {
    const got = l.next('guess');
    n.guessPlane(larry[i].head, larry[i].tail);
    assert.deepEqual(await got, { kind: 'double', ...larry[i] });
    if (i === 2) break;
    const back = n.next('guess');
    l.guess(9, 9 - i);
    assert.deepEqual(await back, { kind: 'single', x: 9, y: 9 - i });
  }
  await lost;
  closeAll();
});

test('computer players: a bot takes the empty seat and the game is played to its end', { timeout: 60000 }, async () => {
  const a = await websocket('Albert');
  const t = await a.createTable({ game: 'dots', seats: 2, options: { rows: 3, cols: 3 } });
  await rejects(a.addBot(0), ErrCode.TableFull, T.Bot);
  const started = a.next('started');
  const game = playRandom(a, dotsCandidates, rng(5));
  await a.addBot(1);
  assert.equal((await started).table, t.id);
  assert.ok(a.table.seats[1].flags & SeatFlag.Bot, JSON.stringify(a.table.seats));
  const end = await game;
  assert.equal(end.scores.reduce((x, y) => x + y, 0), 4);
  assert.equal(a.moves.length, 12);
  assert.ok(a.moves.some((m) => m.seat === 1), 'the bot moved');
  closeAll();
});

test('resume: a dropped player takes its seat back and the game goes on', { timeout: 30000 }, async () => {
  const a = await tcp('Albert');
  const b = await websocket('Beth');
  const t = await a.createTable({ game: 'dots', seats: 2, options: { rows: 3, cols: 3 } });
  await b.join(t.id);
  assert.deepEqual([b.seated.table, b.seated.seat, b.seated.token.length], [t.id, 1, 16]);
  await Promise.all([a.ready(), b.ready()]);
  await a.moveText('a1-b1');
  await b.requestView();
  const { seated, lastSeq } = b;
  assert.equal(lastSeq, 1);
  const away = a.next('away');
  b.close(); // the page is reloaded
  const gone = await away;
  assert.equal(gone.seat, 1);
  assert.ok(gone.grace > 0, `grace ${gone.grace}`);
  const back = a.next('away', (e) => e.grace === 0);
  const b2 = await websocket('Beth');
  await rejects(b2.resume({ ...seated, token: new Uint8Array(16), lastSeq }), ErrCode.NotAllowed, T.Resume);
  const table = await b2.resume({ ...seated, lastSeq });
  assert.equal(table.id, t.id);
  assert.equal(b2.seat, 1);
  await back;
  const view = await b2.requestView();
  assert.deepEqual(view.toMove, [1]);
  await b2.moveText('a1-a2');
  const end = a.next('gameEnd');
  await b2.resign();
  assert.deepEqual((await end).winners, [0]);
  closeAll();
});

test('signUp makes an account to log in with, over TCP and WebSocket; a look-alike name is taken', async () => {
  const a = await tcp();
  assert.equal(await a.signUp('Js_Sign', 'js-password'), true);
  await a.login('Js_Sign', 'js-password');
  assert.equal(a.user, 'Js_Sign');
  await assert.rejects(a.signUp('Other1', 'js-password'), /before logging in/);
  const b = await websocket();
  await assert.rejects(b.signUp('js-s1gn', 'js-password'), (e) => {
    assert.ok(e instanceof RequestError, `${e}`);
    assert.equal(e.code, ErrCode.NameTaken);
    return true;
  });
  await assert.rejects(b.signUp('Js2', 'short'), (e) => e.code === ErrCode.BadPassword);
  closeAll();
});

test('Play now: two players seeking the same game and time control are paired at one table, whose game starts', async () => {
  const a = await tcp('Albert');
  const b = await websocket('Beth');
  const first = await a.seek('dots', { clock: { 'clock.total': 120 } });
  assert.equal(first.state, 0);
  assert.equal(first.rating, 1500);
  assert.ok(first.low < 1500 && first.high > 1500, `range ${first.low}..${first.high}`);
  assert.deepEqual(a.seeking, first);
  const paired = [a.next('seeking', (m) => m.state === 1), b.next('seeking', (m) => m.state === 1)];
  const started = [a.next('started'), b.next('started')];
  await b.seek('dots', { clock: { 'clock.total': 120 } });
  await Promise.all(paired);
  const [sa, sb] = await Promise.all(started);
  assert.equal(sa.table, sb.table);
  assert.equal(a.tableId, b.tableId);
  assert.equal(a.seeking, null);
  await a.resign();
  await a.leave();
  await b.leave();
  // a seek can be cancelled
  await a.seek('checkers', { rated: true });
  const c = await a.cancelSeek();
  assert.equal(c.state, 2);
  await rejects(a.cancelSeek(), ErrCode.BadRequest, T.Seek);
  closeAll();
});

test('profiles, histories, replay and account care: a rated game between two new accounts', { timeout: 60000 }, async () => {
  const a = await tcp();
  await a.signUp('Js_Hist_a', 'js-password');
  await a.login('Js_Hist_a', 'js-password');
  const b = await websocket();
  await b.signUp('Js_Hist_b', 'js-password');
  await b.login('Js_Hist_b', 'js-password');
  const t = await a.createTable({ game: 'checkers', seats: 2, options: { rated: 'true' } });
  await b.join(t.id);
  await Promise.all([a.ready(), b.ready()]);
  await a.moveText('11-15');
  const end = b.next('gameEnd');
  await a.resign();
  await end;
  // the game is stored a moment after it ends
  let games = [];
  for (let i = 0; games.length === 0 && i < 100; i++) {
    games = await b.games();
    if (games.length === 0) await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(games.length, 1);
  const g = games[0];
  assert.equal(g.game, 'checkers');
  assert.ok(g.rated);
  assert.ok(g.change > 0, `the winner's change: ${g.change}`);
  assert.deepEqual(g.opponents, ['Js_Hist_a']);
  const pa = await b.profile('Js_Hist_a');
  const pb = await b.profile();
  assert.ok(pa.ratings[0].rating < 1500 && pb.ratings[0].rating > 1500, `${JSON.stringify([pa, pb])}`);
  assert.ok(pa.ratings[0].provisional);
  assert.equal(pb.games, 1);
  // requests in flight together each get their own rows
  const [both, mine] = await Promise.all([b.ratingHistory(), b.games(), b.profile()]).then(([h, gs]) => [h, gs]);
  assert.ok(both.every((r) => r.gameID === g.id) && mine.every((x) => Array.isArray(x.opponents)), JSON.stringify([both, mine]));
  const hist = await a.ratingHistory('', 'checkers');
  assert.equal(hist[0].gameID, g.id);
  assert.equal(hist[0].before, 1500);
  assert.deepEqual(await a.leaderboard('checkers'), []); // provisional ratings stay off it
  await rejects(a.profile('Nobody_here'), ErrCode.NoUser, T.HistoryReq);

  const start = await a.replay(g.id, 0);
  const first = await a.replay(g.id, 1);
  assert.equal(start.replay.plies, 2);
  assert.equal(first.replay.notation, '11-15');
  assert.equal(first.replay.seat, 0);
  assert.equal(first.view.seq, 1);
  assert.notDeepEqual(first.view.cells, start.view.cells);
  await rejects(a.replay(999999, 0), ErrCode.NoTable, T.ReplayReq);

  await rejects(a.changePassword('wrong-password', 'js-password2'), ErrCode.WrongPassword, T.Account);
  assert.equal(await a.changePassword('js-password', 'js-password2'), true);
  const closed = a.next('close');
  assert.equal(await a.deleteAccount('js-password2'), true);
  await closed;
  const after = await b.games();
  assert.deepEqual(after[0].opponents, ['(deleted)']);
  closeAll();
});
