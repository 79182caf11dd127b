package bomber

import (
	"errors"
	"strings"
	"testing"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/rulestest"
)

func TestPlacementCounts(t *testing.T) {
	ps := Placements()
	if len(ps) != 168 {
		t.Fatalf("%d single placements, want 168", len(ps))
	}
	cells := make([]Set, len(ps))
	for i, p := range ps {
		var err error
		if cells[i], err = p.Cells(); err != nil || cells[i].Len() != PlaneCells {
			t.Fatalf("placement %v: %d cells, err %v", p, cells[i].Len(), err)
		}
	}
	pairs, triples := 0, 0
	for i := range ps {
		for j := i + 1; j < len(ps); j++ {
			if !cells[i].Inter(cells[j]).Empty() {
				continue
			}
			pairs++
			ij := cells[i].Union(cells[j])
			for k := j + 1; k < len(ps); k++ {
				if ij.Inter(cells[k]).Empty() {
					triples++
				}
			}
		}
	}
	if pairs != 6436 || triples != 66816 {
		t.Fatalf("pairs %d triples %d, want 6436 and 66816", pairs, triples)
	}
	if n := len(New(0).Legal(0, nil)); n != 66816 {
		t.Fatalf("Legal while drawing lists %d boards, want 66816", n)
	}
}

func TestPlaneShape(t *testing.T) {
	up, err := Plane{CellAt(0, 2), CellAt(3, 2)}.Cells()
	if err != nil {
		t.Fatal(err)
	}
	want := []Cell{CellAt(0, 2), CellAt(1, 0), CellAt(1, 1), CellAt(1, 2), CellAt(1, 3), CellAt(1, 4), CellAt(2, 2), CellAt(3, 1), CellAt(3, 2), CellAt(3, 3)}
	for _, c := range want {
		if !up.Has(c) {
			t.Errorf("upward plane misses %v", c)
		}
	}
	right, _ := Plane{CellAt(5, 9), CellAt(5, 6)}.Cells() // nose toward column 9
	for _, c := range []Cell{CellAt(5, 9), CellAt(3, 8), CellAt(7, 8), CellAt(5, 7), CellAt(4, 6), CellAt(6, 6)} {
		if !right.Has(c) {
			t.Errorf("rightward plane misses %v", c)
		}
	}
	bad := []struct {
		name string
		p    Plane
		err  error
	}{
		{"diagonal", Plane{CellAt(0, 0), CellAt(3, 3)}, ErrPlaneShape},
		{"too close", Plane{CellAt(0, 2), CellAt(2, 2)}, ErrPlaneShape},
		{"same cell", Plane{CellAt(4, 4), CellAt(4, 4)}, ErrPlaneShape},
		{"wing off board", Plane{CellAt(0, 1), CellAt(3, 1)}, ErrOffBoard},
		{"tail off board", Plane{CellAt(7, 0), CellAt(4, 0)}, ErrOffBoard},
		{"cell 100", Plane{Cell(100), CellAt(3, 2)}, ErrOffBoard},
	}
	for _, tt := range bad {
		if _, err := tt.p.Cells(); !errors.Is(err, tt.err) {
			t.Errorf("%s: err %v, want %v", tt.name, err, tt.err)
		}
	}
}

// sample is a valid board: three planes pointing up.
var sample = Board{{CellAt(0, 2), CellAt(3, 2)}, {CellAt(0, 7), CellAt(3, 7)}, {CellAt(5, 2), CellAt(8, 2)}}

func TestBoardValidation(t *testing.T) {
	if _, err := sample.Cells(); err != nil {
		t.Fatalf("sample board: %v", err)
	}
	overlap := Board{sample[0], sample[1], {CellAt(2, 2), CellAt(5, 2)}}
	if _, err := overlap.Cells(); !errors.Is(err, ErrOverlap) {
		t.Errorf("overlap: %v", err)
	}
	g := New(0)
	if err := g.SetBoard(0, overlap); !errors.Is(err, rules.ErrIllegal) {
		t.Errorf("SetBoard with overlap: %v, want ErrIllegal", err)
	}
	if g.Placed(0) {
		t.Error("rejected board was kept")
	}
}

func startedGame(t *testing.T) *Game {
	t.Helper()
	g := New(0)
	if err := g.SetBoard(1, sample); err != nil {
		t.Fatal(err)
	}
	if g.Phase() != Drawing {
		t.Fatal("guessing began with one board")
	}
	if err := g.SetBoard(0, sample); err != nil {
		t.Fatal(err)
	}
	if err := g.SetBoard(0, sample); !errors.Is(err, rules.ErrNotYourTurn) {
		t.Fatalf("second board accepted: %v", err)
	}
	if g.Phase() != Guessing || g.Turn() != 0 {
		t.Fatalf("phase %v turn %v", g.Phase(), g.Turn())
	}
	return g
}

func TestGuessing(t *testing.T) {
	g := startedGame(t)
	if _, err := g.Single(1, CellAt(0, 0)); !errors.Is(err, rules.ErrNotYourTurn) {
		t.Fatalf("seat 1 guessed out of turn: %v", err)
	}
	steps := []struct {
		p    rules.Player
		c    Cell
		want Result
	}{
		{0, CellAt(0, 2), Head}, {1, CellAt(9, 9), Wrong}, {0, CellAt(1, 0), Body}, {1, CellAt(0, 0), Wrong},
	}
	for _, s := range steps {
		r, err := g.Single(s.p, s.c)
		if err != nil || r != s.want {
			t.Fatalf("seat %d guess %v: %v %v, want %v", s.p, s.c, r, err, s.want)
		}
	}
	if n := g.Revealed(1).Len(); n != 2 {
		t.Fatalf("seat 1 has %d revealed cells, want 2", n)
	}
	right, err := g.Double(0, CellAt(0, 7), CellAt(3, 7))
	if err != nil || !right || g.Revealed(1).Len() != 12 {
		t.Fatalf("right double: %v %v, revealed %d", right, err, g.Revealed(1).Len())
	}
	if err := g.Miss(1); err != nil || g.Turn() != 0 || g.Guesses(1) != 3 {
		t.Fatalf("miss: %v turn %v guesses %d", err, g.Turn(), g.Guesses(1))
	}
	wrong, err := g.Double(0, CellAt(3, 2), CellAt(0, 2)) // reversed: not the plane
	if err != nil || wrong {
		t.Fatalf("reversed double: %v %v", wrong, err)
	}
}

func TestWinByDoubles(t *testing.T) {
	g := startedGame(t)
	for i, pl := range sample {
		if right, err := g.Double(0, pl.Head, pl.Tail); err != nil || !right {
			t.Fatalf("double %d: %v %v", i, right, err)
		}
		if i < 2 {
			if _, w := g.Winner(); w {
				t.Fatal("won early")
			}
			g.Single(1, CellAt(9, 9))
		}
	}
	if w, over := g.Winner(); !over || w != 0 {
		t.Fatalf("winner %v over %v", w, over)
	}
	if _, err := g.Single(1, CellAt(9, 9)); !errors.Is(err, rules.ErrGameOver) {
		t.Fatalf("guess after the end: %v", err)
	}
	out := g.Outcome()
	if out.Status != rules.Won || out.Winners[0] != 0 {
		t.Fatalf("outcome %+v", out)
	}
}

func TestWinBySingles(t *testing.T) {
	g := startedGame(t)
	all, _ := sample.Cells()
	n := 0
	for c := Cell(0); c < Size*Size; c++ {
		if !all.Has(c) {
			continue
		}
		if _, over := g.Winner(); over {
			t.Fatalf("over after %d cells", n)
		}
		if _, err := g.Single(0, c); err != nil {
			t.Fatal(err)
		}
		n++
		if _, over := g.Winner(); !over {
			g.Single(1, CellAt(9, 9))
		}
	}
	if w, over := g.Winner(); !over || w != 0 || n != WinCells || g.Guesses(0) != 30 {
		t.Fatalf("winner %v over %v after %d cells", w, over, n)
	}
}

func TestNotation(t *testing.T) {
	g := New(0)
	for _, text := range []string{"34", "02-32", "02-32 07-37 52-82", "-"} {
		m, err := g.ParseMove(0, text)
		if err != nil || g.FormatMove(m) != text {
			t.Errorf("%q: %+v %v -> %q", text, m, err, g.FormatMove(m))
		}
	}
	for _, bad := range []string{"", "3", "345", "a4", "02-3", "02-32 07-37", "02-32 07-37 5282"} {
		if _, err := g.ParseMove(0, bad); !errors.Is(err, rules.ErrNotation) {
			t.Errorf("%q parsed: %v", bad, err)
		}
	}
}

func TestViewHidesEnemyPlanes(t *testing.T) {
	g := startedGame(t)
	g.Single(0, CellAt(0, 2))
	v := g.View(1)
	if want := "..x....H..\n"; !strings.Contains(v, want) {
		t.Errorf("seat 1 view lacks its hit plane row %q:\n%s", want, v)
	}
	v0 := g.View(0)
	if strings.Contains(v0, "seat 1 planes:\n..h....H") || !strings.Contains(v0, "seat 1 planes:\n..h.......\n") {
		t.Errorf("seat 0 sees seat 1's hidden planes:\n%s", v0)
	}
}

func TestConformance(t *testing.T) {
	rulestest.Conformance(t, Spec(), rulestest.Config{Games: 6, MaxPlies: 2000, Seed: 1})
	rulestest.Conformance(t, Spec(), rulestest.Config{Games: 3, Options: rules.Options{"first": "1"}, Seed: 50})
}

func TestGuessAllocatesNothing(t *testing.T) {
	g := startedGame(t)
	allocs := testing.AllocsPerRun(100, func() {
		if g.Phase() != Guessing {
			return
		}
		p := g.Turn()
		g.Single(p, CellAt(9, 9))
	})
	if allocs != 0 {
		t.Fatalf("a guess allocates %.1f times", allocs)
	}
}
