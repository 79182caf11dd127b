package statemachine

import (
	"math/rand/v2"

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
	node     uint32 // the node its creator's connection was on when it opened (NodeOf)
	private  bool
	watch    uint8  // who may watch: watchAnyone, watchCode, watchNobody
	code     string // join code of a private table
	phase    uint8
	seq      uint32 // updates sent so far in this game (moves accepted)
	seed     [32]byte
	// rng is the table's own generator (game seeds, seat tokens), seeded
	// from the world's as the table opens: what a table's inputs draw then
	// depends on the table's inputs alone, never on what other tables or
	// the lobby drew in between. nil at a reference match, which draws
	// only as it opens, and at a table opened in generation 0, which
	// draws from the world's.
	rng     *rand.ChaCha8
	start   int64
	moves   []playedMove
	offer   *offer
	clock   *clockSpec // nil: no time control
	timeout bool       // the move being played is a clock's timeout action
	chat    chatLog    // players' chat
	wchat   chatLog    // watchers' chat
}

// openTable opens t, made by creator's session (its join code drawn
// already): numbers it, gives its clock to the deadlines, gives it its
// own generator and lists it.
func (h *Hub) openTable(t *table, creator *session) {
	h.tableSeq++
	t.id, t.creator, t.node = h.tableSeq, creator.name, NodeOf(creator.conn)
	if t.clock != nil {
		h.clockTables = append(h.clockTables, t.id)
	}
	h.ownGenerator(t)
	h.tables[t.id] = t
	h.stats.TablesCreated++
}

// ownGenerator gives t its own generator, seeded from the hub's, at the
// input that opens t (so every copy of the hub seeds it alike), unless the
// world goes by generation 0.
func (h *Hub) ownGenerator(t *table) {
	if h.generation < 1 {
		return
	}
	var seed [32]byte
	h.entropy(seed[:])
	t.rng = rand.NewChaCha8(seed)
}

// tableEntropy fills b from t's own generator, or from the world's for a
// table that has none.
func (h *Hub) tableEntropy(t *table, b []byte) {
	if t.rng == nil {
		h.entropy(b)
		return
	}
	_, _ = t.rng.Read(b) // ChaCha8 never fails
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

// endTable is how every game ends, whatever ended it: the rules (a move, a
// resignation, a clock), an agreed draw, a player leaving a reference
// match, the server stopping it. The game is recorded once (finish), then
// everyone at an extended table is told and it waits for a rematch, or a
// reference match releases its two players. leaver is the seat that left
// when reason is Abandoned, else rules.Spectator.
func (h *Hub) endTable(now int64, t *table, reason record.Reason, leaver rules.Player) {
	reason = h.finish(now, t, reason, leaver)
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

// finish records t's running game, once, and counts it by why it ended;
// it returns that reason as recorded. A game that is not running (already
// recorded, or none started) is left alone. The reason the caller gives is
// made exact here, so no caller has to know: a win the last move gave by
// resigning is Resigned, a resignation a clock forced is Timeout, and a
// forfeit with nobody there to win it (every person away or gone, no
// computer playing) is Abandoned by the seat that forfeited, without a
// result.
func (h *Hub) finish(now int64, t *table, reason record.Reason, leaver rules.Player) record.Reason {
	if t.game == nil || t.phase != phasePlaying {
		return reason
	}
	if reason == record.Won {
		if n := len(t.moves); n > 0 && t.moves[n-1].move.Kind == rules.KindResign {
			reason = record.Resigned
		}
	}
	if t.timeout && reason.HasResult() {
		reason = record.Timeout
	}
	if (reason == record.Resigned || reason == record.Timeout) && !t.attended() {
		reason, leaver = record.Abandoned, t.moves[len(t.moves)-1].seat
	}
	if reason == record.Abandoned && (leaver < 0 || int(leaver) >= len(t.seats)) {
		reason, leaver = record.Aborted, rules.Spectator // a record must name a seat that left: the server stopped it
	}
	h.ready.Records = append(h.ready.Records, h.recordOf(now, t, reason, leaver))
	h.stats.GamesEnded[reason.Index()]++
	t.phase = phaseWaiting // recorded: nothing records it again
	return reason
}

// attended reports whether anyone plays at t: a person connected to a seat
// or a computer holding one.
func (t *table) attended() bool {
	for _, sl := range t.seats {
		if sl.s != nil || sl.bot || sl.took {
			return true
		}
	}
	return false
}

// outcomeOf is how t's game ended for reason: as the rules say (a clock's
// loss with its own words), drawn by agreement, or with no result.
func outcomeOf(t *table, reason record.Reason) rules.Outcome {
	switch {
	case reason == record.Agreed:
		return rules.Outcome{Status: rules.Drawn, Reason: "draw agreed"}
	case !reason.HasResult():
		return rules.Outcome{Status: rules.Running}
	case reason == record.Timeout:
		o := t.game.Outcome()
		o.Reason = "out of time"
		return o
	}
	return t.game.Outcome()
}

// recordOf is t's game as stored.
func (h *Hub) recordOf(now int64, t *table, reason record.Reason, leaver rules.Player) record.Game {
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
