package bomber

import (
	"errors"
	"slices"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

// TestNextPartsMatchBoards checks the hints against the whole list of
// boards: a plane is offered after the chosen ones exactly when some valid
// board holds it and them.
func TestNextPartsMatchBoards(t *testing.T) {
	g := New(0)
	part := func(p Plane) []byte {
		return []byte{uint8(p.Head.X()), uint8(p.Head.Y()), uint8(p.Tail.X()), uint8(p.Tail.Y())}
	}
	for _, chosen := range [][]Plane{
		nil,
		{{CellAt(0, 2), CellAt(3, 2)}},
		{{CellAt(4, 4), CellAt(4, 1)}},
		{{CellAt(0, 2), CellAt(3, 2)}, {CellAt(0, 7), CellAt(3, 7)}},
		{{CellAt(4, 4), CellAt(4, 1)}, {CellAt(9, 7), CellAt(6, 7)}},
	} {
		want := map[Plane]bool{}
		for _, m := range boardMoves() {
			var b []Plane
			for i := range 3 {
				b = append(b, Plane{argCell(m, 4*i), argCell(m, 4*i+2)})
			}
			if !containsAll(b, chosen) {
				continue
			}
			for _, p := range b {
				if !slices.Contains(chosen, p) {
					want[p] = true
				}
			}
		}
		var arg []byte
		for _, p := range chosen {
			arg = append(arg, part(p)...)
		}
		got, err := g.NextParts(0, arg, nil)
		if err != nil {
			t.Fatalf("%v: %v", chosen, err)
		}
		if len(got) != len(want) {
			t.Errorf("after %v: %d planes offered, want %d", chosen, len(got), len(want))
		}
		for _, m := range got {
			p := Plane{argCell(m, 0), argCell(m, 2)}
			if m.Kind != KindBoard || m.Len != 4 || !want[p] {
				t.Errorf("after %v: offered %+v, which no board completes", chosen, m)
			}
		}
	}
}

func containsAll(b, chosen []Plane) bool {
	for _, p := range chosen {
		if !slices.Contains(b, p) {
			return false
		}
	}
	return true
}

func TestNextPartsRefuses(t *testing.T) {
	g := New(0)
	for _, c := range []struct {
		name   string
		chosen []byte
	}{
		{"overlap", []byte{0, 2, 3, 2, 1, 2, 4, 2}},
		{"off the board", []byte{0, 0, 3, 0}},
		{"not a plane", []byte{0, 2, 2, 2}},
		{"three planes", make([]byte, 12)},
		{"half a plane", []byte{0, 2}},
		{"digit out of range", []byte{0, 12, 3, 2}},
	} {
		if _, err := g.NextParts(0, c.chosen, nil); !errors.Is(err, rules.ErrIllegal) {
			t.Errorf("%s: %v, want ErrIllegal", c.name, err)
		}
	}
	if err := g.SetBoard(0, Board{{CellAt(0, 2), CellAt(3, 2)}, {CellAt(0, 7), CellAt(3, 7)}, {CellAt(9, 4), CellAt(6, 4)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := g.NextParts(0, nil, nil); !errors.Is(err, rules.ErrNotYourTurn) {
		t.Errorf("after placing: %v, want ErrNotYourTurn", err)
	}
	if ms, err := g.NextParts(1, nil, nil); err != nil || len(ms) == 0 {
		t.Errorf("the other seat, still drawing: %d planes, %v", len(ms), err)
	}
}

// BenchmarkNextParts: the hub works out placement hints on its loop, once
// per HintReq: with no plane chosen (the list every board starts with),
// one, and two.
func BenchmarkNextParts(b *testing.B) {
	g := New(0)
	for _, c := range []struct {
		name   string
		chosen []byte
	}{{"none", nil}, {"one", []byte{0, 2, 3, 2}}, {"two", []byte{0, 2, 3, 2, 0, 7, 3, 7}}} {
		b.Run(c.name, func(b *testing.B) {
			buf := make([]rules.Move, 0, 168)
			for b.Loop() {
				buf, _ = g.NextParts(0, c.chosen, buf[:0])
			}
		})
	}
}
