package statemachine

import (
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
)

// Create flags and watch policies (docs/protocol.md, Create).
const (
	flagPrivate = 1 << 0
	watchAnyone = 0
	watchCode   = 1
	watchNobody = 2
)

// codeAlphabet: join codes avoid letters and digits people confuse (0/O, 1/I/L).
const codeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// seatFlags for Table messages.
const (
	seatReady = 1
	seatBot   = 2
	seatGone  = 4
)

// create: s opens a table and sits at seat 0.
func (h *Hub) create(now int64, s *session, body []byte) {
	m, err := segment.DecodeCreateMsg(body)
	if err != nil {
		h.fail(s, segment.Create, segment.ErrCodeBadRequest, "malformed Create")
		return
	}
	if s.table != nil {
		h.fail(s, segment.Create, segment.ErrCodeAtTable, "already at a table")
		return
	}
	e := h.games[m.Game]
	if e == nil {
		h.fail(s, segment.Create, segment.ErrCodeUnknownGame, "no such game")
		return
	}
	n := int(m.Seats)
	if n < e.Spec.MinPlayers || n > e.Spec.MaxPlayers {
		h.fail(s, segment.Create, segment.ErrCodeBadOption, fmt.Sprintf("%s takes %d-%d seats", e.Spec.Name, e.Spec.MinPlayers, e.Spec.MaxPlayers))
		return
	}
	watch := (m.Flags >> 1) & 3
	if m.Flags&^7 != 0 || watch > watchNobody {
		h.fail(s, segment.Create, segment.ErrCodeBadOption, "unknown flags")
		return
	}
	opts := make(rules.Options, len(m.Options))
	for _, kv := range m.Options {
		opts[kv.Key] = kv.Value
	}
	clock, gameOpts, err := parseClock(opts)
	if err != nil {
		h.fail(s, segment.Create, segment.ErrCodeBadOption, refusal(err))
		return
	}
	// the rules validate the options: a game made now and thrown away
	if _, err := e.Spec.New(n, gameOpts, record.Rand([32]byte{})); err != nil {
		h.fail(s, segment.Create, segment.ErrCodeBadOption, refusal(err))
		return
	}
	if len(h.tables) >= h.cfg.MaxTables || h.createdBy(s.name) >= h.cfg.MaxTablesPerUser {
		h.fail(s, segment.Create, segment.ErrCodeTooManyTables, "too many tables")
		return
	}
	t := &table{kind: e, opts: opts, seats: make([]seatSlot, n), private: m.Flags&flagPrivate != 0, watch: watch, clock: clock}
	if t.private || watch == watchCode {
		t.code = h.newCode()
		h.codes[t.code] = t
	}
	h.openTable(t, s)
	h.sit(s, t, 0)
}

// createdBy counts the open tables name created.
func (h *Hub) createdBy(name string) int {
	n := 0
	for _, t := range h.tables {
		if t.creator == name {
			n++
		}
	}
	return n
}

// newCode draws an unused 6-character join code from the hub's generator.
func (h *Hub) newCode() string {
	for {
		var b [6]byte
		h.entropy(b[:])
		for i := range b {
			b[i] = codeAlphabet[int(b[i])%len(codeAlphabet)]
		}
		if c := string(b[:]); h.codes[c] == nil {
			return c
		}
	}
}

// entropy fills b from the hub's generator (seeded by InSeed inputs).
func (h *Hub) entropy(b []byte) {
	_, _ = h.rng.Read(b) // ChaCha8 never fails
}

// maxReason is the most bytes of text an Error message carries.
const maxReason = 60

// trim cuts a reason to what an Error message carries: at the end of a
// word, marked with an ellipsis.
func trim(s string) string {
	if len(s) <= maxReason {
		return s
	}
	const more = "…"
	cut := strings.LastIndexByte(s[:maxReason-len(more)+1], ' ')
	if cut <= 0 {
		for cut = maxReason - len(more); cut > 0 && !utf8.RuneStart(s[cut]); cut-- {
		}
	}
	return s[:cut] + more
}

// refusal is the reason a player reads when the rules refuse something
// (err): what they say is wrong, without the name of the game's package
// or of the kind of refusal, which the Error's code says ("a1-b1 is
// already drawn", not "dots: illegal move: a1-b1 is already drawn").
func refusal(err error) string {
	text := err.Error()
	for _, kind := range []error{rules.ErrIllegal, rules.ErrNotYourTurn, rules.ErrGameOver, rules.ErrNotation, rules.ErrOption, rules.ErrPlayers} {
		if i := strings.Index(text, kind.Error()+": "); i >= 0 {
			text = text[i+len(kind.Error())+2:]
			break
		}
	}
	return trim(text)
}

// sit seats s at t's seat i and tells the table.
func (h *Hub) sit(s *session, t *table, i int) {
	if !h.seatTo(t, i, lifePerson, s) {
		return
	}
	if s.has(segment.FeatureResume) {
		h.tableEntropy(t, t.seats[i].token[:])
	}
	h.cancelSeek(s)
	s.table, s.seat, s.state = t, rules.Player(i), AtTable
	h.sendMsg(s, segment.Joined, segment.JoinedBody{Table: t.id, Seat: uint8(i)}.Append(h.body()))
	h.sendSeated(s, t, i)
	h.broadcastTable(t)
	h.sendChatHistory(s, &t.chat, 1)
}

// list sends the open tables s may see, then Ack.
func (h *Hub) list(s *session) {
	ids := make([]uint32, 0, len(h.tables))
	for id, t := range h.tables {
		if !t.private || t == s.table {
			ids = append(ids, id)
		}
	}
	sortIDs(ids)
	for _, id := range ids {
		h.sendTable(s, h.tables[id])
	}
	h.sendMsg(s, segment.Ack, segment.AckBody{Req: segment.ListReq}.Append(h.body()))
}

// sendTable sends t's state to s (the join code only to members and the creator).
func (h *Hub) sendTable(s *session, t *table) {
	b := segment.TableBody{ID: t.id, Game: t.kind.Spec.Name, Phase: t.phase, Watchers: uint16(len(t.watchers))}
	if t.private {
		b.Flags |= flagPrivate
	}
	b.Flags |= t.watch << 1
	if s.table == t || s.name == t.creator {
		b.Code = t.code
	}
	for _, sl := range t.seats {
		var f uint8
		if sl.ready {
			f |= seatReady
		}
		if sl.gone || sl.away {
			f |= seatGone
		}
		if sl.bot {
			f |= seatBot
		}
		b.Seats = append(b.Seats, segment.SeatInfo{Name: sl.name, Flags: f})
	}
	for _, k := range sortedKeys(t.opts) {
		b.Options = append(b.Options, segment.KV{Key: k, Value: t.opts[k]})
	}
	h.sendMsg(s, segment.TableInfo, b.Append(h.body()))
}

// broadcastTable sends t's state to everyone at it.
func (h *Hub) broadcastTable(t *table) {
	for _, sl := range t.seats {
		if sl.s != nil {
			h.sendTable(sl.s, t)
		}
	}
	for _, w := range t.watchers {
		h.sendTable(w, t)
	}
}

// findTable resolves a Join or Watch target: by id, and the code must match
// for a private table (or a code-only watch policy when watching).
func (h *Hub) findTable(id uint32) *table {
	t := h.tables[id]
	if t == nil || t.phase == phaseOver {
		return nil
	}
	return t
}

// join: s takes a seat.
func (h *Hub) join(now int64, s *session, body []byte) {
	m, err := segment.DecodeJoinMsg(body)
	if err != nil {
		h.fail(s, segment.Join, segment.ErrCodeBadRequest, "malformed Join")
		return
	}
	if s.table != nil {
		h.fail(s, segment.Join, segment.ErrCodeAtTable, "already at a table")
		return
	}
	t := h.findTable(m.Table)
	if t == nil && m.Table == 0 && m.Code != "" {
		t = h.codes[m.Code]
	}
	if t == nil {
		h.fail(s, segment.Join, segment.ErrCodeNoTable, "no such table")
		return
	}
	if t.private && m.Code != t.code {
		h.fail(s, segment.Join, segment.ErrCodeNotAllowed, "wrong join code")
		return
	}
	if t.phase != phaseWaiting {
		h.fail(s, segment.Join, segment.ErrCodeTableFull, "game already started")
		return
	}
	i := int(m.Seat)
	if m.Seat == 0xFF {
		i = -1
		for j, sl := range t.seats {
			if sl.life() == lifeEmpty {
				i = j
				break
			}
		}
		if i < 0 {
			h.fail(s, segment.Join, segment.ErrCodeTableFull, "no free seat")
			return
		}
	}
	if i >= len(t.seats) {
		h.fail(s, segment.Join, segment.ErrCodeBadRequest, "no such seat")
		return
	}
	if t.seats[i].life() != lifeEmpty {
		h.fail(s, segment.Join, segment.ErrCodeTableFull, "seat taken")
		return
	}
	h.sit(s, t, i)
}

// watchTable: s watches a table.
func (h *Hub) watchTable(now int64, s *session, body []byte) {
	m, err := segment.DecodeWatchMsg(body)
	if err != nil {
		h.fail(s, segment.Watch, segment.ErrCodeBadRequest, "malformed Watch")
		return
	}
	if s.table != nil {
		h.fail(s, segment.Watch, segment.ErrCodeAtTable, "already at a table")
		return
	}
	t := h.findTable(m.Table)
	if t == nil && m.Table == 0 && m.Code != "" {
		t = h.codes[m.Code]
	}
	switch {
	case t == nil:
		h.fail(s, segment.Watch, segment.ErrCodeNoTable, "no such table")
		return
	case t.watch == watchNobody:
		h.fail(s, segment.Watch, segment.ErrCodeNotAllowed, "this table cannot be watched")
		return
	case (t.private || t.watch == watchCode) && m.Code != t.code:
		h.fail(s, segment.Watch, segment.ErrCodeNotAllowed, "wrong join code")
		return
	case len(t.watchers) >= h.cfg.MaxWatchers:
		h.fail(s, segment.Watch, segment.ErrCodeNotAllowed, "too many watchers")
		return
	}
	t.watchers = append(t.watchers, s)
	h.cancelSeek(s)
	s.table, s.seat, s.state = t, rules.Spectator, AtTable
	h.stats.Watches++
	h.sendMsg(s, segment.Joined, segment.JoinedBody{Table: t.id, Seat: 0xFF}.Append(h.body()))
	h.broadcastTable(t)
	if t.game != nil {
		h.sendStarted(s, t)
		h.sendMovesSince(s, t, 0) // the moves so far, so a watcher's list is whole
		h.sendView(s, t)
	}
	room, scope := t.watchRoom()
	h.sendChatHistory(s, room, scope)
}

// leaveTable takes s away from its table: a watcher stops watching; a player
// of a waiting table frees the seat; a player of a running game resigns
// through the rules (closed: it went offline). The table closes when no
// player is left at it; its watchers are told.
func (h *Hub) leaveTable(now int64, s *session, closed bool) {
	t, seat := s.table, s.seat
	if t == nil {
		return
	}
	if s.seat == rules.Spectator {
		for i, w := range t.watchers {
			if w == s {
				t.watchers = append(t.watchers[:i], t.watchers[i+1:]...)
				break
			}
		}
	} else if occupant(s) != t {
		// not its seat (any more): the seat stays as it is
	} else if closed && s.has(segment.FeatureResume) {
		h.hold(now, s, t) // its player may come back with the token
	} else {
		if t.phase == phasePlaying {
			h.seatTo(t, int(s.seat), lifeGone, nil)
			h.resignSeat(now, t, s.seat)
		} else {
			h.seatTo(t, int(s.seat), lifeEmpty, nil)
			for i := range t.seats {
				t.seats[i].ready = t.seats[i].bot // the ready check starts over
			}
			h.offerAfterSeat(now, t, s.seat)
		}
	}
	s.table, s.seat = nil, 0
	if s.state == AtTable {
		s.state = ServerStandBy
	}
	if !closed {
		h.sendMsg(s, segment.Joined, segment.JoinedBody{Table: 0, Seat: 0xFF}.Append(h.body()))
	}
	if t.phase != phaseOver {
		if h.empty(t) {
			h.closeTable(now, t, seat)
		} else {
			h.broadcastTable(t)
		}
	}
}

// empty reports whether no person sits at t or has a seat held there
// (watchers and computer players alone keep no table open).
func (h *Hub) empty(t *table) bool { return t.humans() == 0 }

// closeTable forgets t, whose last person (at seat leaver) has gone; a
// running game ends abandoned by that seat.
func (h *Hub) closeTable(now int64, t *table, leaver rules.Player) {
	h.finish(now, t, record.Abandoned, leaver)
	t.phase = phaseOver
	for _, w := range t.watchers {
		w.table = nil
		w.state = ServerStandBy
		h.sendMsg(w, segment.Joined, segment.JoinedBody{Table: 0, Seat: 0xFF}.Append(h.body()))
	}
	t.watchers = nil
	for i := range t.seats {
		if p := t.seats[i].s; p != nil {
			p.table, p.state = nil, ServerStandBy
			h.sendMsg(p, segment.Joined, segment.JoinedBody{Table: 0, Seat: 0xFF}.Append(h.body()))
		}
		t.seats[i].s = nil
	}
	delete(h.tables, t.id)
	if t.code != "" {
		delete(h.codes, t.code)
	}
	if t.clock != nil { // its clocks give time nothing more to do (NextDeadline)
		h.clockTables = slices.DeleteFunc(h.clockTables, func(id uint32) bool { return id == t.id })
	}
}

// inviteToTable: s invites a user to the table it sits at.
func (h *Hub) inviteToTable(s *session, body []byte) {
	r := segment.NewReader(body)
	name := r.Str()
	if r.Done() != nil {
		h.fail(s, segment.Invite, segment.ErrCodeBadRequest, "malformed Invite")
		return
	}
	t := occupant(s)
	if t == nil {
		h.fail(s, segment.Invite, segment.ErrCodeNotSeated, "sit at a table first")
		return
	}
	u := h.users[name]
	if u == nil || u.x == nil {
		h.fail(s, segment.Invite, segment.ErrCodeNoUser, "no such user with tables online")
		return
	}
	h.sendMsg(u, segment.Invited, segment.InvitedBody{From: s.name, Table: t.id, Game: t.kind.Spec.Name, Code: t.code}.Append(h.body()))
}

// ready_: a seated player is ready; when every seat is filled and ready, the
// game starts. With the start=host option the host's Ready starts it once
// every seat is filled, whoever else is ready; before that it only marks the
// host ready, so the host presses again when the last seat fills.
func (h *Hub) ready_(now int64, s *session) {
	t := occupant(s)
	if t == nil {
		h.fail(s, segment.Ready, segment.ErrCodeNotSeated, "sit at a table first")
		return
	}
	if t.phase != phaseWaiting {
		h.fail(s, segment.Ready, segment.ErrCodeGameOver, "game already running")
		return
	}
	t.seats[s.seat].ready = true
	host := t.hostStarts()
	for _, sl := range t.seats {
		if sl.s == nil && !sl.bot || !sl.ready && !host {
			h.broadcastTable(t)
			return
		}
	}
	if host && int(s.seat) != t.host() {
		h.broadcastTable(t)
		return
	}
	h.startTable(now, t)
}

// startTable draws the seed, starts the game and tells everyone at t.
func (h *Hub) startTable(now int64, t *table) {
	h.tableEntropy(t, t.seed[:])
	g, err := t.newGame()
	if err != nil {
		panic("statemachine: options validated at create were refused: " + err.Error())
	}
	t.game, t.phase, t.start, t.seq, t.offer = g, phasePlaying, now, 0, nil
	t.moves = make([]playedMove, 0, 64)
	for i := range t.seats {
		sl := &t.seats[i]
		sl.ready, sl.auto, sl.asked, sl.ticking, sl.expired = sl.bot, false, 0, false, false
		sl.took = false // the computer has played no seat for its person in this game yet
		if t.clock != nil {
			t.clock.reset(sl)
		}
	}
	h.stats.GamesStarted++
	h.broadcastTable(t)
	h.each(t, func(p *session) {
		h.sendStarted(p, t)
		h.sendView(p, t)
	})
	h.startClock(now, t)
	h.sendClocks(now, t)
	h.askBots(t)
}

// each calls f for every player and watcher at t.
func (h *Hub) each(t *table, f func(*session)) {
	for _, sl := range t.seats {
		if sl.s != nil {
			f(sl.s)
		}
	}
	for _, w := range t.watchers {
		f(w)
	}
}

func (h *Hub) sendStarted(s *session, t *table) {
	h.sendMsg(s, segment.Started, segment.StartedBody{Table: t.id, Seats: uint8(len(t.seats)), SeedCommit: record.Commit(t.seed)}.Append(h.body()))
}

// sendView sends s what its seat (or a watcher) may see of t's game.
func (h *Hub) sendView(s *session, t *table) {
	h.sendMsg(s, segment.ViewMsg, viewBody(t.game.Observe(s.seat), t.seq).Append(h.body()))
	h.sendLegal(s, t)
}

// viewBody is View's body for the rules' view v of update seq.
func viewBody(v rules.View, seq uint32) segment.ViewBody {
	b := segment.ViewBody{Seq: seq, Viewer: int8(v.Viewer), Status: uint8(v.Status), Cells: v.Cells, Extra: v.Extra}
	for _, p := range v.ToMove {
		b.ToMove = append(b.ToMove, uint8(p))
	}
	for _, sc := range v.Scores {
		b.Scores = append(b.Scores, int16(sc))
	}
	return b
}

// moveMsg: a move in binary form.
func (h *Hub) moveMsg(now int64, s *session, body []byte) {
	m, err := segment.DecodeMoveMsg(body)
	if err != nil {
		h.fail(s, segment.Move, segment.ErrCodeBadRequest, "malformed Move")
		return
	}
	h.tableMove(now, s, segment.Move, rules.Move{Kind: m.Kind, Len: m.Len, Arg: m.Arg})
}

// moveText: a move in the game's notation.
func (h *Hub) moveText(now int64, s *session, body []byte) {
	if !h.playing(s, segment.MoveText) {
		return
	}
	t := s.table
	m, err := t.game.ParseMove(s.seat, string(body))
	if err != nil {
		h.fail(s, segment.MoveText, segment.ErrCodeBadNotation, refusal(err))
		return
	}
	h.tableMove(now, s, segment.MoveText, m)
}

// tableMove plays m for s's seat and tells everyone at the table what they
// may see of it.
func (h *Hub) tableMove(now int64, s *session, req segment.Type, m rules.Move) {
	t := s.table
	if !h.playing(s, req) {
		return
	}
	if m.Kind == rules.KindResign {
		h.resign(now, s)
		return
	}
	if err := h.play(now, t, s.seat, m); err != nil {
		h.fail(s, req, moveError(err), refusal(err))
		return
	}
	h.stats.TableMoves++
	h.afterMove(now, t, s.seat, m)
}

// playing reports whether s may play at its table now; if not, s is told
// why in answer to req: it occupies no seat (NotSeated), or it sits but no game
// runs there, before the first or after one ended (GameOver).
func (h *Hub) playing(s *session, req segment.Type) bool {
	t := occupant(s)
	switch {
	case t == nil:
		h.fail(s, req, segment.ErrCodeNotSeated, "not playing")
	case t.game == nil || t.phase != phasePlaying:
		h.fail(s, req, segment.ErrCodeGameOver, "no game running")
	default:
		return true
	}
	return false
}

// moveError maps a rules error onto an error code.
func moveError(err error) uint8 {
	switch {
	case errorsIs(err, rules.ErrNotYourTurn):
		return segment.ErrCodeNotYourTurn
	case errorsIs(err, rules.ErrGameOver):
		return segment.ErrCodeGameOver
	}
	return segment.ErrCodeIllegal
}

// afterMove relays an accepted move of seat p (its steps are in h.steps):
// the move itself, unless it is secret; each step to those who may see it;
// a commitment to a secret move; and the end of the game.
func (h *Hub) afterMove(now int64, t *table, p rules.Player, m rules.Move) {
	t.offer = nil // a move withdraws any standing offer
	secret := false
	if sm, ok := t.game.(rules.SecretMoves); ok {
		secret = sm.SecretMove(m)
	}
	text := t.game.FormatMove(m)
	// every recipient gets the same bytes of the Moved and of each step it
	// may see: each is encoded and cut into segments once, not once each
	h.relay, h.relayEnds = h.relay[:0], h.relayEnds[:0]
	moved := h.cut(segment.Moved, segment.MovedBody{Seq: t.seq, Seat: uint8(p), Kind: m.Kind, Len: m.Len, Arg: m.Arg, Notation: text}.Append(h.body()))
	steps := h.steps
	for _, st := range steps {
		h.cut(segment.StepMsg, segment.StepBody{Seq: t.seq, Kind: st.Kind, Player: int8(st.Player), A: st.A, B: st.B, C: st.C}.Append(h.body()))
	}
	h.each(t, func(r *session) {
		if !secret || r.seat == p {
			h.sendCut(r, moved)
		}
		for i, st := range steps {
			if st.VisibleTo(r.seat) {
				h.sendCut(r, moved+1+i)
			}
		}
	})
	if secret {
		c := segment.CommitBody{Table: t.id, Seat: uint8(p), Hash: commitMove(t.seed, p, text)}
		h.each(t, func(r *session) { h.sendMsg(r, segment.Commit, c.Append(h.body())) })
	}
	if o := t.game.Outcome(); o.Status != rules.Running {
		reason := record.Won
		if o.Status == rules.Drawn {
			reason = record.Drawn
		}
		h.endTable(now, t, reason, rules.Spectator)
		return
	}
	if sl := &t.seats[p]; sl.auto && !slicesContains(t.game.ToMove(h.toMove[:0]), p) {
		sl.auto = false // the timeout action is done: the turn passed
	}
	h.clocksAfterMove(now, t, p)
	h.sendLegalToMove(t)
	h.askBots(t)
}

func slicesContains(ps []rules.Player, p rules.Player) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}

// commitMove is the commitment to seat p's secret move text: SHA-256 of a
// salt derived from the seed and the seat, then the text. Once the record
// reveals the seed and the move, anyone can check it.
func commitMove(seed [32]byte, p rules.Player, text string) [32]byte {
	mac := hmac.New(sha256.New, seed[:])
	mac.Write([]byte{'b', 'o', 'a', 'r', 'd', byte(p)})
	salt := mac.Sum(nil)
	sum := sha256.New()
	sum.Write(salt)
	sum.Write([]byte(text))
	var out [32]byte
	sum.Sum(out[:0])
	return out
}

// resign: s gives up (in a game of three or four, leaves it; the rules decide).
func (h *Hub) resign(now int64, s *session) {
	t := s.table
	if !h.playing(s, segment.Resign) {
		return
	}
	if err := h.resignSeat(now, t, s.seat); err != nil {
		h.fail(s, segment.Resign, moveError(err), refusal(err))
	}
}

// resignSeat plays KindResign for seat p through the rules.
func (h *Hub) resignSeat(now int64, t *table, p rules.Player) error {
	m := rules.Move{Kind: rules.KindResign}
	if err := h.play(now, t, p, m); err != nil {
		return err // already out of the game
	}
	h.afterMove(now, t, p, m)
	return nil
}

// sendMovesSince sends s, coming to t (a watcher, or a player resuming its
// seat), the moves from number from+1 on, each with the steps it caused, as
// those at the table saw them: what s's seat (or a watcher) may see, so
// another seat's secret move (a Bomber board) stays hidden while the game
// runs and hidden steps stay hidden. The steps are not kept, so the game is
// replayed from its seed, as a takeback does.
func (h *Hub) sendMovesSince(s *session, t *table, from int) {
	if from >= len(t.moves) {
		return
	}
	g, err := t.newGame()
	if err != nil {
		g = nil // cannot happen: the game started with these; send the moves alone
	}
	sm, _ := t.game.(rules.SecretMoves)
	for i, pm := range t.moves {
		steps := h.steps[:0]
		if g != nil {
			if steps, err = g.Play(pm.seat, pm.move, steps); err != nil {
				g, steps = nil, steps[:0] // cannot happen either: the moves were played so
			}
		}
		if i < from {
			continue
		}
		if !(t.phase == phasePlaying && sm != nil && sm.SecretMove(pm.move) && pm.seat != s.seat) {
			b := segment.MovedBody{Seq: uint32(i + 1), Seat: uint8(pm.seat), Kind: pm.move.Kind, Len: pm.move.Len, Arg: pm.move.Arg, Notation: t.game.FormatMove(pm.move)}
			h.sendMsg(s, segment.Moved, b.Append(h.body()))
		}
		for _, st := range steps {
			if st.VisibleTo(s.seat) {
				h.sendMsg(s, segment.StepMsg, segment.StepBody{Seq: uint32(i + 1), Kind: st.Kind, Player: int8(st.Player), A: st.A, B: st.B, C: st.C}.Append(h.body()))
			}
		}
	}
	h.steps = h.steps[:0]
}

// revealSecrets shows everyone at t the secret moves they were not shown
// (Bomber boards), right after GameEnd: with the seed it carries,
// anyone can check them against the commitments sent when they were made.
func (h *Hub) revealSecrets(t *table) {
	sm, ok := t.game.(rules.SecretMoves)
	if !ok {
		return
	}
	for i, pm := range t.moves {
		if !sm.SecretMove(pm.move) {
			continue
		}
		b := segment.MovedBody{Seq: uint32(i + 1), Seat: uint8(pm.seat), Kind: pm.move.Kind, Len: pm.move.Len, Arg: pm.move.Arg, Notation: t.game.FormatMove(pm.move)}
		h.each(t, func(r *session) {
			if r.seat != pm.seat {
				h.sendMsg(r, segment.Moved, b.Append(h.body()))
			}
		})
	}
}

// extEnd: t's game is over (or abandoned); everyone at it is told the outcome
// and the seed, and the table goes back to waiting with the same players for
// a rematch.
func (h *Hub) extEnd(now int64, t *table, reason record.Reason) {
	o := outcomeOf(t, reason)
	text := o.Reason // the rules' own words, else why it ended
	if text == "" {
		text = reason.String()
	}
	b := segment.GameEndBody{Table: t.id, Status: uint8(o.Status), Reason: trim(text), Seed: t.seed}
	for _, w := range o.Winners {
		b.Winners = append(b.Winners, uint8(w))
	}
	for _, sc := range t.game.Scores(nil) {
		b.Scores = append(b.Scores, int16(sc))
	}
	h.each(t, func(r *session) { h.sendMsg(r, segment.GameEnd, b.Append(h.body())) })
	h.revealSecrets(t)
	t.phase, t.offer = phaseWaiting, nil
	for i := range t.seats {
		sl := &t.seats[i]
		sl.ready, sl.ticking, sl.auto = sl.bot && !sl.took, false, false
		if l := sl.life(); l == lifeGone || l == lifeBotHolding {
			h.seatTo(t, i, lifeEmpty, nil) // a seat whose player left, or that the computer only kept for it
		}
	}
	if h.empty(t) {
		h.closeTable(now, t, rules.Spectator) // recorded already
		return
	}
	h.broadcastTable(t)
}
