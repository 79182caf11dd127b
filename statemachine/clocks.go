package statemachine

// Turn clocks (docs/protocol.md section 9): a table's time control from its
// "clock.*" options, the seats' clocks, and what happens when one runs out.

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
)

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
		case record.RatedOption: // a hub option too (rated.go)
			if err := checkRated(v); err != nil {
				return nil, nil, err
			}
		case chatOption, startOption: // hub options too (roomopts.go)
			if err := checkRoomOption(k, v); err != nil {
				return nil, nil, err
			}
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

// gameOptions are t's options without the hub's own (clock, rated, chat
// and start) keys, as record.GameOptions strips them for a replay: one list
// of the hub's keys for both.
func (t *table) gameOptions() rules.Options { return record.GameOptions(t.opts) }

// newGame is t's game as it started: the rules with t's options and seat
// count, drawing from t's seed (a start, a takeback and a catch-up replay
// all begin here).
func (t *table) newGame() (rules.Game, error) {
	return t.kind.Spec.New(len(t.seats), t.gameOptions(), record.Rand(t.seed))
}

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
		if t := h.tables[id]; t != nil {
			h.expireClock(now, t)
		}
	}
	h.forgetClockTables()
}

// expireClock applies the timeout action to each seat of t whose time ran
// out (expireClocks).
func (h *Hub) expireClock(now int64, t *table) {
	if t.clock == nil || t.phase != phasePlaying {
		return
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
			return
		}
	}
}

// forgetClockTables takes the tables that closed (or lost their clock)
// out of the clocked tables' list.
func (h *Hub) forgetClockTables() {
	live := h.clockTables[:0]
	for _, id := range h.clockTables {
		if t := h.tables[id]; t != nil && t.clock != nil {
			live = append(live, id)
		}
	}
	h.clockTables = live
}

// nextClock is the earliest time a seat's turn clock at t runs out, false
// when no clock runs (none, the game is not being played, or every running
// clock ran out already).
func (t *table) nextClock() (int64, bool) {
	at, ok := int64(0), false
	if t.clock == nil || t.phase != phasePlaying {
		return 0, false
	}
	for i := range t.seats {
		if sl := &t.seats[i]; !sl.expired {
			if d := t.clock.deadline(sl); d != 0 && (!ok || d < at) {
				at, ok = d, true
			}
		}
	}
	return at, ok
}
