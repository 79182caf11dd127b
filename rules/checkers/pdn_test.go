package checkers

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

// samplePDN is a short game written the way PDN files in the wild are:
// comments, a variation, a NAG, annotations, a short-form double jump.
const samplePDN = `[Event "Club night"]
[Black "Ann \"the wall\" Lee"]
[White "Bo"]
[Result "1-0"]

1. 11-15 {the Old Faithful opening} 22-18 2. 15x22 (2. 15-19 24x15) 25x18 $1
3. 12-16! 18-14?! 4. 9x18 23x14 5. 10x17 21x14 6. 16-19 24x15 ; a line comment
7. 7-11 26-22 8. 11x25 1-0
`

func TestParsePDN(t *testing.T) {
	recs, err := ParsePDN(samplePDN)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 {
		t.Fatalf("%d games, want 1", len(recs))
	}
	r := recs[0]
	if v, _ := r.Tag("Black"); v != `Ann "the wall" Lee` {
		t.Errorf("Black tag %q", v)
	}
	wantMoves := []string{"11-15", "22-18", "15x22", "25x18", "12-16", "18-14", "9x18", "23x14", "10x17", "21x14",
		"16-19", "24x15", "7-11", "26-22", "11x25"}
	if !slices.Equal(r.Moves, wantMoves) {
		t.Errorf("moves %v\nwant  %v", r.Moves, wantMoves)
	}
	if r.Result != ResultBlackWins {
		t.Errorf("result %q", r.Result)
	}
	g, err := r.Replay(nil)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if got := g.Record().Moves; got[len(got)-1] != "11x18x25" {
		t.Errorf("the short form 11x25 was recorded as %s, want the full path 11x18x25", got[len(got)-1])
	}
	if got := g.Scores(nil); !slices.Equal(got, []int{5, 4}) {
		t.Errorf("scores after the sample game %v, want [5 4]", got)
	}
}

func TestPDNRoundTrip(t *testing.T) {
	g := mustNew(t, nil)
	playText(t, g, "11-15", "22-18", "15x22", "25x18", "12-16", "draw-offer", "draw-decline", "18-14", "9x18", "23x14", "resign")
	rec := g.Record(Tag{"Event", "test"}, Tag{"White", `Back\slash "Q"`})
	text := rec.String()
	// Black resigned, so White won: 0-1. Offers are not PDN moves.
	if !strings.Contains(text, `[Result "0-1"]`) || !strings.HasSuffix(text, "0-1\n") || strings.Contains(text, "draw") {
		t.Errorf("record:\n%s", text)
	}
	recs, err := ParsePDN(text + "\n" + text)
	if err != nil || len(recs) != 2 {
		t.Fatalf("read back %d games: %v", len(recs), err)
	}
	if got := FormatPDN(recs); got != text+"\n"+text {
		t.Errorf("round trip changed the text:\n%s\nwant\n%s", got, text)
	}
	back, err := recs[1].Replay(nil)
	if err != nil {
		t.Fatal(err)
	}
	if back.FEN() != g.FEN() {
		t.Errorf("replayed game at %s, want %s", back.FEN(), g.FEN())
	}
}

func TestPDNFromSetUpPosition(t *testing.T) {
	fen := "W:WK26,30:B5,K8,9"
	g := mustNew(t, rules.Options{OptFEN: fen})
	playText(t, g, "30-25", "9-13", "25-21")
	rec := g.Record()
	if v, _ := rec.Tag("FEN"); v != fen {
		t.Errorf("FEN tag %q, want %q", v, fen)
	}
	text := rec.String()
	if !strings.Contains(text, "1... 30-25 2. 9-13 25-21 *") {
		t.Errorf("movetext of a game White starts:\n%s", text)
	}
	recs, err := ParsePDN(text)
	if err != nil {
		t.Fatal(err)
	}
	back, err := recs[0].Replay(nil)
	if err != nil || back.FEN() != g.FEN() {
		t.Errorf("replayed to %s (%v), want %s", back.FEN(), err, g.FEN())
	}
}

func TestPDNErrors(t *testing.T) {
	for _, bad := range []string{
		`[Event "x]`, `[Event x]`, `[ "x"]`, `1. 11-15 {open`, `1. 11-15 (22-18`, `1. e3-f4`, `[Event "x"`,
	} {
		if _, err := ParsePDN(bad); !errors.Is(err, rules.ErrNotation) {
			t.Errorf("ParsePDN(%q): err %v, want ErrNotation", bad, err)
		}
	}
	recs, err := ParsePDN("1. 11-15 15-19 *")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := recs[0].Replay(nil); !errors.Is(err, rules.ErrNotYourTurn) && !errors.Is(err, rules.ErrIllegal) {
		t.Errorf("replaying a Black move on White's turn: err %v", err)
	}
}

func FuzzParsePDN(f *testing.F) {
	for _, s := range []string{samplePDN, "1. 11-15 22-18 *", `[FEN "W:W5:B1"]` + "\n1... 5-1 0-1", "[A \"\\\\\"]\n{c} (v) 2-0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		recs, err := ParsePDN(s)
		if err != nil {
			if !errors.Is(err, rules.ErrNotation) {
				t.Fatalf("error %v does not wrap ErrNotation", err)
			}
			return
		}
		text := FormatPDN(recs)
		again, err := ParsePDN(text)
		if err != nil {
			t.Fatalf("written PDN does not read back: %v\n%s", err, text)
		}
		if got := FormatPDN(again); got != text {
			t.Fatalf("PDN changed on a second round trip:\n%s\nthen\n%s", text, got)
		}
		for _, r := range recs {
			r.Replay(nil) // may fail on illegal moves, must not panic
		}
	})
}
