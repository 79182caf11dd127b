// Package tables drives every seat of one extended-protocol table as a
// scripted player: it keeps a replica of the game from the moves the server
// accepts and answers each turn with a random legal move, so tests and load
// generators can play any of the five games to the end. It is pure: the
// caller carries its messages over whatever connection it has.
package tables

import (
	"fmt"
	"math/rand/v2"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/aeroplane"
	"github.com/bomber-game/bomber/segment"
)

// Out is one message the driver wants sent from a seat's connection.
type Out struct {
	Seat int
	Type segment.Type
	Body []byte
}

// Driver plays all seats of one table.
type Driver struct {
	spec    rules.Spec
	opts    rules.Options
	seats   int
	rng     *rand.Rand
	replica rules.Game
	dice    *scriptedRand
	pending *pendingMove
	// Text sends moves in notation (MoveText) instead of binary (Move).
	Text bool
	// MaxMoves makes the seat to move resign once this many moves were
	// played (0: 5000), so a game that does not end by itself still finishes.
	MaxMoves int
	played   int
	sent     bool // a move is in flight: wait for the server's answer
	ended    bool
	Errors   []string // Error messages the server answered
	End      segment.GameEndBody
}

type pendingMove struct {
	seat rules.Player
	text string
}

// New returns a driver for a table of spec with seats seats and options opts.
func New(spec rules.Spec, opts rules.Options, seats int, seed uint64) *Driver {
	return &Driver{spec: spec, opts: opts, seats: seats, rng: rand.New(rand.NewPCG(seed, 0x7ab1e5))}
}

// Ended reports whether the game is over.
func (d *Driver) Ended() bool { return d.ended }

// Replica is the driver's copy of the game (nil before Started).
func (d *Driver) Replica() rules.Game { return d.replica }

// Moves is how many moves were played.
func (d *Driver) Moves() int { return d.played }

// Receive takes one whole message that seat's connection received.
func (d *Driver) Receive(seat int, t segment.Type, body []byte) error {
	switch t {
	case segment.Started:
		if d.replica != nil && !d.ended {
			return nil // every seat hears it; the first one starts the replica
		}
		d.dice = &scriptedRand{}
		g, err := d.spec.New(d.seats, d.opts, d.dice)
		if err != nil {
			return fmt.Errorf("replica: %w", err)
		}
		d.replica, d.ended, d.played, d.sent = g, false, 0, false
	case segment.Moved:
		m, err := segment.DecodeMovedBody(body)
		if err != nil {
			return err
		}
		if int(m.Seat) != seat {
			return nil // every seat hears public moves; take the mover's copy
		}
		if err := d.flush(); err != nil {
			return err
		}
		d.pending = &pendingMove{seat: rules.Player(m.Seat), text: m.Notation}
	case segment.StepMsg:
		st, err := segment.DecodeStepBody(body)
		if err != nil {
			return err
		}
		// a die's face reaches the replica through its scripted Rand
		if d.spec.Name == aeroplane.Name && st.Kind == aeroplane.StepRoll && int(st.Player) == seat {
			d.dice.faces = append(d.dice.faces, int(st.A)-1)
		}
	case segment.GameEnd:
		if err := d.flush(); err != nil {
			return err
		}
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

// flush applies the move waiting for its steps to the replica.
func (d *Driver) flush() error {
	p := d.pending
	if p == nil {
		return nil
	}
	if d.spec.Name == aeroplane.Name && p.text == "roll" && len(d.dice.faces) == 0 {
		return nil // its face has not arrived yet
	}
	d.pending = nil
	m, err := d.replica.ParseMove(p.seat, p.text)
	if err != nil {
		return fmt.Errorf("replica cannot read %q: %w", p.text, err)
	}
	if _, err := d.replica.Play(p.seat, m, nil); err != nil {
		return fmt.Errorf("replica refuses %q by seat %d: %w", p.text, p.seat, err)
	}
	d.played++
	d.sent = false
	return nil
}

// Next returns the next move to send, or false while waiting.
func (d *Driver) Next() (Out, bool, error) {
	if err := d.flush(); err != nil {
		return Out{}, false, err
	}
	if len(d.Errors) > 0 {
		// the replica and the server disagree: playing on would only repeat it
		return Out{}, false, fmt.Errorf("the server refused a move: %s", d.Errors[0])
	}
	if d.replica == nil || d.ended || d.sent || d.pending != nil {
		return Out{}, false, nil
	}
	max := d.MaxMoves
	if max == 0 {
		max = 5000
	}
	to := d.replica.ToMove(nil)
	if len(to) == 0 {
		return Out{}, false, nil
	}
	if d.played >= max {
		// the seat to move gives up; in a game of three or four it leaves,
		// and the next one to move follows until one is left
		d.sent = true
		return Out{Seat: int(to[0]), Type: segment.Resign}, true, nil
	}
	p := to[d.rng.IntN(len(to))]
	var moves []rules.Move
	for _, m := range d.replica.Legal(p, nil) {
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
		return Out{Seat: int(p), Type: segment.MoveText, Body: []byte(d.replica.FormatMove(m))}, true, nil
	}
	return Out{Seat: int(p), Type: segment.Move, Body: segment.MoveMsg{Kind: m.Kind, Len: m.Len, Arg: m.Arg}.Append(nil)}, true, nil
}

// scriptedRand answers the faces the server rolled, in order (see
// aeroplane's drawDie: face-1 yields that face whatever n is asked).
type scriptedRand struct{ faces []int }

func (r *scriptedRand) IntN(n int) int {
	if len(r.faces) == 0 {
		return 0
	}
	f := r.faces[0]
	r.faces = r.faces[1:]
	return min(f, n-1)
}
