package account

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
)

func seed(b byte) record.Seed {
	var s record.Seed
	for i := range s {
		s[i] = b + byte(i)
	}
	return s
}

func mv(seat rules.Player, text string, at int64) record.Move {
	return record.Move{Seat: seat, Text: text, At: at}
}

// sampleGames are four records of different games, seat counts and endings.
// Their times have nanoseconds, which the store keeps to the microsecond.
func sampleGames(base time.Time) []record.Game {
	at := func(d time.Duration) int64 { return base.Add(d).UnixNano() }
	return []record.Game{{
		Game: "checkers", Options: rules.Options{"fen": "B:W18,24:B14", "draw_moves": "40"},
		Seats: []record.Seat{{Name: "Beth"}, {Name: "Cindy"}}, Seed: seed(1),
		Moves:   []record.Move{mv(0, "11-15", at(time.Second)), mv(1, "22x15", at(2*time.Second)), mv(0, "resign", at(3*time.Second))},
		Outcome: rules.Outcome{Status: rules.Won, Winners: []rules.Player{1}, Reason: "resignation"},
		Scores:  []int{0, 1}, Reason: "resigned", Leaver: rules.Spectator,
		Start: at(0), End: at(5 * time.Minute),
	}, {
		Game: "dots", Seats: []record.Seat{{Name: "Larry"}, {Name: ""}, {Name: "Albert", Bot: true}}, Seed: seed(2),
		Outcome: rules.Outcome{Status: rules.Running}, Reason: "aborted", Leaver: rules.Spectator,
		Start: at(0), End: at(time.Second) + 789,
	}, {
		Game: "aeroplane", Seats: []record.Seat{{Name: "Novate"}, {Name: "Twofyw"}, {Name: "玩家"}, {Name: "Albert"}}, Seed: seed(3),
		Moves: []record.Move{mv(0, "roll", at(time.Hour+time.Second)), mv(1, "roll", at(time.Hour+2*time.Second)),
			mv(2, "roll", at(time.Hour+3*time.Second)), mv(3, "roll", at(time.Hour+4*time.Second))},
		Outcome: rules.Outcome{Status: rules.Won, Winners: []rules.Player{3, 0}, Reason: "tied for first"},
		Scores:  []int{2, -1, 0, 2}, Reason: "abandoned", Leaver: 2,
		Start: at(time.Hour), End: at(2 * time.Hour),
	}, {
		Game: "bomber", Seats: []record.Seat{{Name: "Beth"}, {Name: "Larry"}},
		Outcome: rules.Outcome{Status: rules.Drawn}, Reason: "drawn", Leaver: rules.Spectator,
		Start: at(0), End: at(5 * time.Minute),
	}}
}

// stored is g as the store gives it back: times to the microsecond, the
// move count set, and without moves when listed.
func stored(g record.Game, id uint64, listed bool) record.Game {
	g.ID = id
	g.Start = time.Unix(0, g.Start).Truncate(time.Microsecond).UnixNano()
	g.End = time.Unix(0, g.End).Truncate(time.Microsecond).UnixNano()
	g.MoveCount = len(g.Moves)
	if listed {
		g.Moves = nil
	}
	return g
}

func recordAll(t *testing.T, s Store, games []record.Game) []uint64 {
	t.Helper()
	var ids []uint64
	for _, g := range games {
		id, err := s.RecordGame(t.Context(), g)
		if err != nil {
			t.Fatalf("RecordGame(%s %v): %v", g.Game, g.Seats, err)
		}
		ids = append(ids, id)
	}
	return ids
}

func sameGames(t *testing.T, what string, got, want []record.Game) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d games, want %d:\n%+v", what, len(got), len(want), got)
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("%s: game %d =\n%+v\nwant\n%+v", what, i, got[i], want[i])
		}
	}
}

func testGames(t *testing.T, open opener) {
	s := open(t, cheapHasher())
	ctx := t.Context()
	base := time.Date(2024, 3, 1, 12, 0, 0, 123456789, time.FixedZone("CET", 3600))
	games := sampleGames(base)
	ids := recordAll(t, s, games)
	for i := 1; i < len(ids); i++ {
		if ids[i] <= ids[i-1] || ids[0] == 0 {
			t.Fatalf("ids %v: want distinct, increasing, non-zero", ids)
		}
	}
	got, err := s.Games(ctx, GameFilter{})
	if err != nil {
		t.Fatal(err)
	}
	// Newest end first; equal ends newest record first.
	var want []record.Game
	for _, i := range []int{2, 3, 0, 1} {
		want = append(want, stored(games[i], ids[i], true))
	}
	sameGames(t, "Games", got, want)

	for i, g := range games {
		one, err := s.Game(ctx, ids[i])
		if err != nil {
			t.Fatalf("Game(%d): %v", ids[i], err)
		}
		sameGames(t, fmt.Sprintf("Game(%d)", ids[i]), []record.Game{one}, []record.Game{stored(g, ids[i], false)})
	}
	if _, err := s.Game(ctx, ids[3]+100); !errors.Is(err, ErrNoGame) {
		t.Errorf("Game of an unknown id = %v, want ErrNoGame", err)
	}
}

func testGameFilters(t *testing.T, open opener) {
	s := open(t, cheapHasher())
	ctx := t.Context()
	games := sampleGames(time.Now())
	ids := recordAll(t, s, games)
	cases := []struct {
		f    GameFilter
		want []int // indexes into games, newest first
	}{
		{GameFilter{Game: "checkers"}, []int{0}},
		{GameFilter{Game: "go"}, nil},
		{GameFilter{User: "Beth"}, []int{3, 0}},
		{GameFilter{User: "Albert"}, []int{2, 1}},
		{GameFilter{User: "beth"}, nil},
		{GameFilter{User: "Beth", Game: "bomber"}, []int{3}},
		{GameFilter{Limit: 2}, []int{2, 3}},
		{GameFilter{Limit: MaxGames + 1}, []int{2, 3, 0, 1}},
	}
	for _, c := range cases {
		got, err := s.Games(ctx, c.f)
		if err != nil {
			t.Fatal(err)
		}
		var want []record.Game
		for _, i := range c.want {
			want = append(want, stored(games[i], ids[i], true))
		}
		sameGames(t, fmt.Sprintf("Games(%+v)", c.f), got, want)
	}
}

// testGameStoredOnce: the recorder retries a record whose answer it did not
// get, and a daemon that replays its log after a crash hands the store
// records it holds (their times may differ: the daemon's clock stood still
// while it was down); the store must not keep them twice. A record is known
// by its seed, which the hub draws afresh for every game; one without a
// seed never is.
func testGameStoredOnce(t *testing.T, open opener) {
	s := open(t, cheapHasher())
	ctx := t.Context()
	g := sampleGames(time.Now())[0]
	first, err := s.RecordGame(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.RecordGame(ctx, g)
	if err != nil || again != first {
		t.Fatalf("recording the same game again = %d, %v; want %d, nil", again, err, first)
	}
	later := g // the same game replayed after a restart: its times moved, the first record stays
	later.Start += int64(time.Minute)
	later.End += int64(time.Minute)
	if id, err := s.RecordGame(ctx, later); err != nil || id != first {
		t.Errorf("the same seed with other times again = %d, %v; want %d, nil", id, err, first)
	}
	ids := []uint64{first}
	unseeded := sampleGames(time.Now())[3] // no seed: nothing to recognise it by
	unseededLater := unseeded
	unseededLater.Start += int64(time.Second)
	for _, u := range []record.Game{unseeded, unseeded, unseededLater} {
		id, err := s.RecordGame(ctx, u)
		if err != nil || slices.Contains(ids, id) {
			t.Fatalf("a game without a seed = %d, %v; want a new id (stored %v)", id, err, ids)
		}
		ids = append(ids, id)
	}
	if got, _ := s.Games(ctx, GameFilter{}); len(got) != len(ids) {
		t.Errorf("%d games stored, want %d", len(got), len(ids))
	}
	one, err := s.Game(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	sameGames(t, "the game recorded first", []record.Game{one}, []record.Game{stored(g, first, false)})
}

// testGamesInOneBatch: RecordGames stores a batch as RecordGame stores
// each of its games, with their ids in order; a batch with one impossible
// record stores nothing and says which; a batch handed over again (a retry
// after a lost answer, or a replay after a crash) stores only the games it
// holds that are not stored yet, and returns every game's id.
func testGamesInOneBatch(t *testing.T, open opener) {
	s := open(t, cheapHasher())
	ctx := t.Context()
	games := sampleGames(time.Date(2024, 3, 1, 12, 0, 0, 123456789, time.UTC))
	ids, err := s.RecordGames(ctx, games[:3])
	if err != nil || len(ids) != 3 {
		t.Fatalf("RecordGames of 3 = %v, %v", ids, err)
	}
	for i, id := range ids {
		if i > 0 && id <= ids[i-1] {
			t.Fatalf("ids %v: want increasing", ids)
		}
		one, err := s.Game(ctx, id)
		if err != nil {
			t.Fatalf("Game(%d): %v", id, err)
		}
		sameGames(t, fmt.Sprintf("Game(%d)", id), []record.Game{one}, []record.Game{stored(games[i], id, false)})
	}
	storedGames := func(want int) {
		t.Helper()
		if got, err := s.Games(ctx, GameFilter{}); len(got) != want || err != nil {
			t.Fatalf("%d games stored (%v), want %d", len(got), err, want)
		}
	}

	bad := games[3]
	bad.End = bad.Start - 1
	if _, err := s.RecordGames(ctx, []record.Game{games[3], bad}); !errors.Is(err, ErrBadGame) || !strings.Contains(err.Error(), "record 2 of 2") {
		t.Errorf("a batch with an impossible record = %v, want ErrBadGame naming record 2 of 2", err)
	}
	storedGames(3)

	again, err := s.RecordGames(ctx, games[:3])
	if err != nil || !slices.Equal(again, ids) {
		t.Fatalf("the same batch again = %v, %v; want %v", again, err, ids)
	}
	storedGames(3)

	fresh := games[0]
	fresh.Seed = seed(9)
	again, err = s.RecordGames(ctx, []record.Game{games[1], fresh})
	if err != nil || len(again) != 2 || again[0] != ids[1] || slices.Contains(ids, again[1]) {
		t.Fatalf("a stored game and a new one = %v, %v; want %d and a new id", again, err, ids[1])
	}
	storedGames(4)
	if one, err := s.Game(ctx, again[1]); err != nil || one.Seed != fresh.Seed {
		t.Errorf("the new game of the batch = %+v, %v; want seed %v", one, err, fresh.Seed)
	}

	// in one batch: a stored game, a new one twice, an unseeded one twice
	fresh.Seed = seed(10)
	twice, err := s.RecordGames(ctx, []record.Game{games[2], fresh, fresh, games[3], games[3]})
	known := append(slices.Clone(ids), again[1])
	if err != nil || len(twice) != 5 || twice[0] != ids[2] || twice[1] != twice[2] ||
		slices.Contains(known, twice[1]) || slices.Contains(append(known, twice[1]), twice[3]) || slices.Contains(append(known, twice[1], twice[3]), twice[4]) {
		t.Fatalf("a batch of a stored game, a new one twice, an unseeded one twice = %v, %v; want %d, a new id twice, two more", twice, err, ids[2])
	}
	storedGames(7)

	if _, err := s.RecordGames(ctx, make([]record.Game, MaxBatch+1)); !errors.Is(err, ErrBadGame) {
		t.Errorf("a batch of %d = %v, want ErrBadGame", MaxBatch+1, err)
	}
}

func testLongestGame(t *testing.T, open opener) {
	s := open(t, cheapHasher())
	ctx := t.Context()
	g := sampleGames(time.Now())[0]
	g.Moves = nil
	for i := range MaxMoves {
		g.Moves = append(g.Moves, record.Move{Seat: rules.Player(i % 2), Text: fmt.Sprintf("%d-%d", i%32+1, i%31+1), At: g.Start + int64(i)})
	}
	g.Moves[MaxMoves-1].Text = strings.Repeat("x", MaxNotationLen)
	id, err := s.RecordGame(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	sameGames(t, "longest game", []record.Game{got}, []record.Game{stored(g, id, false)})
}

// testGamesOfEveryLength: games of many lengths and seat counts, recorded
// at once from several goroutines (each statement is prepared once, on
// whichever connection comes first), come back move for move.
func testGamesOfEveryLength(t *testing.T, open opener) {
	s := open(t, cheapHasher())
	ctx := t.Context()
	lengths := []int{0, 1, 2, 3, 15, 16, 17, 63, 64, 65, 255, 256, 257, 341, 1000}
	games := make([]record.Game, len(lengths))
	for i, n := range lengths {
		g := sampleGames(time.Now())[i%3] // 2, 3 and 4 seats
		g.Seed = seed(byte(100 + i))
		g.Moves = nil
		for p := range n {
			g.Moves = append(g.Moves, record.Move{Seat: rules.Player(p % 2), Text: fmt.Sprintf("%d:%d", i, p), At: g.Start + int64(p)})
		}
		games[i] = g
	}
	ids := make([]uint64, len(games))
	errs := make(chan error, len(games))
	for i, g := range games {
		go func() {
			var err error
			ids[i], err = s.RecordGame(ctx, g)
			errs <- err
		}()
	}
	for range games {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for i, g := range games {
		got, err := s.Game(ctx, ids[i])
		if err != nil {
			t.Fatal(err)
		}
		sameGames(t, fmt.Sprintf("a game of %d moves", len(g.Moves)), []record.Game{got}, []record.Game{stored(g, ids[i], false)})
	}
}

func testBadGames(t *testing.T, open opener) {
	s := open(t, cheapHasher())
	ctx := t.Context()
	ok := sampleGames(time.Now())[2] // four seats, abandoned by seat 2
	cases := []struct {
		name string
		edit func(g *record.Game)
	}{
		{"no game name", func(g *record.Game) { g.Game = "" }},
		{"long game name", func(g *record.Game) { g.Game = strings.Repeat("g", MaxGameNameLen+1) }},
		{"no seats", func(g *record.Game) {
			g.Seats = nil
			g.Moves = nil
			g.Scores = nil
			g.Outcome.Winners = nil
			g.Outcome.Status = rules.Drawn
			g.Reason = "drawn"
			g.Leaver = -1
		}},
		{"five seats", func(g *record.Game) {
			g.Seats = append(g.Seats, record.Seat{Name: "Beth"})
			g.Scores = append(g.Scores, 0)
		}},
		{"bad seat name", func(g *record.Game) { g.Seats[1].Name = "a\nb" }},
		{"no reason", func(g *record.Game) { g.Reason = "" }},
		{"long reason", func(g *record.Game) { g.Reason = record.Reason(strings.Repeat("r", MaxReasonLen+1)) }},
		{"control in reason", func(g *record.Game) { g.Reason = "a\tb" }},
		{"control in outcome reason", func(g *record.Game) { g.Outcome.Reason = "a\x00b" }},
		{"ends before start", func(g *record.Game) { g.End = g.Start - 1 }},
		{"no start", func(g *record.Game) { g.Start = 0 }},
		{"too many moves", func(g *record.Game) { g.Moves = make([]record.Move, MaxMoves+1) }},
		{"move by no seat", func(g *record.Game) { g.Moves[1].Seat = 4 }},
		{"move by spectator", func(g *record.Game) { g.Moves[1].Seat = rules.Spectator }},
		{"empty move", func(g *record.Game) { g.Moves[1].Text = "" }},
		{"long move", func(g *record.Game) { g.Moves[1].Text = strings.Repeat("x", MaxNotationLen+1) }},
		{"newline in move", func(g *record.Game) { g.Moves[1].Text = "11-15\n" }},
		{"not UTF-8 move", func(g *record.Game) { g.Moves[1].Text = "\xff" }},
		{"won without winner", func(g *record.Game) { g.Outcome.Winners = nil }},
		{"winner twice", func(g *record.Game) { g.Outcome.Winners = []rules.Player{0, 0} }},
		{"winner not seated", func(g *record.Game) { g.Outcome.Winners = []rules.Player{4} }},
		{"drawn with winner", func(g *record.Game) { g.Outcome.Status = rules.Drawn }},
		{"unknown status", func(g *record.Game) { g.Outcome.Status = 7 }},
		{"scores for three of four", func(g *record.Game) { g.Scores = g.Scores[:3] }},
		{"abandoned without leaver", func(g *record.Game) { g.Leaver = rules.Spectator }},
		{"leaver not seated", func(g *record.Game) { g.Leaver = 4 }},
		{"leaver in a game not abandoned", func(g *record.Game) { g.Reason = "won" }},
		{"huge options", func(g *record.Game) { g.Options = rules.Options{"k": strings.Repeat("v", MaxOptionsLen)} }},
	}
	for _, c := range cases {
		g := ok
		g.Seats = append([]record.Seat(nil), ok.Seats...)
		g.Moves = append([]record.Move(nil), ok.Moves...)
		g.Scores = append([]int(nil), ok.Scores...)
		g.Outcome.Winners = append([]rules.Player(nil), ok.Outcome.Winners...)
		c.edit(&g)
		if _, err := s.RecordGame(ctx, g); !errors.Is(err, ErrBadGame) {
			t.Errorf("%s: RecordGame = %v, want ErrBadGame", c.name, err)
		}
	}
	if _, err := s.RecordGame(ctx, ok); err != nil {
		t.Errorf("valid game: %v", err)
	}
	if got, _ := s.Games(ctx, GameFilter{}); len(got) != 1 {
		t.Errorf("%d games stored, want only the valid one", len(got))
	}
}

// Bomber games recorded before schema version 3 stay listable after it.

func TestMigrationKeepsBomberGamesSQLite(t *testing.T) {
	testMigrationKeepsBomberGames(t, DialectSQLite)
}

func TestMigrationKeepsBomberGamesMySQL(t *testing.T) { testMigrationKeepsBomberGames(t, DialectMySQL) }

func testMigrationKeepsBomberGames(t *testing.T, d Dialect) {
	db, s := emptyDB(t, d)
	ctx := t.Context()
	p, err := provider(db, d)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 2); err != nil {
		t.Fatal(err)
	}
	base := time.Date(2023, 5, 6, 7, 8, 9, 123456000, time.UTC)
	old := []struct {
		p1, p2 string
		winner any
		reason string
		end    time.Duration
	}{
		{"Albert", "Beth", "Beth", "won", time.Minute},
		{"Larry", "Cindy", nil, "abandoned by invitee", 2 * time.Minute},
		{"Cindy", "Novate", nil, "abandoned by inviter", 3 * time.Minute},
		{"Twofyw", "Larry", nil, "aborted", 4 * time.Minute},
	}
	for _, o := range old {
		if _, err := db.ExecContext(ctx,
			"INSERT INTO games (player1, player2, winner, reason, guesses, started_at, ended_at) VALUES (?, ?, ?, ?, 12, ?, ?)",
			o.p1, o.p2, o.winner, o.reason, s.d.timeArg(base), s.d.timeArg(base.Add(o.end))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Migrate(ctx, db, d); err != nil {
		t.Fatal(err)
	}
	got, err := s.Games(ctx, GameFilter{})
	if err != nil {
		t.Fatal(err)
	}
	seats := func(a, b string) []record.Seat { return []record.Seat{{Name: a}, {Name: b}} }
	bomber := func(id uint64, a, b string, st rules.Status, w []rules.Player, reason record.Reason, leaver rules.Player, end time.Duration) record.Game {
		return record.Game{ID: id, Game: "bomber", Seats: seats(a, b), Outcome: rules.Outcome{Status: st, Winners: w},
			Reason: reason, Leaver: leaver, Start: base.UnixNano(), End: base.Add(end).UnixNano()}
	}
	want := []record.Game{
		bomber(4, "Twofyw", "Larry", rules.Running, nil, "aborted", -1, 4*time.Minute),
		bomber(3, "Cindy", "Novate", rules.Running, nil, "abandoned", 0, 3*time.Minute),
		bomber(2, "Larry", "Cindy", rules.Running, nil, "abandoned", 1, 2*time.Minute),
		bomber(1, "Albert", "Beth", rules.Won, []rules.Player{1}, "won", -1, time.Minute),
	}
	sameGames(t, "migrated games", got, want)
	// New records follow the migrated ones.
	id, err := s.RecordGame(ctx, sampleGames(base)[0])
	if err != nil || id != 5 {
		t.Errorf("first new record: id %d, %v; want 5", id, err)
	}

	// Down again: the two-seat Bomber games go back to the old table.
	if _, err := p.DownTo(ctx, 2); err != nil {
		t.Fatal(err)
	}
	rows := queryStrings(t, ctx, db, "SELECT "+map[Dialect]string{
		DialectMySQL:  "CONCAT_WS(' ', id, player1, player2, IFNULL(winner, '-'), reason)",
		DialectSQLite: "id || ' ' || player1 || ' ' || player2 || ' ' || IFNULL(winner, '-') || ' ' || reason",
	}[d]+" FROM games ORDER BY id")
	wantRows := []string{"1 Albert Beth Beth won", "2 Larry Cindy - abandoned by invitee", "3 Cindy Novate - abandoned by inviter", "4 Twofyw Larry - aborted"}
	if !reflect.DeepEqual(rows, wantRows) {
		t.Errorf("after migrating down, games = %q, want %q", rows, wantRows)
	}
}

// TestStoredBeforeCommittedMeanwhileMySQL: a batch that meets a record
// another recorder commits while the batch waits for it (two nodes storing
// the same records after a crash) answers with that record's id. InnoDB's
// plain read would not see it: it reads the snapshot taken at the
// transaction's first read, here the look-up of the batch's first game,
// which the store held already.
func TestStoredBeforeCommittedMeanwhileMySQL(t *testing.T) {
	db, s := emptyDB(t, DialectMySQL)
	ctx := t.Context()
	if _, err := Migrate(ctx, db, DialectMySQL); err != nil {
		t.Fatal(err)
	}
	games := sampleGames(time.Now())
	a, b := games[0], games[1]
	idA, err := s.RecordGame(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	// the other recorder's batch: b written, not yet committed
	other, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Rollback()
	st, err := s.recordStatements(ctx, []record.Game{b})
	if err != nil {
		t.Fatal(err)
	}
	opts, err := checkGame(b)
	if err != nil {
		t.Fatal(err)
	}
	idB, _, err := s.recordIn(ctx, other, st, b, opts, &recordBuffers{})
	if err != nil {
		t.Fatal(err)
	}

	type answer struct {
		ids []uint64
		err error
	}
	done := make(chan answer, 1)
	go func() {
		ids, err := s.RecordGames(ctx, []record.Game{a, b})
		done <- answer{ids, err}
	}()
	// InnoDB's monitor, not information_schema.innodb_trx: that is a cache
	// which being read often keeps from being refreshed
	var name string
	if err := db.QueryRowContext(ctx, "SELECT DATABASE()").Scan(&name); err != nil {
		t.Fatal(err)
	}
	waitingLine := regexp.MustCompile("(?m)^RECORD LOCKS .* of table `" + regexp.QuoteMeta(name) + "`.`game_records` .* waiting$")
	for waiting := false; !waiting; {
		select {
		case got := <-done:
			t.Fatalf("RecordGames = %v, %v before the other batch committed; want it to wait for b", got.ids, got.err)
		default:
		}
		var kind, engine, status string
		if err := db.QueryRowContext(ctx, "SHOW ENGINE INNODB STATUS").Scan(&kind, &engine, &status); err != nil {
			t.Fatal(err)
		}
		waiting = waitingLine.MatchString(status)
	}
	if err := other.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := <-done; got.err != nil || !slices.Equal(got.ids, []uint64{idA, idB}) {
		t.Fatalf("RecordGames = %v, %v; want %v", got.ids, got.err, []uint64{idA, idB})
	}
	if got, err := s.Games(ctx, GameFilter{}); len(got) != 2 || err != nil {
		t.Errorf("%d games stored (%v), want 2", len(got), err)
	}
}
