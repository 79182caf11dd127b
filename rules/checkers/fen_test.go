package checkers

import (
	"errors"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

func TestFENRoundTrip(t *testing.T) {
	tests := []struct{ in, canonical string }{
		{StartFEN, StartFEN},
		{"B:W21-32:B1-12", StartFEN},
		{"B:B1-12:W21-32.", StartFEN},
		{"W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29", "W:WK10,K15,18,24,27,28:B12,16,20,K22,K25,K29"},
		{"W:WK1-4:B", "W:WK1,K2,K3,K4:B"},
		{"B", "B:W:B"},
		{" W : W 5 , K 9 : B 1 ", "W:W5,K9:B1"},
	}
	for _, tt := range tests {
		p, err := parseFEN(tt.in)
		if err != nil {
			t.Errorf("parse %q: %v", tt.in, err)
			continue
		}
		if got := formatFEN(p); got != tt.canonical {
			t.Errorf("parse %q, format: %q, want %q", tt.in, got, tt.canonical)
		}
		if back, err := parseFEN(formatFEN(p)); err != nil || back != p {
			t.Errorf("%q does not read back: %v", formatFEN(p), err)
		}
	}
}

func TestFENErrors(t *testing.T) {
	for _, in := range []string{
		"", "X:W1:B2", "B:W1:W2", "B:W1:B1", "B:W1,1", "B:W0", "B:W33", "B:W5-3",
		"B:W1:B2:W3", "B:B29", "B:W4", "B:W1-13", "B:Q1", "B::W1", "B:W+5", "B:WK", "B:W1,,2",
	} {
		if _, err := parseFEN(in); !errors.Is(err, rules.ErrNotation) {
			t.Errorf("parse %q: err %v, want ErrNotation", in, err)
		}
	}
}

func TestFENMatchesGame(t *testing.T) {
	g := mustNew(t, nil)
	playText(t, g, "11-15", "22-18", "15x22", "25x18")
	want := "B:W18,21,23,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12"
	if got := g.FEN(); got != want {
		t.Errorf("FEN %s, want %s", got, want)
	}
	g2 := mustNew(t, rules.Options{OptFEN: want})
	if g2.View(rules.Spectator) == "" || g2.FEN() != want {
		t.Errorf("a game set up from %s reports %s", want, g2.FEN())
	}
}

func FuzzParseFEN(f *testing.F) {
	for _, s := range []string{StartFEN, "W:WK10,K15:B12,K22", "B:W21-32:B1-12", "B", "W:W5:B1."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := parseFEN(s)
		if err != nil {
			if !errors.Is(err, rules.ErrNotation) {
				t.Fatalf("parse %q: error %v does not wrap ErrNotation", s, err)
			}
			return
		}
		text := formatFEN(p)
		back, err := parseFEN(text)
		if err != nil || back != p {
			t.Fatalf("%q formats as %q, which reads back as %+v (%v)", s, text, back, err)
		}
		// Any position that parses must be playable.
		g, err := New(rules.Options{OptFEN: s})
		if err != nil {
			t.Fatalf("New with FEN %q: %v", s, err)
		}
		for _, m := range g.Legal(g.actor(), nil) {
			if _, err := g.Clone().Play(g.actor(), m, nil); err != nil {
				t.Fatalf("FEN %q: legal move %s refused: %v", s, g.FormatMove(m), err)
			}
		}
	})
}
