package dots

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
)

// TestObserve: the position of doc.go's example gives the documented bytes
// to every viewer.
func TestObserve(t *testing.T) {
	g := mustNew(t, 2, 3, 3)
	play(t, g, "a1-b1", "a1-a2", "b1-b2", "a2-b2")
	wantCells := []byte{
		1, 0, 1, 0, 0, 0, // horizontal lines
		1, 1, 0, 0, 0, 0, // vertical lines
		2, 0, 0, 0, // boxes: a1's is seat 1's
	}
	for _, viewer := range []rules.Player{rules.Spectator, 0, 1} {
		v := g.Observe(viewer)
		if v.Viewer != viewer || v.Status != rules.Running || !slices.Equal(v.ToMove, []rules.Player{1}) ||
			!slices.Equal(v.Scores, []int{0, 1}) || !slices.Equal(v.Cells, wantCells) || !slices.Equal(v.Extra, []byte{3, 3, 2, 0}) {
			t.Errorf("viewer %d: %+v, want cells %v extra [3 3 2 0]", viewer, v, wantCells)
		}
	}
	// A 4x3 grid: vertical line c3-c4 is the last vertical line, box b3 the last box.
	g = mustNew(t, 3, 4, 3)
	play(t, g, "c3-c4")
	if _, err := g.Play(2, Resign(), nil); err != nil {
		t.Fatal(err)
	}
	v := g.Observe(rules.Spectator)
	nh, nv := 4*2, 3*3
	if len(v.Cells) != nh+nv+3*2 || v.Cells[nh+nv-1] != 1 || slices.Contains(v.Cells[:nh+nv-1], 1) {
		t.Errorf("4x3 after c3-c4: cells %v", v.Cells)
	}
	if !slices.Equal(v.Extra, []byte{4, 3, 3, 1 << 2}) || !slices.Equal(v.ToMove, []rules.Player{1}) {
		t.Errorf("4x3 after seat 2 resigned: extra %v, to move %v; want [4 3 3 4], [1]", v.Extra, v.ToMove)
	}
}

// TestRedact: the redacted copy is the whole game (nothing is hidden) and
// playing on it leaves the real game alone.
func TestRedact(t *testing.T) {
	g := mustNew(t, 2, 4, 4)
	play(t, g, "a1-b1", "b2-b3")
	before := g.View(rules.Spectator)
	r := g.Redact(1)
	if r.View(1) != g.View(1) {
		t.Fatalf("redacted copy differs:\n%s\nreal:\n%s", r.View(1), g.View(1))
	}
	if _, err := r.Play(0, Line(3, 0, 3, 1), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Play(0, Resign(), nil); err != nil {
		t.Fatal(err)
	}
	if g.View(rules.Spectator) != before || g.Over() || len(g.Moves()) != 2 {
		t.Errorf("playing on the redacted copy changed the real game:\n%s", g.View(rules.Spectator))
	}
}

// TestResignTwoPlayers: the seat not on turn resigns and the other wins.
func TestResignTwoPlayers(t *testing.T) {
	g := mustNew(t, 2, 3, 3)
	play(t, g, "a1-b1")
	steps, err := g.Play(0, Resign(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(steps, []rules.Step{{Kind: StepResign, Player: 0}}) {
		t.Errorf("steps %+v", steps)
	}
	if out := g.Outcome(); out.Status != rules.Won || !slices.Equal(out.Winners, []rules.Player{1}) || len(g.ToMove(nil)) != 0 {
		t.Errorf("after seat 0 resigned: %+v, to move %v; want seat 1 winning", out, g.ToMove(nil))
	}
	if _, err := g.Play(1, Resign(), nil); !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("resign after the end: %v", err)
	}
}

// TestResignManyPlayers: in a game of four, a seat that resigns has its
// turns skipped and keeps its boxes; the last seat left wins.
func TestResignManyPlayers(t *testing.T) {
	g := mustNew(t, 4, 3, 3)
	play(t, g, "a1-b1", "a1-a2", "b1-b2", "a2-b2") // seat 3 scores box a1
	if g.turn != 3 || g.scores[3] != 1 {
		t.Fatalf("seat %d to move with scores %v", g.turn, g.Scores(nil))
	}
	if _, err := g.Play(3, Resign(), nil); err != nil { // on turn: seat 0 moves next
		t.Fatal(err)
	}
	if g.turn != 0 || g.Over() || !slices.Equal(g.Scores(nil), []int{0, 0, 0, 1}) || g.Owner(0, 0) != 3 {
		t.Fatalf("after seat 3 resigned: seat %d to move, over %v, scores %v, owner %d", g.turn, g.Over(), g.Scores(nil), g.Owner(0, 0))
	}
	if _, err := g.Play(1, Resign(), nil); err != nil { // off turn
		t.Fatal(err)
	}
	if _, err := g.Play(1, Resign(), nil); !errors.Is(err, rules.ErrNotYourTurn) {
		t.Errorf("a seat that left resigns again: %v, want ErrNotYourTurn", err)
	}
	play(t, g, "b1-c1") // seat 0; seat 1 is skipped
	if g.turn != 2 {
		t.Fatalf("seat %d to move after seat 0, want 2 (seat 1 left)", g.turn)
	}
	play(t, g, "c1-c2") // seat 2; seat 3 is skipped
	if g.turn != 0 {
		t.Fatalf("seat %d to move after seat 2, want 0 (seat 3 left)", g.turn)
	}
	if _, err := g.Play(3, Line(2, 0, 2, 1), nil); !errors.Is(err, rules.ErrNotYourTurn) {
		t.Errorf("a seat that left draws a line: %v", err)
	}
	if !g.Gone(1) || g.Gone(0) || !strings.HasPrefix(g.View(rules.Spectator), "dots 3x3, 4 players; seat 0 to move; scores 0 0 0 1; left 1 3\n") {
		t.Errorf("Gone(1) %v Gone(0) %v, view:\n%s", g.Gone(1), g.Gone(0), g.View(rules.Spectator))
	}
	if _, err := g.Play(0, Resign(), nil); err != nil {
		t.Fatal(err)
	}
	if out := g.Outcome(); out.Status != rules.Won || !slices.Equal(out.Winners, []rules.Player{2}) || len(g.ToMove(nil)) != 0 {
		t.Errorf("one seat left: %+v, want seat 2 winning", out)
	}
}

// TestResignedSeatCannotWin: a seat that left with most boxes does not win
// when the lines run out.
func TestResignedSeatCannotWin(t *testing.T) {
	g := mustNew(t, 3, 3, 3)
	play(t, g, "a1-b1", "a1-a2", "a2-b2", "b1-c1", "c1-c2", "b2-c2", "a2-a3", "a3-b3")
	play(t, g, "b1-b2") // seat 2 closes both top boxes
	if g.scores[2] != 2 || g.turn != 2 {
		t.Fatalf("scores %v", g.Scores(nil))
	}
	if _, err := g.Play(2, Resign(), nil); err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		play(t, g, g.FormatMove(g.Legal(g.turn, nil)[0]))
	}
	out := g.Outcome()
	if slices.Contains(out.Winners, 2) || g.Scores(nil)[2] != 2 {
		t.Errorf("outcome %+v scores %v: the seat that left must keep its boxes and not win", out, g.Scores(nil))
	}
}

// TestNotationEveryKind: every legal line and resign round-trip through
// notation, and a record of notation replays from its seed to the same game.
func TestNotationEveryKind(t *testing.T) {
	g := mustNew(t, 3, 4, 4)
	rec := &record.Game{Game: Name, Options: rules.Options{OptRows: "4", OptCols: "4"}, Seats: make([]record.Seat, 3), Reason: "won"}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; !g.Over(); n++ {
		p := g.turn
		var m rules.Move
		switch n {
		case 5:
			p, m = (g.turn+1)%3, Resign() // off turn
		case 20:
			m = Resign()
		default:
			for _, l := range g.Legal(p, nil) {
				back, err := g.ParseMove(p, g.FormatMove(l))
				if err != nil || back != l {
					t.Fatalf("%+v formats as %q, parses back as %+v, %v", l, g.FormatMove(l), back, err)
				}
			}
			legal := g.Legal(p, nil)
			m = legal[rng.IntN(len(legal))]
		}
		text := g.FormatMove(m)
		if back, err := g.ParseMove(p, text); err != nil || back != m {
			t.Fatalf("%+v formats as %q, parses back as %+v, %v", m, text, back, err)
		}
		if _, err := g.Play(p, m, nil); err != nil {
			t.Fatalf("seat %d %s: %v", p, text, err)
		}
		rec.Moves = append(rec.Moves, record.Move{Seat: p, Text: text})
	}
	rec.Outcome = g.Outcome()
	back, err := record.Replay(Spec(), rec)
	if err != nil {
		t.Fatal(err)
	}
	if back.View(rules.Spectator) != g.View(rules.Spectator) {
		t.Errorf("replay differs:\n%s\nwant:\n%s", back.View(rules.Spectator), g.View(rules.Spectator))
	}
	text := g.Record()
	rg, err := ReadRecord(text)
	if err != nil || rg.Record() != text {
		t.Errorf("game record with resignations does not read back: %v\n%s", err, text)
	}
}

// TestOptionSpecs: Spec.Options lists exactly the keys New accepts, with
// defaults and ranges that New honours.
func TestOptionSpecs(t *testing.T) {
	spec := Spec()
	if len(spec.Options) != 2 {
		t.Fatalf("options %+v", spec.Options)
	}
	for _, o := range spec.Options {
		for _, v := range []int{o.Min, o.Max} {
			if _, err := spec.New(2, rules.Options{o.Key: itoa(v)}, nil); err != nil {
				t.Errorf("%s=%d: %v", o.Key, v, err)
			}
		}
		for _, v := range []int{o.Min - 1, o.Max + 1} {
			if _, err := spec.New(2, rules.Options{o.Key: itoa(v)}, nil); !errors.Is(err, rules.ErrOption) {
				t.Errorf("%s=%d: %v, want ErrOption", o.Key, v, err)
			}
		}
		g, _ := spec.New(2, nil, nil)
		def, _ := spec.New(2, rules.Options{o.Key: o.Default}, nil)
		if g.View(rules.Spectator) != def.View(rules.Spectator) {
			t.Errorf("%s: default %q is not what New uses", o.Key, o.Default)
		}
	}
}
