package account

import (
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/bomber-game/bomber/account/glicko2"
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
)

// ratedGame is a finished game of game between names ("" a computer seat)
// that winners won (none: drawn), ended at end, rated unless casual.
type ratedGame struct {
	seq uint64 // makes the seed, so each game is stored once
}

func (rg *ratedGame) make(game string, names []string, winners []rules.Player, reason record.Reason, end time.Time, rated bool) record.Game {
	rg.seq++
	g := record.Game{Game: game, Options: rules.Options{record.RatedOption: "false"}, Reason: reason, Leaver: rules.Spectator,
		Start: end.Add(-time.Minute).UnixNano(), End: end.UnixNano()}
	if rated {
		g.Options[record.RatedOption] = "true"
	}
	g.Seed[0], g.Seed[1] = byte(rg.seq), byte(rg.seq>>8)
	for _, n := range names {
		g.Seats = append(g.Seats, record.Seat{Name: n, Bot: n == ""})
	}
	switch {
	case !reason.HasResult():
		g.Outcome.Status = rules.Running
		if reason == record.Abandoned {
			g.Leaver = 0
		}
	case len(winners) == 0:
		g.Outcome.Status = rules.Drawn
	default:
		g.Outcome = rules.Outcome{Status: rules.Won, Winners: winners}
	}
	return g
}

// ratingsOf is each name's rating in game (the default for none).
func ratingsOf(t *testing.T, s Store, game string, names ...string) map[string]Rating {
	t.Helper()
	out := map[string]Rating{}
	for _, n := range names {
		rs, err := s.Ratings(t.Context(), n)
		if err != nil {
			t.Fatal(err)
		}
		out[n] = Rating{Name: n, Game: game, Rating: glicko2.DefaultRating, Deviation: glicko2.DefaultDeviation, Volatility: glicko2.DefaultVolatility}
		for _, r := range rs {
			if r.Game == game {
				out[n] = r
			}
		}
	}
	return out
}

// testRatings: rated games with results move their players' ratings, as
// Glicko-2 says; nothing else does (casual, aborted and abandoned games,
// computer seats, names without accounts, a record stored again); games of
// four are rated pairwise; the leaderboard leaves provisional ratings off;
// deleting an account deletes its ratings.
func testRatings(t *testing.T, open opener) {
	s := open(t, cheapHasher())
	ctx := t.Context()
	for _, n := range []string{"Albert", "Beth", "Cindy", "Dora"} {
		if err := s.Add(ctx, n, "pw"); err != nil {
			t.Fatal(err)
		}
	}
	var rg ratedGame
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	next := func() time.Time { at = at.Add(time.Minute); return at }
	store := func(g record.Game) uint64 {
		t.Helper()
		id, err := s.RecordGame(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	history := func(name, game string) []RatingChange {
		t.Helper()
		h, err := s.RatingHistory(ctx, name, game, 0)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	unchanged := func(what string, before map[string]Rating) {
		t.Helper()
		names := make([]string, 0, len(before))
		for n := range before {
			names = append(names, n)
		}
		if after := ratingsOf(t, s, "checkers", names...); !mapsEqual(before, after) {
			t.Errorf("%s changed ratings: %v, were %v", what, after, before)
		}
	}

	first := rg.make("checkers", []string{"Albert", "Beth"}, []rules.Player{1}, record.Resigned, next(), true)
	firstID := store(first)
	r := ratingsOf(t, s, "checkers", "Albert", "Beth")
	a, b := r["Albert"], r["Beth"]
	want := glicko2.Update(glicko2.New(), []glicko2.Result{{Opponent: glicko2.New(), Score: 1}}, glicko2.Tau)
	if math.Abs(b.Rating-want.Rating) > 1e-6 || math.Abs(b.Deviation-want.Deviation) > 1e-6 || b.Games != 1 {
		t.Errorf("the winner's rating %+v, want %+v after one game", b, want)
	}
	if math.Abs((a.Rating-1500)+(b.Rating-1500)) > 1e-6 || a.Games != 1 || !a.Provisional() || !b.Provisional() {
		t.Errorf("after one game between new players: %+v %+v", a, b)
	}
	if !b.Updated.Equal(time.Unix(0, first.End).UTC()) {
		t.Errorf("updated %v, want the game's end %v", b.Updated, time.Unix(0, first.End).UTC())
	}

	if h := history("Beth", "checkers"); len(h) != 1 || h[0].GameID != firstID || h[0].Before != 1500 || h[0].Rating != b.Rating ||
		h[0].Deviation != b.Deviation || !h[0].Ended.Equal(b.Updated) {
		t.Errorf("Beth's history after her first game: %+v, rating %+v", h, b)
	}
	before := ratingsOf(t, s, "checkers", "Albert", "Beth", "Cindy")
	store(first) // a retry after a lost answer
	unchanged("the same record stored again", before)
	store(rg.make("checkers", []string{"Albert", "Beth"}, []rules.Player{0}, record.Resigned, next(), false))
	unchanged("a casual game", before)
	store(rg.make("checkers", []string{"Albert", "Beth"}, nil, record.Aborted, next(), true))
	unchanged("an aborted game", before)
	store(rg.make("checkers", []string{"Albert", "Beth"}, nil, record.Abandoned, next(), true))
	unchanged("an abandoned game", before)
	store(rg.make("checkers", []string{"Albert", ""}, []rules.Player{0}, record.Won, next(), true))
	unchanged("a game against the computer", before)
	store(rg.make("checkers", []string{"Albert", "Guest"}, []rules.Player{0}, record.Won, next(), true))
	unchanged("a game against a name without an account", before)
	if rs, _ := s.Ratings(ctx, "Guest"); len(rs) != 0 {
		t.Errorf("a name without an account was rated: %v", rs)
	}
	store(rg.make("checkers", []string{"Albert", "Albert"}, []rules.Player{0}, record.Won, next(), true))
	unchanged("a game against oneself", before)

	// Dots and Boxes for four, one seat the computer's: Cindy wins, so she
	// beats Albert and Beth, who draw with each other.
	store(rg.make("dots", []string{"Albert", "", "Beth", "Cindy"}, []rules.Player{3}, record.Won, next(), true))
	d := ratingsOf(t, s, "dots", "Albert", "Beth", "Cindy")
	if !(d["Cindy"].Rating > 1500 && d["Albert"].Rating < 1500 && math.Abs(d["Albert"].Rating-d["Beth"].Rating) < 1e-9) || d["Cindy"].Games != 1 {
		t.Errorf("a game of four: %+v", d)
	}
	unchanged("a game of another kind", before) // ratings are per game

	// A shared win (two winners) between players of equal ratings is a draw
	// between them: the two winners gain the same, from the one who lost.
	store(rg.make("dots", []string{"Dora", "Cindy", "Albert"}, []rules.Player{0, 1}, record.Won, next(), true))

	// Albert's history: the checkers game and the two of dots, newest first
	if h := history("Albert", ""); len(h) != 3 || h[0].Game != "dots" || h[2].GameID != firstID || h[1].Rating != d["Albert"].Rating {
		t.Errorf("Albert's history: %+v", h)
	}
	if h := history("Albert", "checkers"); len(h) != 1 {
		t.Errorf("Albert's checkers history: %+v", h)
	}
	if h, _ := s.RatingHistory(ctx, "Albert", "", 2); len(h) != 2 {
		t.Errorf("Albert's history, limit 2: %+v", h)
	}

	// Only ratings that are not provisional make the leaderboard.
	if lb, err := s.Leaderboard(ctx, "checkers", 0); err != nil || len(lb) != 0 {
		t.Fatalf("leaderboard of provisional ratings: %v, %v", lb, err)
	}
	for i := 0; i < 100; i++ {
		if r := ratingsOf(t, s, "checkers", "Beth", "Cindy"); !r["Beth"].Provisional() && !r["Cindy"].Provisional() {
			break
		}
		winner := rules.Player(0)
		if i%3 == 0 {
			winner = 1
		}
		store(rg.make("checkers", []string{"Beth", "Cindy"}, []rules.Player{winner}, record.Won, next(), true))
	}
	lb, err := s.Leaderboard(ctx, "checkers", 10)
	if err != nil || len(lb) != 2 || lb[0].Name != "Beth" || lb[1].Name != "Cindy" || lb[0].Rating <= lb[1].Rating {
		t.Fatalf("leaderboard %+v, %v; want Beth above Cindy", lb, err)
	}
	if lb, _ := s.Leaderboard(ctx, "checkers", 1); len(lb) != 1 {
		t.Errorf("leaderboard limit 1: %v", lb)
	}
	if err := s.Delete(ctx, "Beth"); err != nil {
		t.Fatal(err)
	}
	if rs, _ := s.Ratings(ctx, "Beth"); len(rs) != 0 {
		t.Errorf("a deleted account's ratings stay: %v", rs)
	}
	if h := history("Beth", ""); len(h) != 0 {
		t.Errorf("a deleted account's rating history stays: %d changes", len(h))
	}
	if lb, _ := s.Leaderboard(ctx, "checkers", 10); len(lb) != 1 || lb[0].Name != "Cindy" {
		t.Errorf("leaderboard after a deletion: %v", lb)
	}
}

func mapsEqual(a, b map[string]Rating) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || !v.Updated.Equal(w.Updated) {
			return false
		}
		v.Updated, w.Updated = time.Time{}, time.Time{}
		if v != w {
			return false
		}
	}
	return true
}

// TestPairwiseScores: who beats whom in games of two to four.
func TestPairwiseScores(t *testing.T) {
	var rg ratedGame
	now := time.Now()
	g := rg.make("dots", []string{"a", "b", "c", "d"}, []rules.Player{1, 2}, record.Won, now, true)
	for _, c := range []struct {
		i, j int
		want float64
	}{{1, 0, 1}, {0, 1, 0}, {1, 2, 0.5}, {0, 3, 0.5}, {2, 3, 1}} {
		if got := pairScore(&g, c.i, c.j); got != c.want {
			t.Errorf("seat %d against %d: %v, want %v", c.i, c.j, got, c.want)
		}
	}
	drawn := rg.make("checkers", []string{"a", "b"}, nil, record.Agreed, now, true)
	if got := pairScore(&drawn, 0, 1); got != 0.5 {
		t.Errorf("a drawn game: %v", got)
	}
	// a seat the computer played for its person while away is still theirs
	took := rg.make("checkers", []string{"a", "b"}, []rules.Player{1}, record.Resigned, now, true)
	took.Seats[0].Bot = true
	if got := ratedSeats(&took); len(got) != 2 {
		t.Errorf("a seat the computer took over is not rated: %v", got)
	}
}

// TestIdlePlayersLessCertain: a player back after a long absence has a
// larger deviation, so one game moves the rating more.
func TestIdlePlayersLessCertain(t *testing.T) {
	var rg ratedGame
	end := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	g := rg.make("checkers", []string{"a", "b"}, []rules.Player{0}, record.Won, end, true)
	settled := Rating{Rating: 1600, Deviation: 60, Volatility: 0.06, Games: 50}
	recent, idle := settled, settled
	recent.Updated, idle.Updated = end.Add(-time.Hour), end.Add(-180*24*time.Hour)
	opp := Rating{Rating: 1600, Deviation: 60, Volatility: 0.06, Games: 50, Updated: end.Add(-time.Hour)}
	gainRecent := newRatings(&g, []int{0, 1}, []Rating{recent, opp})[0].Rating - 1600
	gainIdle := newRatings(&g, []int{0, 1}, []Rating{idle, opp})[0].Rating - 1600
	if !(gainIdle > gainRecent && gainRecent > 0) {
		t.Errorf("a win after six months idle gains %.1f, after an hour %.1f", gainIdle, gainRecent)
	}
}

// testRatingsRecordedAtOnce: batches recorded at once (the nodes of a
// cluster), whose players overlap in different orders, all succeed (no
// deadlock) and lose no update: every player's count of rated games is
// the number of games they played.
func testRatingsRecordedAtOnce(t *testing.T, open opener) {
	s := open(t, cheapHasher())
	ctx := t.Context()
	const players, workers, batches = 12, 6, 10
	name := func(i int) string { return fmt.Sprintf("P%02d", i%players) }
	for i := range players {
		if err := s.Add(ctx, name(i), "pw"); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var rg ratedGame
	played := map[string]int{}
	var wg sync.WaitGroup
	errs := make(chan error, workers*batches)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range batches {
				mu.Lock()
				a, b, c := name(w+k), name(w+3*k+1), name(w+5*k+2)
				var gs []record.Game
				if a != b {
					gs = append(gs, rg.make("checkers", []string{a, b}, []rules.Player{0}, record.Won, time.Now(), true))
					played[a]++
					played[b]++
				}
				if a != c {
					gs = append(gs, rg.make("checkers", []string{c, a}, nil, record.Drawn, time.Now(), true))
					played[a]++
					played[c]++
				}
				mu.Unlock()
				if _, err := s.RecordGames(ctx, gs); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("recording rated games at once: %v", err)
	}
	for n, want := range played {
		if got := ratingsOf(t, s, "checkers", n)[n].Games; got != want {
			t.Errorf("%s: %d rated games counted, played %d", n, got, want)
		}
	}
}
