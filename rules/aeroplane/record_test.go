package aeroplane

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

// botGame plays a whole game between bots from a dice seed and returns the
// game with the moves made, in order.
func botGame(t testing.TB, players int, opts rules.Options, seed uint64) (*Game, []rules.Move) {
	t.Helper()
	g, err := New(players, opts, rand.New(rand.NewPCG(seed, 1)))
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]*Bot, players)
	for p := range bots {
		bots[p] = NewBot(seed + uint64(p))
	}
	var moves []rules.Move
	for g.Outcome().Status == rules.Running {
		p := g.Turn()
		m, err := bots[p].Choose(rules.SeatOf(g, p))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Play(p, m, nil); err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
		if len(moves) > 20000 {
			t.Fatal("game does not end")
		}
	}
	return g, moves
}

func TestFullGameReplaysFromItsSeed(t *testing.T) {
	for _, players := range []int{2, 4} {
		g, moves := botGame(t, players, nil, 42)
		again, err := New(players, nil, rand.New(rand.NewPCG(42, 1)))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range moves {
			if _, err := again.Play(again.Turn(), m, nil); err != nil {
				t.Fatalf("replay refused %s: %v", formatMove(m), err)
			}
		}
		if again.View(rules.Spectator) != g.View(rules.Spectator) || again.Record().String() != g.Record().String() {
			t.Fatalf("%d players: the same seed and choices gave a different game", players)
		}
		if again.Outcome().Status != rules.Won {
			t.Fatalf("replayed game not finished: %+v", again.Outcome())
		}
	}
}

func TestRecordRoundTripAndReplay(t *testing.T) {
	opts := rules.Options{OptStack: "on", OptExactFinish: "on", OptFlightCapture: "on"}
	g, _ := botGame(t, 3, opts, 7)
	rec := g.Record()
	text := rec.String()
	back, err := ParseRecord(text)
	if err != nil {
		t.Fatalf("ParseRecord: %v", err)
	}
	if back.Players != 3 || back.Settings != g.Settings() || !slices.Equal(back.Entries, rec.Entries) {
		t.Fatal("record changed through its text")
	}
	re, err := Replay(back, valueDie(0))
	if err != nil {
		t.Fatalf("Replay: %v", err)
	}
	if re.View(rules.Spectator) != g.View(rules.Spectator) {
		t.Fatalf("replayed record ends as\n%s\nwant\n%s", re.View(rules.Spectator), g.View(rules.Spectator))
	}
	if !strings.Contains(text, "yellow roll ") || !strings.Contains(text, "yellow move ") {
		t.Fatalf("record does not list rolls and moves:\n%.200s", text)
	}
}

func TestReplayContinuesWithItsRand(t *testing.T) {
	rec, err := ParseRecord("aeroplane\nplayers 2\nyellow roll 6\nyellow move 0\n")
	if err != nil {
		t.Fatal(err)
	}
	g, err := Replay(rec, valueDie(3))
	if err != nil {
		t.Fatal(err)
	}
	steps := mustPlay(t, g, Yellow, Roll())
	if steps[0].A != 4 {
		t.Fatalf("roll after the record gave %d, want 4 from the fallback Rand", steps[0].A)
	}
}

func TestParseRecordErrors(t *testing.T) {
	tests := []struct {
		name, text string
		want       error
	}{
		{"empty", "", rules.ErrNotation},
		{"wrong header", "chess\nplayers 2\n", rules.ErrNotation},
		{"too many players", "aeroplane\nplayers 5\n", rules.ErrNotation},
		{"unknown option", "aeroplane\nplayers 2\noption wind on\n", rules.ErrNotation},
		{"option twice", "aeroplane\nplayers 2\noption stack on\noption stack off\n", rules.ErrNotation},
		{"seat not playing", "aeroplane\nplayers 2\nred roll 6\n", rules.ErrNotation},
		{"roll 7", "aeroplane\nplayers 2\nyellow roll 7\n", rules.ErrNotation},
		{"option after moves", "aeroplane\nplayers 2\nyellow roll 1\noption stack on\n", rules.ErrNotation},
	}
	for _, tt := range tests {
		if _, err := ParseRecord(tt.text); !errors.Is(err, tt.want) {
			t.Errorf("%s: err %v, want %v", tt.name, err, tt.want)
		}
	}
}

func TestReplayRefusesIllegalRecords(t *testing.T) {
	tests := []struct {
		name, text string
		want       error
	}{
		{"move before roll", "aeroplane\nplayers 2\nyellow move 0\n", rules.ErrIllegal},
		{"launch on a 3", "aeroplane\nplayers 2\nyellow roll 6\nyellow move 0\nyellow roll 3\nyellow move 1\n", rules.ErrIllegal},
		{"out of turn", "aeroplane\nplayers 2\nblue roll 6\n", rules.ErrNotYourTurn},
	}
	for _, tt := range tests {
		rec, err := ParseRecord(tt.text)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if _, err := Replay(rec, valueDie(0)); !errors.Is(err, tt.want) {
			t.Errorf("%s: err %v, want %v", tt.name, err, tt.want)
		}
	}
}

func FuzzParseRecord(f *testing.F) {
	f.Add("aeroplane\nplayers 2\nyellow roll 6\nyellow move 0\nyellow roll 2\nyellow move 0\nblue roll 3\n")
	f.Add("aeroplane\nplayers 4\noption stack on\noption exact-finish on\n# comment\n\ngreen roll 1\n")
	f.Add("aeroplane\nplayers 3\nyellow roll 6\nred resign\nyellow move 0\nblue resign\n")
	f.Add("aeroplane\nplayers 3\noption six-bias off\nyellow roll 6\nyellow move 3\nyellow roll 6\nyellow move 3\nyellow roll 6\n")
	f.Fuzz(func(t *testing.T, text string) {
		rec, err := ParseRecord(text)
		if err != nil {
			if !errors.Is(err, rules.ErrNotation) {
				t.Fatalf("error %v does not wrap ErrNotation", err)
			}
			return
		}
		again, err := ParseRecord(rec.String())
		if err != nil {
			t.Fatalf("written record does not parse: %v\n%s", err, rec.String())
		}
		if again.Players != rec.Players || again.Settings != rec.Settings || !slices.Equal(again.Entries, rec.Entries) {
			t.Fatalf("record changed through its text")
		}
		g, err := Replay(rec, valueDie(0))
		if err != nil {
			return
		}
		if got := g.Record().String(); got != rec.String() {
			t.Fatalf("replay records\n%s\nwant\n%s", got, rec.String())
		}
	})
}
