package paisho

import (
	"slices"
	"testing"
)

// FuzzParseMoveText checks that any move the parser accepts writes back to
// text that parses to the same move, and that the parser never panics.
func FuzzParseMoveText(f *testing.F) {
	for _, s := range []string{"S(0,8)", "(-8,0)-(-6,3)", "D(-4,-3)", "offer-draw", "resign", "(0,0)-(1,", "L(-0,08)", "3H.S(0,8)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMoveText(s)
		if err != nil {
			return
		}
		text := MoveText(m)
		back, err := ParseMoveText(text)
		if err != nil || back != m {
			t.Fatalf("%q parses to %+v, written %q, which parses to %+v (%v)", s, m, text, back, err)
		}
	})
}

// FuzzParseGame checks that any game text the parser accepts formats back
// to text that parses to the same records, and that replaying it never
// panics.
func FuzzParseGame(f *testing.F) {
	f.Add("1H.S(0,8)\n1G.L(3,3)\n2H.offer-draw\n2H.(0,8)-(0,2)\n2G.decline-draw\n")
	f.Add("1H.W(0,0)\n1G.L(1,1)\n2H.(0,0)-(1,1)\n")
	f.Add("1H.resign\n")
	f.Add("\n\n1H.L(0,0)\r\n")
	f.Fuzz(func(t *testing.T, s string) {
		recs, err := ParseGame(s)
		if err != nil {
			return
		}
		text := FormatGame(recs)
		back, err := ParseGame(text)
		if err != nil || !slices.Equal(back, recs) {
			t.Fatalf("%q parses to %d records, written %q, which parses to %d (%v)", s, len(recs), text, len(back), err)
		}
		if g, err := Replay(text, nil); err == nil && g.Notation() != text {
			t.Fatalf("replayed notation %q differs from %q", g.Notation(), text)
		}
	})
}
