package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/account"
	"github.com/bomber-game/bomber/cmd/internal/gamerec"
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/games"
	"github.com/bomber-game/bomber/rules/record"
)

// checkersRecord is a real checkers game, played to its end with random
// legal moves, as bomberd would store it.
func checkersRecord(t *testing.T) record.Game {
	t.Helper()
	var seed record.Seed
	seed[0] = 11
	rec, err := gamerec.PlayRandom("checkers", []record.Seat{{Name: "Beth"}, {Name: "Cindy"}}, nil, seed, time.Date(2025, 2, 3, 4, 5, 6, 0, time.UTC), 1000)
	if err != nil || rec.Reason != "won" {
		t.Fatalf("checkers game: %s, %v", rec.Reason, err)
	}
	rec.ID = 7
	return rec
}

// changedMove is rec with its first move from the k-th on that had an
// alternative replaced by that alternative, legal at that point.
func changedMove(t *testing.T, rec record.Game, k int) record.Game {
	t.Helper()
	spec, _ := games.Lookup(rec.Game)
	g, err := spec.New(len(rec.Seats), rec.Options, record.Rand(rec.Seed))
	if err != nil {
		t.Fatal(err)
	}
	out := rec
	out.Moves = append([]record.Move(nil), rec.Moves...)
	for i, m := range rec.Moves {
		if i >= k {
			for _, alt := range g.Legal(m.Seat, nil) {
				if text := g.FormatMove(alt); alt.Kind < rules.KindOfferDraw && text != m.Text {
					out.Moves[i].Text = text
					return out
				}
			}
		}
		mv, err := g.ParseMove(m.Seat, m.Text)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Play(m.Seat, mv, nil); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatalf("no move from %d on had an alternative", k+1)
	return out
}

func writeJSON(t *testing.T, name string, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestRecordsReplayThroughTheRules(t *testing.T) {
	good := checkersRecord(t)
	otherWinner := good
	otherWinner.Outcome.Winners = []rules.Player{1 - good.Outcome.Winners[0]}
	goodFile := writeJSON(t, "good.json", good)

	code, out := runCmd("--record", goodFile)
	if code != exitOK || !strings.HasSuffix(out, "1 passed, 0 failed\n") || !strings.Contains(out, "PASS record 7 (checkers") {
		t.Fatalf("good record: exit %d\n%s", code, out)
	}
	for what, bad := range map[string]record.Game{
		"changed move":  changedMove(t, good, len(good.Moves)/2),
		"changed first": changedMove(t, good, 0),
		"other winner":  otherWinner,
	} {
		code, out := runCmd("--record", goodFile, "--record", writeJSON(t, "bad.json", bad))
		if code != exitDiff || !strings.HasSuffix(out, "1 passed, 1 failed\n") || !strings.Contains(out, "FAIL record 7 (checkers") {
			t.Errorf("%s: exit %d, want %d:\n%s", what, code, exitDiff, out)
		}
	}
	// a JSON array (as "bomberctl games --json" writes) is read too
	code, out = runCmd("--record", writeJSON(t, "two.json", []record.Game{good, otherWinner}))
	if code != exitDiff || !strings.HasSuffix(out, "1 passed, 1 failed\n") {
		t.Errorf("array of a good and a bad record: exit %d\n%s", code, out)
	}
	unknown := good
	unknown.Game = "go"
	code, out = runCmd("--record", writeJSON(t, "go.json", unknown))
	if code != exitUsage || !strings.Contains(out, "could not be replayed") {
		t.Errorf("record of an unknown game: exit %d\n%s", code, out)
	}
	code, out = runCmd("--record", writeJSON(t, "junk.json", "not a record"))
	if code != exitUsage || !strings.Contains(out, "ERROR") {
		t.Errorf("a file that holds no record: exit %d\n%s", code, out)
	}
}

func TestRecordsFromTheStore(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bomber.db")
	ctx := t.Context()
	s, err := account.OpenSQLite(ctx, db, account.NewHasher(account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 1))
	if err != nil {
		t.Fatal(err)
	}
	good := checkersRecord(t)
	bad := changedMove(t, good, 3)
	bad.Seed[1] = 1 // stored records have distinct seeds (checkers draws nothing from it)
	goodID, err := s.RecordGame(ctx, good)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordGame(ctx, bad); err != nil {
		t.Fatal(err)
	}
	s.Close()

	code, out := runCmd("--store", "sqlite:"+db)
	if code != exitDiff || !strings.HasSuffix(out, "1 passed, 1 failed\n") {
		t.Errorf("whole store: exit %d\n%s", code, out)
	}
	code, out = runCmd("--store", "sqlite:"+db, "--id", strconv.FormatUint(goodID, 10))
	if code != exitOK || !strings.HasSuffix(out, "1 passed, 0 failed\n") {
		t.Errorf("--id of the good record: exit %d\n%s", code, out)
	}
	if code, out := runCmd("--store", "sqlite:"+db, "--id", "999"); code != exitUsage || !strings.Contains(out, "no such game") {
		t.Errorf("--id of no record: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{
		{"--id", "1"},
		{"--store", "postgres:x"},
		{"--record", "x.json", goldenDir},
	} {
		if code, out := runCmd(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want usage:\n%s", args, code, out)
		}
	}
}
