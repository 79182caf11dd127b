package main

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/account"
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/statemachine"
)

// TestRecorderStoresHubRecords: the hub's Bomber records land in the store
// as two-seat record.Games with their winner, reason and leaver; a record
// the store refuses is not handed back for an endless retry.
func TestRecorderStoresHubRecords(t *testing.T) {
	ctx := context.Background()
	s, err := account.OpenSQLite(ctx, filepath.Join(t.TempDir(), "bomber.db"), account.NewHasher(account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 1))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rec := recorder(s, zap.NewNop())
	t0 := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	hub := []statemachine.Record{
		{Players: [2]string{"Albert", "Beth"}, Winner: 1, Leaver: -1, Reason: statemachine.Won, Guesses: [2]int{4, 5}},
		{Players: [2]string{"Larry", "Cindy"}, Winner: -1, Leaver: 0, Reason: statemachine.Abandoned},
		{Players: [2]string{"Novate", "Twofyw"}, Winner: -1, Leaver: -1, Reason: statemachine.Aborted},
	}
	for i, r := range hub {
		if err := rec(ctx, r, t0, t0.Add(time.Duration(i+1)*time.Minute)); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
	}
	// impossible: it ends before it starts
	if err := rec(ctx, hub[0], t0, t0.Add(-time.Minute)); err != nil {
		t.Fatalf("a refused record came back for a retry: %v", err)
	}
	games, err := s.Games(ctx, account.GameFilter{})
	if err != nil || len(games) != 3 {
		t.Fatalf("Games = %d, %v; want the 3 valid records", len(games), err)
	}
	want := []struct {
		seats   [2]string
		status  rules.Status
		winners []rules.Player
		reason  string
		leaver  rules.Player
	}{
		{[2]string{"Novate", "Twofyw"}, rules.Running, nil, "aborted", rules.Spectator},
		{[2]string{"Larry", "Cindy"}, rules.Running, nil, "abandoned", 0},
		{[2]string{"Albert", "Beth"}, rules.Won, []rules.Player{1}, "won", rules.Spectator},
	}
	for i, w := range want {
		g := games[i]
		if g.Game != "bomber" || len(g.Seats) != 2 || g.Seats[0].Name != w.seats[0] || g.Seats[1].Name != w.seats[1] ||
			g.Outcome.Status != w.status || !slices.Equal(g.Outcome.Winners, w.winners) || g.Reason != w.reason || g.Leaver != w.leaver ||
			g.End-g.Start != int64(3-i)*int64(time.Minute) {
			t.Errorf("game %d = %+v, want %+v", i, g, w)
		}
	}
}
