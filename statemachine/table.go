package statemachine

import (
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
)

// GameEntry is one game the hub offers: its rules, whose Spec holds every
// fact of the game the hub and its clients go by.
type GameEntry struct {
	Spec rules.Spec
}

// Table phases.
const (
	phaseWaiting uint8 = iota // seats filling, ready check
	phasePlaying              // a game is on
	phaseOver                 // closed: nobody sits or watches any more
)

// seatSlot is one seat of a table.
type seatSlot struct {
	s     *session // nil while empty (or after its player left a running game)
	name  string   // who sits or sat there
	ready bool
	gone  bool   // left a running game of three or four; the game goes on without it
	bot   bool   // a computer player holds the seat
	took  bool   // the computer took the seat over from its absent player
	auto  bool   // the seat's clock ran out: the computer moves for it this turn
	asked uint32 // update sequence+1 of the last BotRequest for this seat

	token     [segment.TokenLen]byte // resume token of the seat's player
	away      bool                   // held for its player, whose connection dropped
	awayUntil int64

	left      int64 // clock: time left for the game (total time control), ns; at most maxLeft
	since     int64 // clock: when it started running, moved on by the time it stood paused
	ticking   bool  // clock: running (or paused: held for its player with clock.pause)
	expired   bool  // clock: ran out and the timeout action was taken
	pausedAt  int64 // clock: since when a pause is not yet charged to pauseLeft
	pauseLeft int64 // clock: how much longer it may stand paused in this game (pauseBudget at the start)
}

// playedMove is an accepted move, kept compact until the record is written.
type playedMove struct {
	seat rules.Player
	move rules.Move
	at   int64
}

// table is one game being set up or played: a rules.Game, its seats, its
// watchers and its chat.
type table struct {
	id       uint32
	kind     *GameEntry
	opts     rules.Options
	game     rules.Game // nil while waiting
	seats    []seatSlot
	watchers []*session
	creator  string
	private  bool
	watch    uint8  // who may watch: watchAnyone, watchCode, watchNobody
	code     string // join code of a private table
	phase    uint8
	seq      uint32 // updates sent so far in this game (moves accepted)
	seed     [32]byte
	start    int64
	moves    []playedMove
	offer    *offer
	clock    *clockSpec // nil: no time control
	timeout  bool       // the move being played is a clock's timeout action
	chat     chatLog    // players' chat
	wchat    chatLog    // watchers' chat
}

// ext reports whether t is a table of the extended protocol (not a reference
// client's Bomber match).
func (t *table) ext() bool { return t.kind != refKind }

// play makes move m for seat p through the rules and keeps it for the record.
func (h *Hub) play(now int64, t *table, p rules.Player, m rules.Move) error {
	var err error
	h.steps, err = t.game.Play(p, m, h.steps[:0])
	if err != nil {
		return err
	}
	t.moves = append(t.moves, playedMove{seat: p, move: m, at: now})
	t.seq++
	return nil
}

// endTable records t's game and releases its seats. reason is "won" or
// "drawn" when the rules ended it, else why it stopped; leaver is the seat
// whose player left with "abandoned".
func (h *Hub) endTable(now int64, t *table, reason string, leaver rules.Player) {
	if t.timeout && reason != "abandoned" && reason != "aborted" {
		reason = "timeout"
	}
	if t.game != nil {
		h.ready.Records = append(h.ready.Records, h.recordOf(now, t, reason, leaver))
		h.stats.GamesEnded[endIndex(reason)]++
	}
	if t.ext() {
		h.extEnd(now, t, reason)
		return
	}
	for i := range t.seats {
		if p := t.seats[i].s; p != nil && p.table == t {
			p.table = nil
			if p.state == Draw || p.state == Game {
				p.state = ServerStandBy
			}
		}
		t.seats[i].s = nil
	}
	t.phase = phaseOver
}

// endIndex maps an end reason onto the Stats.GamesEnded counters.
func endIndex(reason string) EndReason {
	switch reason {
	case "abandoned":
		return Abandoned
	case "aborted":
		return Aborted
	}
	return Won
}

// outcomeOf is how t's game ended: as the rules say, drawn by agreement,
// or not at all (abandoned or aborted games have no result).
func outcomeOf(t *table, reason string) rules.Outcome {
	switch reason {
	case "agreed":
		return rules.Outcome{Status: rules.Drawn, Reason: "draw agreed"}
	case "abandoned", "aborted":
		return rules.Outcome{Status: rules.Running}
	}
	if t.timeout {
		o := t.game.Outcome()
		o.Reason = "out of time"
		return o
	}
	return t.game.Outcome()
}

// recordOf is t's game as stored.
func (h *Hub) recordOf(now int64, t *table, reason string, leaver rules.Player) record.Game {
	r := record.Game{
		Game: t.kind.Spec.Name, Options: t.opts, Seed: t.seed, Reason: reason, Leaver: leaver,
		Start: t.start, End: now, Outcome: outcomeOf(t, reason), Scores: t.game.Scores(nil),
		Seats: make([]record.Seat, len(t.seats)), Moves: make([]record.Move, len(t.moves)),
	}
	for i, sl := range t.seats {
		r.Seats[i] = record.Seat{Name: sl.name, Bot: sl.bot || sl.took}
	}
	for i, m := range t.moves {
		r.Moves[i] = record.Move{Seat: m.seat, Text: t.game.FormatMove(m.move), At: m.at}
	}
	return r
}
