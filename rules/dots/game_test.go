package dots

import (
	"errors"
	"slices"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

func TestOptions(t *testing.T) {
	tests := []struct {
		players    int
		opts       rules.Options
		rows, cols int
		err        error
	}{
		{2, nil, 5, 5, nil},
		{4, rules.Options{OptRows: "3", OptCols: "8"}, 3, 8, nil},
		{3, rules.Options{OptRows: "8"}, 8, 5, nil},
		{2, rules.Options{OptRows: "2"}, 0, 0, rules.ErrOption},
		{2, rules.Options{OptCols: "9"}, 0, 0, rules.ErrOption},
		{2, rules.Options{OptCols: "x"}, 0, 0, rules.ErrOption},
		{2, rules.Options{"size": "4"}, 0, 0, rules.ErrOption},
		{1, nil, 0, 0, rules.ErrPlayers},
		{5, nil, 0, 0, rules.ErrPlayers},
	}
	for _, tc := range tests {
		g, err := Spec().New(tc.players, tc.opts, nil)
		if !errors.Is(err, tc.err) {
			t.Errorf("New(%d, %v): err %v, want %v", tc.players, tc.opts, err, tc.err)
			continue
		}
		if err != nil {
			continue
		}
		gm := g.(*Game)
		if gm.Rows() != tc.rows || gm.Cols() != tc.cols || len(g.Legal(0, nil)) != tc.rows*(tc.cols-1)+(tc.rows-1)*tc.cols {
			t.Errorf("New(%d, %v): %dx%d dots with %d lines", tc.players, tc.opts, gm.Rows(), gm.Cols(), len(g.Legal(0, nil)))
		}
		if got := g.ToMove(nil); !slices.Equal(got, []rules.Player{0}) {
			t.Errorf("New(%d, %v): to move %v, want the host, seat 0", tc.players, tc.opts, got)
		}
	}
}

// TestTurnOrder: a line that closes no box passes the turn to the next seat
// in joining order, wrapping round to the host.
func TestTurnOrder(t *testing.T) {
	for players := 2; players <= 4; players++ {
		g := mustNew(t, players, 4, 4)
		lines := []string{"a1-b1", "c1-d1", "a2-a3", "d3-d4", "b4-c4", "b2-c2", "a3-a4", "c2-c3"}
		for i, text := range lines {
			if want := rules.Player(i % players); g.turn != want {
				t.Fatalf("%d players, move %d: seat %d to move, want %d", players, i, g.turn, want)
			}
			play(t, g, text)
		}
	}
}

// TestExtraTurn: closing a box scores it and the mover plays again.
func TestExtraTurn(t *testing.T) {
	g := mustNew(t, 3, 3, 3)
	play(t, g, "a1-b1", "a1-a2", "b1-b2") // seats 0, 1, 2: three sides of a1's box
	if g.turn != 0 {
		t.Fatalf("seat %d to move, want 0", g.turn)
	}
	steps := play(t, g, "a2-b2")
	want := []rules.Step{
		{Kind: StepLine, Player: 0, A: 1, B: 0, C: 0},
		{Kind: StepBox, Player: 0, A: 0, B: 0, C: 1},
	}
	if !slices.Equal(steps, want) {
		t.Errorf("steps %+v, want %+v", steps, want)
	}
	if g.turn != 0 || !slices.Equal(g.Scores(nil), []int{1, 0, 0}) || g.Owner(0, 0) != 0 {
		t.Errorf("after the box: seat %d to move, scores %v, owner %d; want seat 0, [1 0 0], 0", g.turn, g.Scores(nil), g.Owner(0, 0))
	}
	play(t, g, "c1-c2") // no box: the turn passes on
	if g.turn != 1 {
		t.Errorf("seat %d to move after a line that closed nothing, want 1", g.turn)
	}
}

// TestDoubleBox: one line closing two boxes scores both.
func TestDoubleBox(t *testing.T) {
	g := mustNew(t, 2, 3, 3)
	// Both left boxes share line a2-b2: draw the other three sides of each first.
	play(t, g, "a1-b1", "a1-a2", "b1-b2", "a2-a3", "a3-b3", "b2-b3")
	mover := g.turn
	steps := play(t, g, "a2-b2")
	boxes := 0
	for _, s := range steps {
		if s.Kind == StepBox {
			boxes++
		}
	}
	if boxes != 2 || g.Scores(nil)[mover] != 2 || g.turn != mover {
		t.Errorf("double box: %d box steps, scores %v, seat %d to move; want 2 boxes to seat %d, who moves again", boxes, g.Scores(nil), g.turn, mover)
	}
	if g.Owner(0, 0) != mover || g.Owner(1, 0) != mover || g.Owner(0, 1) != rules.Spectator {
		t.Errorf("owners %d %d %d", g.Owner(0, 0), g.Owner(1, 0), g.Owner(0, 1))
	}
}

// TestIllegal: refused moves leave the game as it was.
func TestIllegal(t *testing.T) {
	g := mustNew(t, 2, 3, 3)
	play(t, g, "a1-b1")
	tests := []struct {
		name string
		p    rules.Player
		m    rules.Move
		err  error
	}{
		{"drawn", 1, Line(0, 0, 0, 1), rules.ErrIllegal},
		{"diagonal", 1, Line(0, 0, 1, 1), rules.ErrIllegal},
		{"long", 1, Line(0, 0, 0, 2), rules.ErrIllegal},
		{"off board", 1, Line(2, 2, 2, 3), rules.ErrIllegal},
		{"reversed args", 1, rules.Move{Kind: KindLine, Len: 4, Arg: [16]uint8{0, 2, 0, 1}}, rules.ErrIllegal},
		{"resign with arguments", 1, rules.Move{Kind: rules.KindResign, Len: 1}, rules.ErrIllegal},
		{"draw offer", 1, rules.Move{Kind: rules.KindOfferDraw}, rules.ErrIllegal},
		{"out of turn", 0, Line(1, 0, 1, 1), rules.ErrNotYourTurn},
	}
	before := g.View(rules.Spectator)
	for _, tc := range tests {
		if _, err := g.Play(tc.p, tc.m, nil); !errors.Is(err, tc.err) {
			t.Errorf("%s: err %v, want %v", tc.name, err, tc.err)
		}
		if g.View(rules.Spectator) != before || len(g.moves) != 1 {
			t.Fatalf("%s: a refused move changed the game", tc.name)
		}
	}
}

// TestEndOfGame plays whole games and checks the result against the
// scores: most boxes wins, seats tied for first all win, all tied is a draw.
func TestEndOfGame(t *testing.T) {
	// 3x3 dots: seat 0 leaves a box open and seat 1 takes all four.
	g := mustNew(t, 2, 3, 3)
	play(t, g, "a1-b1", "b1-c1", "a1-a2", "c1-c2", "a2-a3", "c2-c3", "a3-b3", "b3-c3") // outside
	play(t, g, "b1-b2")                                                                // seat 0
	play(t, g, "a2-b2")                                                                // seat 1 closes a1's box
	play(t, g, "b2-c2")                                                                // seat 1 closes b1's box
	play(t, g, "b2-b3")                                                                // seat 1 closes both bottom boxes
	if !g.Over() || len(g.ToMove(nil)) != 0 {
		t.Fatalf("all 12 lines drawn but the game goes on")
	}
	if out := g.Outcome(); out.Status != rules.Won || !slices.Equal(out.Winners, []rules.Player{1}) || !slices.Equal(g.Scores(nil), []int{0, 4}) {
		t.Errorf("outcome %+v scores %v, want seat 1 winning 4-0", out, g.Scores(nil))
	}
	if _, err := g.Play(0, Line(0, 0, 0, 1), nil); !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("move after the end: %v", err)
	}

	tests := []struct {
		scores  []int
		status  rules.Status
		winners []rules.Player
	}{
		{[]int{2, 2}, rules.Drawn, nil},
		{[]int{3, 1}, rules.Won, []rules.Player{0}},
		{[]int{3, 3, 2}, rules.Won, []rules.Player{0, 1}},
		{[]int{2, 2, 2, 2}, rules.Drawn, nil},
		{[]int{1, 4, 0, 4}, rules.Won, []rules.Player{1, 3}},
	}
	for _, tc := range tests {
		g := mustNew(t, len(tc.scores), 3, 3)
		g.left = 0
		copy(g.scores[:], tc.scores)
		out := g.Outcome()
		if out.Status != tc.status || !slices.Equal(out.Winners, tc.winners) || out.Reason == "" {
			t.Errorf("scores %v: outcome %+v, want %v %v", tc.scores, out, tc.status, tc.winners)
		}
	}
}

func TestView(t *testing.T) {
	g := mustNew(t, 2, 3, 3)
	play(t, g, "a1-b1", "a1-a2", "b1-b2", "a2-b2")
	want := "dots 3x3, 2 players; seat 1 to move; scores 0 1\n" +
		"   a   b   c\n" +
		"1  +---+   +\n" +
		"   | 1 |\n" +
		"2  +---+   +\n" +
		"\n" +
		"3  +   +   +\n"
	if got := g.View(0); got != want {
		t.Errorf("view:\n%s\nwant:\n%s", got, want)
	}
}
