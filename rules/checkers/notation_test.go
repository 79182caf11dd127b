package checkers

import (
	"errors"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

func TestParseText(t *testing.T) {
	tests := []struct {
		in   string
		want rules.Move
	}{
		{"11-15", SimpleMove(11, 15)},
		{" 22x15 ", JumpMove(22, 15)},
		{"11x18x25", JumpMove(11, 18, 25)},
		{"11X18", JumpMove(11, 18)},
		{"11-18-25", JumpMove(11, 18, 25)},
		{"draw-offer", rules.Move{Kind: rules.KindOfferDraw}},
		{"Resign", rules.Move{Kind: rules.KindResign}},
	}
	for _, tt := range tests {
		got, err := parseText(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("parse %q = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "11", "11-", "-15", "11--15", "0-4", "11-33", "11x18-25", "a-b", "+1-5", "1-2-3-4-5-6-7-8-9-10-11-12-13-14-15-16-17"} {
		if _, err := parseText(bad); !errors.Is(err, rules.ErrNotation) {
			t.Errorf("parse %q: err %v, want ErrNotation", bad, err)
		}
	}
}

func TestParseMoveShortForm(t *testing.T) {
	g := mustNew(t, rules.Options{OptFEN: "B:W15,23:B11"})
	m, err := g.ParseMove(0, "11x27")
	if err != nil || m != JumpMove(11, 18, 27) {
		t.Errorf("short form 11x27 = %+v, %v; want 11x18x27", m, err)
	}
	// Two paths lead from 10 round to 10 again: the short form is ambiguous.
	g = mustNew(t, rules.Options{OptFEN: "B:W14,15,22,23:BK10"})
	if _, err := g.ParseMove(0, "10x10"); !errors.Is(err, rules.ErrNotation) {
		t.Errorf("ambiguous short form: err %v, want ErrNotation", err)
	}
	if m, err := g.ParseMove(0, "10x19x26x17x10"); err != nil || m != JumpMove(10, 19, 26, 17, 10) {
		t.Errorf("full path: %+v, %v", m, err)
	}
}

func TestPath(t *testing.T) {
	if got := Path(JumpMove(11, 18, 25)); len(got) != 3 || got[0] != 11 || got[2] != 25 {
		t.Errorf("Path = %v", got)
	}
	if got := Path(rules.Move{Kind: rules.KindResign}); got != nil {
		t.Errorf("Path of a resignation = %v", got)
	}
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"11-15", "22x15", "11x18x25", "draw-offer", "11x", "x", "32-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := parseText(s)
		if err != nil {
			if !errors.Is(err, rules.ErrNotation) {
				t.Fatalf("parse %q: error %v does not wrap ErrNotation", s, err)
			}
			return
		}
		text := formatMove(m)
		if back, err := parseText(text); err != nil || back != m {
			t.Fatalf("%q reads as %+v, formats as %q, reads back as %+v (%v)", s, m, text, back, err)
		}
		// Whatever parses, the game either plays or refuses cleanly.
		g := mustNew(t, nil)
		if mv, err := g.ParseMove(0, s); err == nil {
			if _, err := g.Play(0, mv, nil); err != nil && !errors.Is(err, rules.ErrIllegal) {
				t.Fatalf("play %q: %v", s, err)
			}
		}
	})
}
