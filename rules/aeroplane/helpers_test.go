package aeroplane

import (
	"testing"

	"github.com/bomber-game/bomber/rules"
)

// scriptDie is a rules.Rand that answers scripted die faces (face-1, which
// drawDie turns back into the face) and remembers the n of each draw.
type scriptDie struct {
	t     testing.TB
	faces []int
	asked []int
}

func (d *scriptDie) IntN(n int) int {
	d.t.Helper()
	if len(d.faces) == 0 {
		d.t.Fatalf("the die was rolled more often than scripted")
	}
	f := d.faces[0]
	d.faces = d.faces[1:]
	d.asked = append(d.asked, n)
	return f - 1
}

// scripted starts a game whose die gives faces in order.
func scripted(t *testing.T, players int, opts rules.Options, faces ...int) (*Game, *scriptDie) {
	t.Helper()
	d := &scriptDie{t: t, faces: faces}
	g, err := New(players, opts, d)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return g, d
}

// place puts p's pieces at the given progress values (others stay).
func place(g *Game, p rules.Player, at ...int) {
	for i, a := range at {
		g.pos[p][i] = int8(a)
	}
}

// mustPlay plays m for p and fails the test on error.
func mustPlay(t *testing.T, g *Game, p rules.Player, m rules.Move) []rules.Step {
	t.Helper()
	steps, err := g.Play(p, m, nil)
	if err != nil {
		t.Fatalf("%s %s: %v", ColourName(p), formatMove(m), err)
	}
	return steps
}

// rollMove rolls for p and moves piece i, returning the steps of both.
func rollMove(t *testing.T, g *Game, p rules.Player, i int) []rules.Step {
	t.Helper()
	steps := mustPlay(t, g, p, Roll())
	return append(steps, mustPlay(t, g, p, MovePiece(i))...)
}

// kinds lists the step kinds of steps.
func kinds(steps []rules.Step) []uint8 {
	out := make([]uint8, len(steps))
	for i, s := range steps {
		out[i] = s.Kind
	}
	return out
}

// positions lists p's four progress values.
func positions(g *Game, p rules.Player) [Pieces]int {
	var out [Pieces]int
	for i := range out {
		out[i] = g.Position(p, i)
	}
	return out
}
