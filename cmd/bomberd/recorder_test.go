package main

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"go.uber.org/zap"

	"github.com/bomber-game/bomber/account"
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/server"
)

// TestRecorderStoresHubRecords: the hub's Bomber records land in the store
// as two-seat record.Games with their winner, reason and leaver, several in
// a call; a record the store refuses is not handed back for an endless
// retry, nor does it keep the others of its batch from being stored.
func TestRecorderStoresHubRecords(t *testing.T) {
	ctx := context.Background()
	s, err := account.OpenSQLite(ctx, filepath.Join(t.TempDir(), "bomber.db"), account.NewHasher(account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 1))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rec := recorder(s, zap.NewNop(), nil)
	t0 := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	seats := func(a, b string) []record.Seat { return []record.Seat{{Name: a}, {Name: b}} }
	hub := []record.Game{
		{Game: "bomber", Seats: seats("Albert", "Beth"), Outcome: rules.Outcome{Status: rules.Won, Winners: []rules.Player{1}}, Leaver: rules.Spectator, Reason: "won"},
		{Game: "bomber", Seats: seats("Larry", "Cindy"), Leaver: 0, Reason: "abandoned"},
		{Game: "bomber", Seats: seats("Novate", "Twofyw"), Leaver: rules.Spectator, Reason: "aborted"},
	}
	fs := make([]server.FinishedGame, len(hub))
	for i, r := range hub {
		// the engine's clock: the game starts at 5s and lasts i+1 minutes
		r.Start, r.End = int64(5*time.Second), int64(5*time.Second+time.Duration(i+1)*time.Minute)
		fs[i] = server.FinishedGame{Record: r, Start: t0, End: t0.Add(time.Duration(i+1) * time.Minute)}
	}
	if n, err := rec(ctx, fs[:2]); n != 2 || err != nil {
		t.Fatalf("a batch of 2 records: stored %d, %v", n, err)
	}
	// impossible: it ends before it starts. It shares a batch with the
	// third game, which is stored all the same.
	bad := fs[0]
	bad.Record.Start, bad.Record.End, bad.End = int64(time.Minute), 0, t0.Add(-time.Minute)
	if n, err := rec(ctx, []server.FinishedGame{bad, fs[2]}); n != 2 || err != nil {
		t.Fatalf("a refused record came back for a retry: stored %d, %v", n, err)
	}
	games, err := s.Games(ctx, account.GameFilter{})
	if err != nil || len(games) != 3 {
		t.Fatalf("Games = %d, %v; want the 3 valid records", len(games), err)
	}
	want := []struct {
		seats   [2]string
		status  rules.Status
		winners []rules.Player
		reason  record.Reason
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

// TestRecorderCountsRatedGames: bomber_rated_games_recorded_total counts
// the rated games with a result the recorder stores, by game; casual and
// aborted games are not counted.
func TestRecorderCountsRatedGames(t *testing.T) {
	ctx := context.Background()
	s, err := account.OpenSQLite(ctx, filepath.Join(t.TempDir(), "bomber.db"), account.NewHasher(account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 1))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	m := newMetrics()
	rec := recorder(s, zap.NewNop(), m.rated)
	t0 := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	game := func(i int, rated string, reason record.Reason) server.FinishedGame {
		g := record.Game{Game: "checkers", Seats: []record.Seat{{Name: "Albert"}, {Name: "Beth"}}, Leaver: rules.Spectator, Reason: reason,
			Options: rules.Options{record.RatedOption: rated}, Start: int64(time.Second), End: int64(time.Minute)}
		if reason.HasResult() {
			g.Outcome = rules.Outcome{Status: rules.Won, Winners: []rules.Player{0}}
		}
		g.Seed[0] = byte(i + 1)
		return server.FinishedGame{Record: g, Start: t0, End: t0.Add(time.Minute)}
	}
	batch := []server.FinishedGame{game(0, "true", "won"), game(1, "true", "aborted"), game(2, "false", "won"), game(3, "true", "resigned")}
	if n, err := rec(ctx, batch); n != 4 || err != nil {
		t.Fatalf("stored %d, %v", n, err)
	}
	var got dto.Metric
	if err := m.rated.WithLabelValues("checkers").Write(&got); err != nil || got.GetCounter().GetValue() != 2 {
		t.Errorf("bomber_rated_games_recorded_total{game=checkers} = %v (%v), want 2", got.GetCounter().GetValue(), err)
	}
}
