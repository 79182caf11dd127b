package paisho

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

func TestNotationExamples(t *testing.T) {
	tests := []struct {
		line string
		turn int
		p    rules.Player
		m    rules.Move
	}{
		{"3H.S(0,8)", 3, host, Deploy(SkyBison, Point{0, 8})},
		{"4G.(-8,0)-(-6,3)", 4, guest, MoveTile(Point{-8, 0}, Point{-6, 3})},
		{"1H.L(-4,-8)", 1, host, Deploy(Lotus, Point{-4, -8})},
		{"12G.D(0,0)", 12, guest, Deploy(WhiteDragon, Point{0, 0})},
		{"7H.(1,-1)-(-5,5)", 7, host, MoveTile(Point{1, -1}, Point{-5, 5})},
		{"2G.offer-draw", 2, guest, OfferDraw()},
		{"2H.accept-draw", 2, host, AcceptDraw()},
		{"5H.decline-draw", 5, host, DeclineDraw()},
		{"9G.resign", 9, guest, Resign()},
	}
	for _, tt := range tests {
		if got := Line(tt.turn, tt.p, tt.m); got != tt.line {
			t.Errorf("Line = %q, want %q", got, tt.line)
		}
		turn, p, m, err := ParseLine(tt.line)
		if err != nil || turn != tt.turn || p != tt.p || m != tt.m {
			t.Errorf("ParseLine(%q) = %d %d %+v %v", tt.line, turn, p, m, err)
		}
	}
}

func TestNotationRejects(t *testing.T) {
	for _, s := range []string{
		"", "H.S(0,8)", "3X.S(0,8)", "3H S(0,8)", "0H.S(0,8)", "03H.S(0,8)", "3H.", "3H.Q(0,0)",
		"S(0,9)", "S(5,8)", "S(0 ,8)", "S(0,8", "S0,8)", "S(0,8)x", "(0,0)(1,1)", "(0,0)-", "(0,0)-(1,1",
		"(0,0)--(1,1)", "(+1,0)-(0,0)", "(1,0)-(0,0)-(1,1)", "(100,0)-(0,0)", "L(,0)", "draw", "s(0,8)",
	} {
		if _, _, _, err := ParseLine("1H." + s); err == nil && s != "" {
			t.Errorf("ParseLine(%q) accepted", "1H."+s)
		}
		if _, err := ParseMoveText(s); !errors.Is(err, rules.ErrNotation) {
			t.Errorf("ParseMoveText(%q): err %v, want ErrNotation", s, err)
		}
	}
}

func TestParseMoveChecksTheTurn(t *testing.T) {
	g, _ := New(2, nil)
	mustPlay(t, g, host, Deploy(Lotus, Point{0, 0}))
	tests := []struct {
		text string
		ok   bool
	}{
		{"1G.W(1,1)", true},
		{"W(1,1)", true},
		{" 1G.W(1,1) ", true},
		{"1H.W(1,1)", false}, // the host's letter
		{"2G.W(1,1)", false}, // the wrong turn
	}
	for _, tt := range tests {
		m, err := g.ParseMove(guest, tt.text)
		if tt.ok && (err != nil || m != Deploy(Wheel, Point{1, 1})) {
			t.Errorf("ParseMove(%q) = %+v, %v", tt.text, m, err)
		}
		if !tt.ok && !errors.Is(err, rules.ErrNotation) {
			t.Errorf("ParseMove(%q): err %v, want ErrNotation", tt.text, err)
		}
	}
}

// randomGame plays seeded random actions (draw offers and declines
// included, never accepted) and returns the game.
func randomGame(t *testing.T, seed uint64, plies int) *Game {
	t.Helper()
	g, _ := New(2, nil)
	r := rand.New(rand.NewPCG(seed, 3))
	for range plies {
		to := g.ToMove(nil)
		if len(to) == 0 {
			break
		}
		legal := slices.DeleteFunc(g.Legal(to[0], nil), func(m rules.Move) bool {
			return m.Kind == rules.KindAcceptDraw || m.Kind == rules.KindResign
		})
		mustPlay(t, g, to[0], legal[r.IntN(len(legal))])
	}
	return g
}

func TestWholeGameRoundTrip(t *testing.T) {
	for seed := range uint64(10) {
		g := randomGame(t, seed, 400)
		text := g.Notation()
		recs, err := ParseGame(text)
		if err != nil {
			t.Fatalf("seed %d: ParseGame: %v", seed, err)
		}
		if !slices.Equal(recs, g.History()) {
			t.Fatalf("seed %d: parsed records differ from the history", seed)
		}
		if again := FormatGame(recs); again != text {
			t.Fatalf("seed %d: the text changed on a second round trip", seed)
		}
		back, err := Replay(text, nil)
		if err != nil {
			t.Fatalf("seed %d: Replay: %v", seed, err)
		}
		if back.View(rules.Spectator) != g.View(rules.Spectator) || !slices.Equal(back.Scores(nil), g.Scores(nil)) {
			t.Fatalf("seed %d: the replayed game differs", seed)
		}
	}
}

func TestGameTextLooksLikeTheSeed(t *testing.T) {
	g, _ := New(2, nil)
	mustPlay(t, g, host, Deploy(SkyBison, Point{-8, 0}))
	mustPlay(t, g, guest, Deploy(Lotus, Point{3, 3}))
	mustPlay(t, g, host, OfferDraw())
	mustPlay(t, g, host, MoveTile(Point{-8, 0}, Point{-6, 3}))
	mustPlay(t, g, guest, DeclineDraw())
	want := "1H.S(-8,0)\n1G.L(3,3)\n2H.offer-draw\n2H.(-8,0)-(-6,3)\n2G.decline-draw\n"
	if got := g.Notation(); got != want {
		t.Errorf("notation\n%s\nwant\n%s", got, want)
	}
}

func TestParseGameRejects(t *testing.T) {
	tests := []struct {
		name, text string
		want       error
	}{
		{"wrong seat", "1H.L(0,0)\n1H.L(1,1)\n", rules.ErrNotation},
		{"wrong number", "1H.L(0,0)\n2G.L(1,1)\n", rules.ErrNotation},
		{"bad move", "1H.L(0,0)\n1G.X\n", rules.ErrNotation},
		{"illegal move", "1H.L(0,8)\n", rules.ErrIllegal},
		{"after the end", "1H.resign\n1H.L(0,0)\n", rules.ErrGameOver},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Replay(tt.text, nil); !errors.Is(err, tt.want) {
				t.Errorf("Replay: err %v, want %v", err, tt.want)
			}
		})
	}
	if recs, err := ParseGame("\n 1H.L(0,0) \n\n1G.L(1,1)\n"); err != nil || len(recs) != 2 {
		t.Errorf("blank lines and spaces: %d records, err %v", len(recs), err)
	}
}
