package gamerec

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/aeroplane"
	"github.com/bomber-game/bomber/rules/checkers"
	"github.com/bomber-game/bomber/rules/dots"
	"github.com/bomber-game/bomber/rules/paisho"
	"github.com/bomber-game/bomber/rules/record"
)

var twoSeats = []record.Seat{{Name: "Beth"}, {Name: "Cindy", Bot: true}}

func play(t *testing.T, name string, seats []record.Seat, seedByte byte) record.Game {
	t.Helper()
	var seed record.Seed
	seed[0], seed[31] = seedByte, 0x5a
	rec, err := PlayRandom(name, seats, nil, seed, time.Date(2025, 6, 7, 8, 9, 10, 0, time.UTC), 5000)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Reason != "won" && rec.Reason != "drawn" {
		t.Fatalf("%s with seed %d did not finish in 5000 moves", name, seedByte)
	}
	rec.ID = 42
	return rec
}

// exportPDN exports a checkers record and reads it back as PDN: the one
// game it must hold, and the text.
func exportPDN(t *testing.T, rec *record.Game) ([]checkers.Record, string) {
	t.Helper()
	text, err := Export(rec)
	if err != nil {
		t.Fatal(err)
	}
	pdn, err := checkers.ParsePDN(text)
	if err != nil || len(pdn) != 1 {
		t.Fatalf("ParsePDN = %d games, %v:\n%s", len(pdn), err, text)
	}
	return pdn, text
}

// TestExportReadsBackInTheGamesOwnNotation: what Export writes, the game's
// own reader reads back to the same game.
func TestExportReadsBackInTheGamesOwnNotation(t *testing.T) {
	t.Run("checkers PDN", func(t *testing.T) {
		rec := play(t, checkers.Name, twoSeats, 1)
		pdn, _ := exportPDN(t, &rec)
		for tag, want := range map[string]string{"Black": "Beth", "White": "Cindy", "Event": "Bomber game 42", "Date": "2025.06.07", "GameType": "21"} {
			if v, _ := pdn[0].Tag(tag); v != want {
				t.Errorf("tag %s = %q, want %q", tag, v, want)
			}
		}
		var moves []string
		for _, m := range rec.Moves {
			moves = append(moves, m.Text)
		}
		if !slices.Equal(pdn[0].Moves, moves) {
			t.Errorf("PDN moves %v, want %v", pdn[0].Moves, moves)
		}
		g, err := pdn[0].Replay(nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Outcome(); got.Status != rec.Outcome.Status || !slices.Equal(got.Winners, rec.Outcome.Winners) {
			t.Errorf("PDN replays to %+v, record says %+v", got, rec.Outcome)
		}
		wantResult := map[rules.Player]string{0: checkers.ResultBlackWins, 1: checkers.ResultWhiteWins}[rec.Outcome.Winners[0]]
		if pdn[0].Result != wantResult {
			t.Errorf("PDN result %q, want %q", pdn[0].Result, wantResult)
		}
	})
	t.Run("checkers PDN of an agreed draw", func(t *testing.T) {
		rec, err := PlayRandom(checkers.Name, twoSeats, nil, record.Seed{1}, time.Date(2025, 6, 7, 8, 9, 10, 0, time.UTC), 6)
		if err != nil {
			t.Fatal(err)
		}
		rec.Reason, rec.Outcome = record.Agreed, rules.Outcome{Status: rules.Drawn, Reason: "draw agreed"}
		pdn, text := exportPDN(t, &rec)
		if v, _ := pdn[0].Tag("Result"); pdn[0].Result != checkers.ResultDraw || v != checkers.ResultDraw {
			t.Errorf("PDN result %q, tag %q, want %q:\n%s", pdn[0].Result, v, checkers.ResultDraw, text)
		}
	})
	t.Run("paisho record", func(t *testing.T) {
		rec := play(t, paisho.Name, twoSeats, 4)
		text, err := Export(&rec)
		if err != nil {
			t.Fatal(err)
		}
		head, body, ok := strings.Cut(text, "\n\n")
		if !ok || !strings.Contains(head, `[Seat0 "Beth"]`+"\n") {
			t.Fatalf("no tag pairs naming the seats, then a blank line:\n%s", text)
		}
		if !strings.HasPrefix(body, "1H.") || !strings.Contains(body, "\n1G.") {
			t.Errorf("moves not numbered 1H. 1G. ...:\n%s", body)
		}
		g, err := paisho.Replay(body, rec.Options)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Outcome(); got.Status != rec.Outcome.Status || !slices.Equal(got.Winners, rec.Outcome.Winners) {
			t.Errorf("read back: %+v, want %+v", got, rec.Outcome)
		}
	})
	t.Run("dots record", func(t *testing.T) {
		rec := play(t, dots.Name, []record.Seat{{Name: "Larry"}, {Name: "Albert"}, {Name: "Novate"}}, 2)
		text, err := Export(&rec)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, "# Seat2: Novate\n") {
			t.Errorf("no seat comment in\n%s", text)
		}
		g, err := dots.ReadRecord(text)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Scores(nil); !slices.Equal(got, rec.Scores) || g.Outcome().Status != rec.Outcome.Status {
			t.Errorf("read back: scores %v %s, want %v %s", got, g.Outcome().Status, rec.Scores, rec.Outcome.Status)
		}
	})
	t.Run("aeroplane record", func(t *testing.T) {
		rec := play(t, aeroplane.Name, []record.Seat{{Name: "Larry"}, {Name: "Albert"}, {Name: "Novate"}, {Name: "Beth"}}, 3)
		text, err := Export(&rec)
		if err != nil {
			t.Fatal(err)
		}
		r, err := aeroplane.ParseRecord(text)
		if err != nil {
			t.Fatal(err)
		}
		// The rolls are in the record: any generator replays it.
		g, err := aeroplane.Replay(r, record.Rand(record.Seed{}))
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Outcome(); got.Status != rec.Outcome.Status || !slices.Equal(got.Winners, rec.Outcome.Winners) {
			t.Errorf("read back: %+v, want %+v", got, rec.Outcome)
		}
	})
	for _, name := range []string{"bomber"} {
		t.Run(name+" move list", func(t *testing.T) {
			rec := play(t, name, twoSeats, 4)
			text, err := Export(&rec)
			if err != nil {
				t.Fatal(err)
			}
			head, body, ok := strings.Cut(text, "\n\n")
			if !ok {
				t.Fatalf("no blank line after the header:\n%s", text)
			}
			for _, tag := range []string{`[Game "` + name + `"]`, `[Id "42"]`, `[Seat0 "Beth"]`, `[Seat1 "Cindy"]`, `[Bots "1"]`,
				`[Reason "won"]`, `[Result "` + Result(&rec) + `"]`, `[Start "2025-06-07T08:09:10Z"]`} {
				if !strings.Contains(head, tag+"\n") {
					t.Errorf("header lacks %s:\n%s", tag, head)
				}
			}
			lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
			if len(lines) != len(rec.Moves) {
				t.Fatalf("%d move lines, want %d", len(lines), len(rec.Moves))
			}
			for i, m := range rec.Moves {
				if want := fmt.Sprintf("%d. %d %s", i+1, m.Seat, m.Text); lines[i] != want {
					t.Fatalf("line %d = %q, want %q", i+1, lines[i], want)
				}
			}
		})
	}
}

// TestReplayCatchesTampering: a record replays to what it stores; a changed
// move, winner or score does not.
func TestReplayCatchesTampering(t *testing.T) {
	for i, name := range []string{"checkers", "dots", "aeroplane", "paisho", "bomber"} {
		rec := play(t, name, twoSeats, byte(10+i))
		if _, err := Replay(&rec); err != nil {
			t.Fatalf("%s: untouched record: %v", name, err)
		}
		tampered := map[string]func(g *record.Game){
			"last move dropped": func(g *record.Game) { g.Moves = g.Moves[:len(g.Moves)-1] },
			"a move by the other seat": func(g *record.Game) {
				g.Moves[len(g.Moves)/2].Seat = 1 - g.Moves[len(g.Moves)/2].Seat
			},
			"other winner": func(g *record.Game) { g.Outcome.Winners = []rules.Player{1 - g.Outcome.Winners[0]} },
			"score":        func(g *record.Game) { g.Scores = []int{g.Scores[0] + 1, g.Scores[1]} },
			"won as resigned": func(g *record.Game) {
				g.Reason = "resigned"
				g.Outcome.Winners = []rules.Player{1 - g.Outcome.Winners[0]}
			},
		}
		for what, edit := range tampered {
			g := rec
			g.Moves = slices.Clone(rec.Moves)
			g.Outcome.Winners = slices.Clone(rec.Outcome.Winners)
			edit(&g)
			if _, err := Replay(&g); err == nil {
				t.Errorf("%s, %s: replayed without complaint", name, what)
			} else if strings.HasPrefix(what, "other winner") && !errors.Is(err, record.ErrMismatch) {
				t.Errorf("%s, %s: %v, want ErrMismatch", name, what, err)
			}
		}
	}
}

func TestUnknownGame(t *testing.T) {
	rec := record.Game{Game: "go", Seats: twoSeats}
	if _, err := Replay(&rec); err == nil || !strings.Contains(err.Error(), `unknown game "go"`) {
		t.Errorf("Replay of an unknown game = %v", err)
	}
	if text, err := Export(&rec); err != nil || !strings.HasPrefix(text, "[Game \"go\"]\n") {
		t.Errorf("Export of an unknown game = %q, %v; want the plain move list", text, err)
	}
}
