package account

import (
	"errors"
	"testing"
	"time"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
)

// testGamePages: a player's games come a page at a time, newest first, and
// the pages neither overlap nor leave a game out.
func testGamePages(t *testing.T, open opener) {
	s := open(t, cheapHasher())
	ctx := t.Context()
	var rg ratedGame
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i := range 7 {
		if _, err := s.RecordGame(ctx, rg.make("dots", []string{"Ada", "Beth"}, []rules.Player{0}, record.Won, t0.Add(time.Duration(i)*time.Hour), false)); err != nil {
			t.Fatal(err)
		}
	}
	var ends []int64
	for skip := 0; skip < 9; skip += 3 {
		gs, err := s.Games(ctx, GameFilter{User: "Ada", Limit: 3, Skip: skip})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gs {
			ends = append(ends, g.End)
		}
	}
	if len(ends) != 7 {
		t.Fatalf("pages of 3 hold %d games, want 7", len(ends))
	}
	for i, e := range ends {
		if want := t0.Add(time.Duration(6-i) * time.Hour).UnixNano(); e != want {
			t.Fatalf("game %d of the pages ended at %d, want %d (newest first, no overlap)", i, e, want)
		}
	}
}

// testDeleteAnonymises: deleting an account keeps its games, which name
// record.DeletedPlayer instead, keeps the opponent's rating, frees the name
// (a new account of that name has no games), and no one can take the
// placeholder as a name.
func testDeleteAnonymises(t *testing.T, open opener) {
	s := open(t, cheapHasher())
	ctx := t.Context()
	for _, n := range []string{"Ada", "Beth"} {
		if err := s.Add(ctx, n, "secret-pw1"); err != nil {
			t.Fatal(err)
		}
	}
	var rg ratedGame
	id, err := s.RecordGame(ctx, rg.make("checkers", []string{"Ada", "Beth"}, []rules.Player{1}, record.Resigned, time.Now(), true))
	if err != nil {
		t.Fatal(err)
	}
	before := ratingsOf(t, s, "checkers", "Beth")["Beth"]
	if err := s.Delete(ctx, "Ada"); err != nil {
		t.Fatal(err)
	}
	g, err := s.Game(ctx, id)
	if err != nil {
		t.Fatalf("the game went with the account: %v", err)
	}
	if g.Seats[0].Name != record.DeletedPlayer || g.Seats[1].Name != "Beth" {
		t.Fatalf("seats after deleting Ada: %+v", g.Seats)
	}
	if gs, _ := s.Games(ctx, GameFilter{User: "Beth"}); len(gs) != 1 || gs[0].Seats[0].Name != record.DeletedPlayer {
		t.Fatalf("Beth's history after deleting Ada: %+v", gs)
	}
	if after := ratingsOf(t, s, "checkers", "Beth")["Beth"]; after != before {
		t.Fatalf("Beth's rating changed when Ada left: %+v -> %+v", before, after)
	}
	if err := s.Register(ctx, "Ada", "another-pw1"); err != nil {
		t.Fatalf("the name of a deleted account is not free again: %v", err)
	}
	if gs, _ := s.Games(ctx, GameFilter{User: "Ada"}); len(gs) != 0 {
		t.Fatalf("the new Ada inherits %d games", len(gs))
	}
	if err := s.Add(ctx, record.DeletedPlayer, "secret-pw1"); !errors.Is(err, ErrBadName) {
		t.Fatalf("Add(%q) = %v, want ErrBadName", record.DeletedPlayer, err)
	}
}
