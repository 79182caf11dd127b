package ext

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/aeroplane"
	"github.com/bomber-game/bomber/segment"
)

// Played is one move the replica applied: the server's Moved and, for a
// roll, the face that came with it.
type Played struct {
	Moved segment.MovedBody
	Face  int // 1..6 for an Aeroplane roll; 0 otherwise
}

// Replica is a copy of a table's game kept from the moves the server
// accepts. Feed it one connection's Moved and Step messages in order.
type Replica struct {
	spec    rules.Spec
	opts    rules.Options
	seats   int
	game    rules.Game
	dice    *scriptedRand
	pending *segment.MovedBody
	played  []Played
}

// NewReplica starts a replica of a new game of spec for seats seats.
func NewReplica(spec rules.Spec, opts rules.Options, seats int) (*Replica, error) {
	r := &Replica{spec: spec, opts: opts, seats: seats}
	if err := r.reset(); err != nil {
		return nil, err
	}
	return r, nil
}

// Secret reports whether the game has secret moves: then a replica fed by
// one seat's connection misses the other seats' secret moves (a driver of
// every seat, which hears each mover, can still keep one).
func (r *Replica) Secret() bool { _, ok := r.game.(rules.SecretMoves); return ok }

func (r *Replica) reset() error {
	r.dice = &scriptedRand{}
	g, err := r.spec.New(r.seats, r.opts, r.dice)
	if err != nil {
		return fmt.Errorf("replica of %s: %w", r.spec.Name, err)
	}
	r.game, r.pending, r.played = g, nil, nil
	return nil
}

// Game is the replica's game (do not play on it).
func (r *Replica) Game() rules.Game { return r.game }

// Played is every move applied so far, in order (shared: do not change).
func (r *Replica) Played() []Played { return r.played }

// Waiting reports whether a move waits for its die's face.
func (r *Replica) Waiting() bool { return r.pending != nil }

func (r *Replica) isRoll(m segment.MovedBody) bool {
	return r.spec.Name == aeroplane.Name && m.Notation == "roll"
}

// Unplay takes back the move that waits for its die's face (a roll whose
// face was lost with the connection), so that it can be received again
// with its steps; false when no move waits.
func (r *Replica) Unplay() (segment.MovedBody, bool) {
	p := r.pending
	if p == nil {
		return segment.MovedBody{}, false
	}
	r.pending = nil
	return *p, true
}

// Moved takes an accepted move.
func (r *Replica) Moved(m segment.MovedBody) error {
	if err := r.Flush(); err != nil {
		return err
	}
	r.pending = &m
	if !r.isRoll(m) {
		return r.Flush()
	}
	return nil
}

// Step takes a consequence of the last move; a roll's face reaches the
// replica's dice.
func (r *Replica) Step(st segment.StepBody) error {
	if r.spec.Name == aeroplane.Name && st.Kind == aeroplane.StepRoll {
		r.dice.faces = append(r.dice.faces, int(st.A))
	}
	return r.Flush()
}

// Flush applies the move waiting for its die, when the die is known.
func (r *Replica) Flush() error {
	p := r.pending
	if p == nil {
		return nil
	}
	face := 0
	if r.isRoll(*p) {
		if len(r.dice.faces) == 0 {
			return nil
		}
		face = r.dice.faces[0]
	}
	r.pending = nil
	if err := r.apply(*p); err != nil {
		return err
	}
	r.played = append(r.played, Played{Moved: *p, Face: face})
	return nil
}

func (r *Replica) apply(m segment.MovedBody) error {
	p := rules.Player(m.Seat)
	mv := rules.Move{Kind: m.Kind, Len: m.Len, Arg: m.Arg}
	if _, err := r.game.Play(p, mv, nil); err != nil {
		return fmt.Errorf("replica refuses %q by seat %d: %w", m.Notation, p, err)
	}
	return nil
}

// Rebuild replays the first n played moves on a fresh game (a takeback).
func (r *Replica) Rebuild(n int) error {
	keep := slices.Clone(r.played[:min(n, len(r.played))])
	if err := r.reset(); err != nil {
		return err
	}
	for _, p := range keep {
		if p.Face > 0 {
			r.dice.faces = append(r.dice.faces, p.Face)
		}
		if err := r.apply(p.Moved); err != nil {
			return err
		}
		r.played = append(r.played, p)
	}
	return nil
}

// Matches reports whether the replica shows viewer what v shows.
func (r *Replica) Matches(v rules.View) bool {
	o := r.game.Observe(v.Viewer)
	return o.Status == v.Status && bytes.Equal(o.Cells, v.Cells) && bytes.Equal(o.Extra, v.Extra) &&
		slices.Equal(o.ToMove, v.ToMove) && slices.Equal(o.Scores, v.Scores)
}

// scriptedRand answers the faces the server rolled, in order (see
// aeroplane's drawDie: face-1 yields that face whatever n is asked).
type scriptedRand struct{ faces []int }

func (r *scriptedRand) IntN(n int) int {
	if len(r.faces) == 0 {
		return 0
	}
	f := r.faces[0] - 1
	r.faces = r.faces[1:]
	return max(0, min(f, n-1))
}

// ViewOf converts a server View into the rules' form.
func ViewOf(v segment.ViewBody) rules.View {
	out := rules.View{Viewer: rules.Player(v.Viewer), Status: rules.Status(v.Status), Cells: v.Cells, Extra: v.Extra}
	for _, p := range v.ToMove {
		out.ToMove = append(out.ToMove, rules.Player(p))
	}
	for _, s := range v.Scores {
		out.Scores = append(out.Scores, int(s))
	}
	return out
}
