package bomber

import (
	"errors"
	"slices"
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

func TestObserveLayout(t *testing.T) {
	g := startedGame(t)
	g.Single(0, CellAt(0, 2))               // seat 1's head
	g.Single(1, CellAt(9, 9))               // a miss on seat 0's grid
	g.Double(0, CellAt(0, 7), CellAt(3, 7)) // seat 1's second plane, right
	enemy := func(v rules.View, c Cell) byte { return v.Cells[Size*Size+int(c)] }
	own := func(v rules.View, c Cell) byte { return v.Cells[c] }
	v1, v0, spec := g.Observe(1), g.Observe(0), g.Observe(rules.Spectator)
	if len(v1.Cells) != 200 || len(v1.Extra) != 91 {
		t.Fatalf("view sizes %d and %d, want 200 and 91", len(v1.Cells), len(v1.Extra))
	}
	for _, v := range []rules.View{v0, v1, spec} {
		if enemy(v, CellAt(0, 2)) != ViewHitHead || enemy(v, CellAt(0, 7)) != ViewHitHead || enemy(v, CellAt(1, 7)) != ViewHitBody {
			t.Errorf("viewer %d: revealed cells of seat 1 read %d %d %d, want 5 5 4", v.Viewer, enemy(v, CellAt(0, 2)), enemy(v, CellAt(0, 7)), enemy(v, CellAt(1, 7)))
		}
		if own(v, CellAt(9, 9)) != ViewMiss {
			t.Errorf("viewer %d: seat 1's miss on (9,9) reads %d, want 3", v.Viewer, own(v, CellAt(9, 9)))
		}
	}
	if enemy(v1, CellAt(5, 2)) != ViewOwnHead || enemy(v1, CellAt(6, 2)) != ViewOwnBody {
		t.Errorf("seat 1 does not see its own unhit plane: %d %d", enemy(v1, CellAt(5, 2)), enemy(v1, CellAt(6, 2)))
	}
	if enemy(v0, CellAt(5, 2)) != ViewUnknown || enemy(spec, CellAt(5, 2)) != ViewUnknown || own(v1, CellAt(0, 2)) != ViewUnknown {
		t.Error("an unhit plane shows to someone other than its seat")
	}
	if own(v0, CellAt(0, 2)) != ViewOwnHead {
		t.Errorf("seat 0 does not see its own head: %d", own(v0, CellAt(0, 2)))
	}
	i := placementIndex(Plane{CellAt(0, 7), CellAt(3, 7)})
	want := []byte{1, 1, ViewNoWinner, 0, 2, 0, 1}
	if !slices.Equal(spec.Extra[:7], want) || spec.Extra[7+i/8] != 1<<(i%8) || spec.Extra[7+21+i/8] != 1<<(i%8) {
		t.Errorf("extra %v, want %v and placement %d tried and right for seat 0", spec.Extra[:7], want, i)
	}
	if !strings.Contains(g.View(rules.Spectator), "seat 0 doubles: 07-37+\nseat 1 doubles:\n") {
		t.Errorf("view lacks the doubles:\n%s", g.View(rules.Spectator))
	}
}

func TestRedactErasesEnemyPlanes(t *testing.T) {
	g := startedGame(t)
	g.Single(0, CellAt(0, 2))
	r := g.Redact(0).(*Game)
	if b, placed := r.Board(1); b != erased || !placed {
		t.Fatalf("redacted game holds seat 1's board %v (placed %v)", b, placed)
	}
	if b, _ := r.Board(0); b != sample {
		t.Fatalf("redacted game lost seat 0's own board: %v", b)
	}
	if r.Revealed(1) != g.Revealed(1) || r.RevealedHeads(1) != g.RevealedHeads(1) {
		t.Fatal("redacted game lost what seat 0 revealed")
	}
	g.Single(1, CellAt(9, 9))
	r.Single(1, CellAt(9, 9))
	res, _ := r.Single(0, CellAt(5, 2)) // seat 1's head, erased
	if res != Wrong {
		t.Errorf("a redacted game answers %v on an erased head, want wrong", res)
	}
	if g.Guesses(0) != 1 || g.Revealed(1).Len() != 1 {
		t.Error("guessing on the redacted copy changed the real game")
	}
}

func TestResign(t *testing.T) {
	g := New(0)
	m, err := g.ParseMove(1, "resign")
	if err != nil || g.FormatMove(m) != "resign" || !g.SecretMove(BoardMove(sample)) || g.SecretMove(m) {
		t.Fatalf("resign parses as %+v, %v", m, err)
	}
	steps, err := g.Play(1, m, nil) // while drawing, seat 1 not having placed
	if err != nil || len(steps) != 1 || steps[0] != (rules.Step{Kind: StepResign, Player: 1}) {
		t.Fatalf("resign while drawing: %v %v", steps, err)
	}
	if out := g.Outcome(); out.Status != rules.Won || !slices.Equal(out.Winners, []rules.Player{0}) || out.Reason != "seat 1 resigned" {
		t.Fatalf("outcome %+v", out)
	}
	if _, err := g.Play(0, m, nil); !errors.Is(err, rules.ErrGameOver) {
		t.Fatalf("resign after the end: %v", err)
	}
	g = startedGame(t) // seat 0 to guess; seat 1 resigns off turn
	if _, err := g.Play(1, m, nil); err != nil || g.Outcome().Winners[0] != 0 {
		t.Fatalf("resign off turn: %v, %+v", err, g.Outcome())
	}
}

func TestPlayGuessAllocatesNothing(t *testing.T) {
	g := startedGame(t)
	steps := make([]rules.Step, 0, 4)
	single, double := SingleMove(CellAt(9, 9)), DoubleMove(Plane{CellAt(0, 0), CellAt(3, 0)})
	allocs := testing.AllocsPerRun(100, func() {
		steps, _ = g.Play(g.Turn(), single, steps[:0])
		steps, _ = g.Play(g.Turn(), double, steps[:0])
	})
	if allocs != 0 || g.Phase() != Guessing {
		t.Fatalf("a guess through Play allocates %.1f times", allocs)
	}
}
