package statemachine

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/segment"
)

// Seats that survive (docs/protocol.md section 9): computer players in
// seats, seats held through a dropped connection, and turn clocks.

// BotRequest asks the shell for the move of the computer player in a seat.
// The shell runs the game's bot on its worker pool and answers with
// Hub.BotMove; an answer that comes too late (the table moved on or
// closed) is ignored.
type BotRequest struct {
	Table uint32
	Seat  rules.Player
	Seq   uint32     // the table's update sequence the move answers
	Game  string     // the game's Spec name
	View  rules.Seat // all the seat may know: the bot sees nothing else
	Seed  uint64     // for the bot's own choices, from the table's seed
}

// BotAnswer is a bot's move, in the game's notation (what transcripts
// record, so captured sessions with bots replay exactly).
type BotAnswer struct {
	Table uint32
	Seat  rules.Player
	Seq   uint32
	Move  string
}

// clockSpec is a table's time control, from its "clock.*" options.
type clockSpec struct {
	move  int64 // time per move, ns (0: none)
	total int64 // time per player for the game, ns (0: none)
	inc   int64 // added to a player's total after each of its moves
	pause bool  // stop a seat's clock while it is held for its player
}

// maxLeft is the most time a seat may have left: the largest the Clock
// message's i32 milliseconds carry (about 24.8 days). An increment adds
// only up to it, so no time control can make the wire value overflow.
const maxLeft = math.MaxInt32 * int64(time.Millisecond)

// pauseBudget is how long in all a seat's clock may stand paused (clock.pause)
// while the seat is held for its player, per game. Past it the clock runs
// while the seat is held, so dropping and resuming cannot stop it for ever.
const pauseBudget = 2 * int64(time.Minute)

// Clock option keys, taken out of the options before the game sees them.
const (
	clockMove  = "clock.move"
	clockTotal = "clock.total"
	clockInc   = "clock.increment"
	clockPause = "clock.pause"
)

// parseClock takes the clock keys out of opts.
func parseClock(opts rules.Options) (*clockSpec, rules.Options, error) {
	game := rules.Options{}
	var c clockSpec
	any := false
	for k, v := range opts {
		switch k {
		case clockMove, clockTotal, clockInc:
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 24*3600 {
				return nil, nil, fmt.Errorf("%s=%q: want seconds from 0 to 86400", k, v)
			}
			d := int64(n) * int64(time.Second)
			switch k {
			case clockMove:
				c.move = d
			case clockTotal:
				c.total = d
			default:
				c.inc = d
			}
			any = true
		case clockPause:
			b, err := strconv.ParseBool(v)
			if err != nil {
				return nil, nil, fmt.Errorf("%s=%q: want true or false", k, v)
			}
			c.pause = b
		default:
			game[k] = v
		}
	}
	if !any {
		if c.pause {
			// the game's rules would see the key and refuse it when the
			// table starts: refuse it here, where the creator is told
			return nil, nil, fmt.Errorf("%s needs a clock: clock.move or clock.total", clockPause)
		}
		return nil, game, nil
	}
	if c.move == 0 && c.total == 0 {
		return nil, nil, fmt.Errorf("a clock needs clock.move or clock.total")
	}
	return &c, game, nil
}

// gameOptions are t's options without the hub's own (clock) keys.
func (t *table) gameOptions() rules.Options {
	if t.clock == nil {
		return t.opts
	}
	_, g, _ := parseClock(t.opts)
	return g
}

// features an extended session asked for and the hub offers.
func (s *session) has(f uint32) bool { return s.x != nil && s.x.features&f != 0 }

// humans counts the seats people hold (present or held for them).
func (t *table) humans() int {
	n := 0
	for _, sl := range t.seats {
		if (sl.s != nil || sl.away) && !sl.bot {
			n++
		}
	}
	return n
}

// botMsg: the creator gives empty seats of a waiting table to the computer.
func (h *Hub) botMsg(now int64, s *session, body []byte) {
	m, err := segment.DecodeBotMsg(body)
	t := occupant(s)
	switch {
	case err != nil:
		h.fail(s, segment.Bot, segment.ErrCodeBadRequest, "malformed Bot")
		return
	case t == nil:
		h.fail(s, segment.Bot, segment.ErrCodeNotSeated, "sit at a table first")
		return
	case s.name != t.creator:
		h.fail(s, segment.Bot, segment.ErrCodeNotAllowed, "only the table's creator seats the computer")
		return
	case t.phase != phaseWaiting:
		h.fail(s, segment.Bot, segment.ErrCodeGameOver, "the game is running")
		return
	case m.Seat != 0xFF && int(m.Seat) >= len(t.seats):
		h.fail(s, segment.Bot, segment.ErrCodeBadRequest, "no such seat")
		return
	case m.Seat != 0xFF && t.seats[m.Seat].life() != lifeEmpty:
		h.fail(s, segment.Bot, segment.ErrCodeTableFull, "seat taken")
		return
	}
	n := 0
	for i := range t.seats {
		if (m.Seat == 0xFF || int(m.Seat) == i) && t.seats[i].life() == lifeEmpty {
			h.seatTo(t, i, lifeBot, nil)
			n++
		}
	}
	if n == 0 {
		h.fail(s, segment.Bot, segment.ErrCodeTableFull, "no empty seat")
		return
	}
	h.stats.BotSeats += uint64(n)
	h.ready_(now, s) // the creator asked for opponents: that is a ready, and may start the game
}

// askBots asks the shell for the moves of computer players to move at t
// (bot seats, and seats whose clock ran out in a game that plays on for
// them), once per seat and update.
func (h *Hub) askBots(t *table) {
	if t.phase != phasePlaying {
		return
	}
	for _, p := range t.game.ToMove(h.toMove[:0]) {
		sl := &t.seats[p]
		if !(sl.bot || sl.auto) || sl.asked == t.seq+1 {
			continue
		}
		sl.asked = t.seq + 1
		h.ready.Bots = append(h.ready.Bots, h.botRequest(t, p))
	}
}

// botRequest asks for seat p's move at t as it stands.
func (h *Hub) botRequest(t *table, p rules.Player) BotRequest {
	seed := uint64(t.seed[0]) | uint64(t.seed[1])<<8 | uint64(t.seed[2])<<16 | uint64(t.seed[3])<<24
	return BotRequest{Table: t.id, Seat: p, Seq: t.seq, Game: t.kind.Spec.Name,
		View: rules.SeatOf(t.game, p), Seed: seed ^ uint64(t.seq)<<32 ^ uint64(p)}
}

// botMove delivers a bot's move. A move for a table that moved on, closed,
// or whose seat a person took back is ignored; a move the rules refuse
// (a bot's bug) is replaced by the seat's first legal move, so a table never
// waits for a computer player forever.
func (h *Hub) botMove(now int64, a BotAnswer) {
	t := h.tables[a.Table]
	if t == nil || t.phase != phasePlaying || t.seq != a.Seq || int(a.Seat) < 0 || int(a.Seat) >= len(t.seats) {
		h.stats.BotLate++
		return
	}
	sl := &t.seats[a.Seat]
	if !(sl.bot || sl.auto) || sl.asked != t.seq+1 {
		h.stats.BotLate++
		return
	}
	m, err := t.game.ParseMove(a.Seat, a.Move)
	if err == nil {
		err = h.play(now, t, a.Seat, m)
	}
	if err != nil {
		h.stats.BotIllegal++
		legal := t.game.Legal(a.Seat, nil)
		if len(legal) == 0 {
			return
		}
		m = legal[0]
		if h.play(now, t, a.Seat, m) != nil {
			return
		}
	}
	h.stats.BotMoves++
	h.stats.TableMoves++
	h.afterMove(now, t, a.Seat, m)
}

// sendSeated gives s the resume token of its seat.
func (h *Hub) sendSeated(s *session, t *table, i int) {
	if s.has(segment.FeatureResume) {
		h.sendMsg(s, segment.Seated, segment.SeatedBody{Table: t.id, Seat: uint8(i), Token: t.seats[i].token}.Append(h.body()))
	}
}

// hold keeps s's seat for its player after its connection dropped (or was
// kicked by a newer login): the others are told for how long.
func (h *Hub) hold(now int64, s *session, t *table) {
	grace, q := h.cfg.ResumeGrace, 0
	if s.x.bye {
		grace, q = h.cfg.ResumeGraceBye, 1
	}
	h.seatTo(t, int(s.seat), lifeHeld, nil)
	sl := &t.seats[s.seat]
	sl.awayUntil = now + int64(grace)
	// one queue per grace period: each is in deadline order
	h.awayTimers[q].push(sl.awayUntil, ConnID(uint64(t.id)<<8|uint64(s.seat)))
	h.stats.SeatsHeld++
	sl.pausedAt = now // with clock.pause its clock stands still from now (deadline)
	a := segment.AwayBody{Table: t.id, Seat: uint8(s.seat), Grace: uint32(grace / time.Millisecond)}
	h.each(t, func(r *session) { h.sendMsg(r, segment.Away, a.Append(h.body())) })
	h.broadcastTable(t)
}

// expireAways ends the holds whose grace ran out: a waiting table frees the
// seat; a running game of two is lost by the absent player; in a game of
// three or four a computer player takes the seat over (the person may take
// it back with Resume).
func (h *Hub) expireAways(now int64) {
	for q := range h.awayTimers {
		h.expireQueue(now, &h.awayTimers[q])
	}
}

func (h *Hub) expireQueue(now int64, tq *timerQueue) {
	for {
		key, ok := tq.pop(now)
		if !ok {
			return
		}
		t := h.tables[uint32(uint64(key)>>8)]
		p := rules.Player(uint64(key) & 0xFF)
		if t == nil || int(p) >= len(t.seats) {
			continue
		}
		sl := &t.seats[p]
		if !sl.away || sl.awayUntil > now {
			continue
		}
		if t.clock != nil {
			t.clock.settle(now, sl) // the pause ends: a computer or nobody plays on
		}
		h.stats.HoldsExpired++
		switch {
		case t.phase != phasePlaying:
			h.seatTo(t, int(p), lifeEmpty, nil)
			for i := range t.seats {
				if !t.seats[i].bot {
					t.seats[i].ready = false
				}
			}
			h.offerAfterSeat(now, t, p)
		case len(t.seats) == 2:
			h.seatTo(t, int(p), lifeGone, nil)
			h.resignSeat(now, t, p)
		default:
			h.seatTo(t, int(p), lifeBotHolding, nil)
			h.offerAfterSeat(now, t, p)
			h.askBots(t)
		}
		if t.phase != phaseOver {
			if h.empty(t) {
				h.closeTable(now, t, p)
			} else {
				h.broadcastTable(t)
			}
		}
	}
}

// resume: s (logged in again) takes back a seat held for it.
func (h *Hub) resume(now int64, s *session, body []byte) {
	m, err := segment.DecodeResumeMsg(body)
	if err != nil {
		h.fail(s, segment.Resume, segment.ErrCodeBadRequest, "malformed Resume")
		return
	}
	if s.table != nil {
		h.fail(s, segment.Resume, segment.ErrCodeAtTable, "already at a table")
		return
	}
	t := h.tables[m.Table]
	if t == nil || int(m.Seat) >= len(t.seats) {
		h.fail(s, segment.Resume, segment.ErrCodeNoTable, "no such table")
		return
	}
	sl := &t.seats[m.Seat]
	switch {
	case sl.token != m.Token || sl.name != s.name || sl.token == [segment.TokenLen]byte{}:
		h.fail(s, segment.Resume, segment.ErrCodeNotAllowed, "wrong token")
		return
	case sl.life() != lifeHeld && sl.life() != lifeBotHolding:
		// a token resumes its seat once per hold: not a seat its person
		// sits at, left, or that went to someone else
		h.fail(s, segment.Resume, segment.ErrCodeNotAllowed, "the seat is not held for you")
		return
	}
	if t.clock != nil {
		t.clock.settle(now, sl) // its clock goes on from where the pause stopped it
	}
	if !h.seatTo(t, int(m.Seat), lifePerson, s) {
		return
	}
	s.table, s.seat, s.state = t, rules.Player(m.Seat), AtTable
	h.stats.Resumes++
	h.sendMsg(s, segment.Joined, segment.JoinedBody{Table: t.id, Seat: m.Seat}.Append(h.body()))
	h.sendSeated(s, t, int(m.Seat))
	h.broadcastTable(t)
	if t.game != nil {
		h.sendStarted(s, t)
		// the moves it missed that its seat may see, then where things stand
		if m.LastSeq < uint32(len(t.moves)) {
			sm, _ := t.game.(rules.SecretMoves)
			for i := int(m.LastSeq); i < len(t.moves); i++ {
				pm := t.moves[i]
				if t.phase == phasePlaying && sm != nil && sm.SecretMove(pm.move) && pm.seat != s.seat {
					continue
				}
				b := segment.MovedBody{Seq: uint32(i + 1), Seat: uint8(pm.seat), Kind: pm.move.Kind, Len: pm.move.Len, Arg: pm.move.Arg, Notation: t.game.FormatMove(pm.move)}
				h.sendMsg(s, segment.Moved, b.Append(h.body()))
			}
		}
		h.sendView(s, t)
	}
	h.sendChatHistory(s, &t.chat, 1)
	h.sendOffer(s, t) // its answer is still wanted
	back := segment.AwayBody{Table: t.id, Seat: m.Seat}
	h.each(t, func(r *session) { h.sendMsg(r, segment.Away, back.Append(h.body())) })
	if t.clock != nil {
		h.startClock(now, t)
		h.sendClocks(now, t)
	}
}

// --- clocks ---

// reset gives seat sl the time and the pause budget of a new game.
func (c *clockSpec) reset(sl *seatSlot) { sl.left, sl.pauseLeft = c.total, pauseBudget }

// startClock starts the clocks of the seats to move that are not running
// (a seat held for its player with clock.pause starts paused: deadline).
func (h *Hub) startClock(now int64, t *table) {
	if t.clock == nil || t.phase != phasePlaying {
		return
	}
	for _, p := range t.game.ToMove(h.toMove[:0]) {
		sl := &t.seats[p]
		if !sl.ticking {
			sl.since, sl.pausedAt, sl.ticking = now, now, true
		}
	}
}

// stopClock stops seat p's clock, charging the time it ran; moved adds the
// increment.
func (h *Hub) stopClock(now int64, t *table, p rules.Player, moved bool) {
	sl := &t.seats[p]
	t.clock.settle(now, sl)
	if sl.ticking && t.clock.total > 0 {
		sl.left -= now - sl.since
	}
	sl.ticking = false
	if moved {
		sl.left = min(sl.left+t.clock.inc, maxLeft)
	}
}

// held reports whether seat sl's running clock is under a pause: its seat
// is held for its player with clock.pause, so the clock stands still from
// pausedAt for up to pauseLeft (see deadline and settle).
func (c *clockSpec) held(sl *seatSlot) bool { return c.pause && sl.away && sl.ticking }

// settle charges the pause of seat sl's clock up to now to its budget,
// moving the clock's start on by the time it stood still, and starts
// counting the pause again from now.
func (c *clockSpec) settle(now int64, sl *seatSlot) {
	if c.held(sl) {
		p := min(now-sl.pausedAt, sl.pauseLeft)
		sl.since += p
		sl.pauseLeft -= p
	}
	sl.pausedAt = now
}

// stopped reports whether seat sl's clock stands still at now: it is held
// for its player with clock.pause and its pause budget is not spent.
func (c *clockSpec) stopped(now int64, sl *seatSlot) bool {
	if !c.pause || !sl.away {
		return false
	}
	if !sl.ticking {
		return sl.pauseLeft > 0
	}
	return now < sl.pausedAt+sl.pauseLeft
}

// clocksAfterMove: the mover's clock stops, and those of the seats now to
// move start.
func (h *Hub) clocksAfterMove(now int64, t *table, p rules.Player) {
	if t.clock == nil {
		return
	}
	toMove := t.game.ToMove(h.toMove[:0])
	for i := range t.seats {
		still := false
		for _, q := range toMove {
			still = still || int(q) == i
		}
		if rules.Player(i) == p || !still {
			h.stopClock(now, t, rules.Player(i), rules.Player(i) == p)
			t.seats[i].expired = false
		}
	}
	h.startClock(now, t)
	h.sendClocks(now, t)
}

// deadline is when seat sl's time runs out (0: its clock is not running).
// A held seat's clock (clock.pause) stands still for at most its pause
// budget, so its deadline is that much later.
func (c *clockSpec) deadline(sl *seatSlot) int64 {
	if !sl.ticking {
		return 0
	}
	d := int64(0)
	if c.move > 0 {
		d = sl.since + c.move
	}
	if c.total > 0 && (d == 0 || sl.since+sl.left < d) {
		d = sl.since + sl.left
	}
	if c.held(sl) {
		d += sl.pauseLeft
	}
	return d
}

// wireMillis is a time in nanoseconds as the Clock message's i32
// milliseconds, clamped to its range (never negative).
func wireMillis(ns int64) int32 {
	return int32(min(max(ns/int64(time.Millisecond), 0), math.MaxInt32))
}

// sendClocks tells everyone at t how much time each seat has left.
func (h *Hub) sendClocks(now int64, t *table) {
	if t.clock == nil {
		return
	}
	b := segment.ClockBody{Table: t.id}
	for i := range t.seats {
		sl := &t.seats[i]
		cs := segment.ClockSeat{Left: -1}
		d := t.clock.deadline(sl)
		switch {
		case t.clock.stopped(now, sl):
			cs.Flags = segment.ClockPaused
			if d != 0 { // what was left when the pause began
				cs.Left = wireMillis(d - sl.pauseLeft - sl.pausedAt)
			} else if t.clock.total > 0 {
				cs.Left = wireMillis(sl.left)
			} else {
				cs.Left = wireMillis(t.clock.move)
			}
		case d != 0:
			cs.Left, cs.Flags = wireMillis(d-now), segment.ClockRunning
		case t.clock.total > 0:
			cs.Left = wireMillis(sl.left)
		case t.clock.move > 0:
			cs.Left = wireMillis(t.clock.move)
		}
		b.Seats = append(b.Seats, cs)
	}
	h.each(t, func(r *session) {
		if r.has(segment.FeatureClocks) {
			h.sendMsg(r, segment.Clock, b.Append(h.body()))
		}
	})
}

// expireClocks applies the game's timeout action to every seat whose time
// ran out: where the Spec says BotOnTimeout (Aeroplane Chess) the computer
// moves for it this turn; in the other games the player loses (in a game of
// three or four, it leaves).
func (h *Hub) expireClocks(now int64) {
	for _, id := range h.clockTables {
		t := h.tables[id]
		if t == nil || t.clock == nil || t.phase != phasePlaying {
			continue
		}
		for i := range t.seats {
			sl := &t.seats[i]
			d := t.clock.deadline(sl)
			if d == 0 || d > now || sl.expired {
				continue
			}
			sl.expired = true
			h.stats.ClockExpiries++
			if t.kind.Spec.BotOnTimeout {
				sl.auto = true
				h.askBots(t)
				continue
			}
			t.timeout = true
			h.resignSeat(now, t, rules.Player(i))
			t.timeout = false
			if t.phase != phasePlaying {
				break
			}
		}
	}
	// forget tables that closed
	live := h.clockTables[:0]
	for _, id := range h.clockTables {
		if t := h.tables[id]; t != nil && t.clock != nil {
			live = append(live, id)
		}
	}
	h.clockTables = live
}
