// Package tables drives every seat of one extended-protocol table as a
// scripted player: it keeps a replica of the game from the moves the server
// accepts and answers each turn with a random legal move, so tests and load
// generators can play any of the five games to the end. It is pure: the
// caller carries its messages over whatever connection it has. The replica
// is package ext's, the one the terminal client keeps.
package tables

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/bomber-game/bomber/client/ext"
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/segment"
)

// Out is one message the driver wants sent from a seat's connection.
type Out struct {
	Seat int
	Type segment.Type
	Body []byte
}

// Driver plays all seats of one table, or the seats given to Only.
type Driver struct {
	spec    rules.Spec
	opts    rules.Options
	seats   int
	rng     *rand.Rand
	replica *ext.Replica
	only    []int
	// Text sends moves in notation (MoveText) instead of binary (Move).
	Text bool
	// MaxMoves makes the seat to move resign once this many moves were
	// played (0: 5000), so a game that does not end by itself still finishes.
	MaxMoves int
	sent     bool // a move is in flight: wait for the server's answer
	ended    bool
	Errors   []string // Error messages the server answered
	End      segment.GameEndBody
}

// New returns a driver for a table of spec with seats seats and options opts.
func New(spec rules.Spec, opts rules.Options, seats int, seed uint64) *Driver {
	return &Driver{spec: spec, opts: opts, seats: seats, rng: rand.New(rand.NewPCG(seed, 0x7ab1e5))}
}

// Only makes the driver play just these seats, hearing the game through
// the first one's connection alone (the others are people or other
// programs). Not for games with secret moves, whose other seats' moves that
// connection never sees.
func (d *Driver) Only(seats ...int) { d.only = seats }

// Ended reports whether the game is over.
func (d *Driver) Ended() bool { return d.ended }

// Replica is the driver's copy of the game (nil before Started).
func (d *Driver) Replica() rules.Game {
	if d.replica == nil {
		return nil
	}
	return d.replica.Game()
}

// Moves is how many moves were played.
func (d *Driver) Moves() int {
	if d.replica == nil {
		return 0
	}
	return len(d.replica.Played())
}

// hears reports whether a public message that seat's connection received
// is the copy the driver takes: with every seat driven, each message comes
// once per seat and the one that concerns the seat (its move, its die) is
// kept, since a secret move reaches its mover alone.
func (d *Driver) hears(seat, about int) bool {
	if d.only != nil {
		return seat == d.only[0]
	}
	return seat == about
}

// Receive takes one whole message that seat's connection received.
func (d *Driver) Receive(seat int, t segment.Type, body []byte) error {
	if d.only != nil && seat != d.only[0] {
		return nil
	}
	switch t {
	case segment.Started:
		if d.replica != nil && !d.ended {
			return nil // every seat hears it; the first one starts the replica
		}
		r, err := ext.NewReplica(d.spec, d.opts, d.seats)
		if err != nil {
			return err
		}
		d.replica, d.ended, d.sent = r, false, false
	case segment.Moved:
		m, err := segment.DecodeMovedBody(body)
		if err != nil {
			return err
		}
		// not d.ended: with every seat driven, the GameEnd one seat heard
		// may come before the mover's copy of the last move
		if d.replica == nil || !d.hears(seat, int(m.Seat)) {
			return nil
		}
		if err := d.replica.Moved(m); err != nil {
			return err
		}
		d.sent = false // answered; a roll still waits for its face (Waiting)
	case segment.StepMsg:
		st, err := segment.DecodeStepBody(body)
		if err != nil {
			return err
		}
		if d.replica == nil || !d.hears(seat, int(st.Player)) {
			return nil
		}
		return d.replica.Step(st)
	case segment.GameEnd:
		e, err := segment.DecodeGameEndBody(body)
		if err != nil {
			return err
		}
		d.End, d.ended, d.sent = e, true, false
	case segment.ErrorMsg:
		e, _ := segment.DecodeErrorBody(body)
		d.Errors = append(d.Errors, fmt.Sprintf("seat %d: %v code %d %s", seat, e.Req, e.Code, e.Text))
		d.sent = false
	}
	return nil
}

// Next returns the next move to send, or false while waiting.
func (d *Driver) Next() (Out, bool, error) {
	if len(d.Errors) > 0 {
		// the replica and the server disagree: playing on would only repeat it
		return Out{}, false, fmt.Errorf("the server refused a move: %s", d.Errors[0])
	}
	if d.replica == nil || d.ended || d.sent || d.replica.Waiting() {
		return Out{}, false, nil
	}
	g := d.replica.Game()
	max := d.MaxMoves
	if max == 0 {
		max = 5000
	}
	var to []rules.Player
	for _, p := range g.ToMove(nil) {
		if d.only == nil || slices.Contains(d.only, int(p)) {
			to = append(to, p)
		}
	}
	if len(to) == 0 {
		return Out{}, false, nil
	}
	if d.Moves() >= max {
		// the seat to move gives up; in a game of three or four it leaves,
		// and the next one to move follows until one is left
		d.sent = true
		return Out{Seat: int(to[0]), Type: segment.Resign}, true, nil
	}
	p := to[d.rng.IntN(len(to))]
	var moves []rules.Move
	for _, m := range g.Legal(p, nil) {
		if m.Kind < rules.KindOfferDraw {
			moves = append(moves, m)
		}
	}
	if len(moves) == 0 {
		return Out{}, false, fmt.Errorf("seat %d to move with no legal move", p)
	}
	m := moves[d.rng.IntN(len(moves))]
	d.sent = true
	if d.Text {
		return Out{Seat: int(p), Type: segment.MoveText, Body: []byte(g.FormatMove(m))}, true, nil
	}
	return Out{Seat: int(p), Type: segment.Move, Body: segment.MoveMsg{Kind: m.Kind, Len: m.Len, Arg: m.Arg}.Append(nil)}, true, nil
}
