package account

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
)

// BenchmarkRecordGame: what one finished game costs the recorder on the
// embedded store (the daemon records every game; with 1,000 Bomber games
// at once the records took 18% of the server's CPU in the bench). A
// Bomber game of 2 seats and 200 guesses, each with its own seed.
func BenchmarkRecordGame(b *testing.B) {
	s, err := OpenSQLite(b.Context(), filepath.Join(b.TempDir(), "bomber.db"), cheapHasher())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	g := benchGame(time.Now())
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		g.Seed = record.Seed{byte(i), byte(i >> 8), byte(i >> 16), byte(i >> 24), 1}
		if _, err := s.RecordGame(b.Context(), g); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRecordGames: the same games, several in a transaction
// (RecordGames, as the daemon's recorder calls it when games end close
// together), on the embedded store and on MariaDB (where every commit
// waits for the redo log's flush): the cost per game. The "again" cases
// hand the store a batch it already holds, as a daemon does that replays
// its log after a crash.
func BenchmarkRecordGames(b *testing.B) {
	stores := []struct {
		name string
		open func(b *testing.B) (Store, error)
	}{
		{"sqlite", func(b *testing.B) (Store, error) {
			return OpenSQLite(b.Context(), filepath.Join(b.TempDir(), "bomber.db"), cheapHasher())
		}},
		{"mysql", func(b *testing.B) (Store, error) { return OpenMySQL(b.Context(), newMySQLDatabase(b), cheapHasher()) }},
	}
	for _, st := range stores {
		for _, c := range []struct {
			n     int
			again bool
		}{{1, false}, {4, false}, {16, false}, {64, false}, {64, true}} {
			name := fmt.Sprintf("%s/batch=%d", st.name, c.n)
			if c.again {
				name += "/again"
			}
			b.Run(name, func(b *testing.B) {
				s, err := st.open(b)
				if err != nil {
					b.Fatal(err)
				}
				defer s.Close()
				gs := make([]record.Game, c.n)
				for i := range gs {
					gs[i] = benchGame(time.Now())
				}
				b.ReportAllocs()
				seq := 0
				for b.Loop() {
					for i := range gs {
						if !c.again || seq < c.n {
							gs[i].Seed = record.Seed{byte(seq), byte(seq >> 8), byte(seq >> 16), byte(seq >> 24), 1}
						}
						seq++
					}
					if _, err := s.RecordGames(b.Context(), gs); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(seq), "µs/game")
			})
		}
	}
}

// benchGame is a Bomber game of 2 seats and 200 guesses, unseeded.
func benchGame(base time.Time) record.Game {
	g := record.Game{Game: "bomber", Seats: []record.Seat{{Name: "Beth"}, {Name: "Larry"}},
		Outcome: rules.Outcome{Status: rules.Won, Winners: []rules.Player{0}}, Reason: "won", Leaver: rules.Spectator,
		Start: base.UnixNano(), End: base.Add(time.Minute).UnixNano()}
	for i := range 200 {
		g.Moves = append(g.Moves, record.Move{Seat: rules.Player(i % 2), Text: fmt.Sprintf("%c%d", 'A'+i%10, i%10), At: g.Start + int64(i)*int64(time.Millisecond)})
	}
	return g
}

// BenchmarkRecordRatedGame: what rating costs a recorded game: the same
// Bomber game of 2 seats and 200 guesses, casual and rated (both players
// have accounts, so the store locks and reads their ratings and writes
// both), on the embedded store and on MariaDB. The difference is the
// rating update.
func BenchmarkRecordRatedGame(b *testing.B) {
	stores := []struct {
		name string
		open func(b *testing.B) (Store, error)
	}{
		{"sqlite", func(b *testing.B) (Store, error) {
			return OpenSQLite(b.Context(), filepath.Join(b.TempDir(), "bomber.db"), cheapHasher())
		}},
		{"mysql", func(b *testing.B) (Store, error) { return OpenMySQL(b.Context(), newMySQLDatabase(b), cheapHasher()) }},
	}
	for _, st := range stores {
		for _, rated := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/rated=%v", st.name, rated), func(b *testing.B) {
				s, err := st.open(b)
				if err != nil {
					b.Fatal(err)
				}
				defer s.Close()
				for _, n := range []string{"Beth", "Larry"} {
					if err := s.Add(b.Context(), n, "pw"); err != nil {
						b.Fatal(err)
					}
				}
				g := benchGame(time.Now())
				g.Options = rules.Options{record.RatedOption: fmt.Sprint(rated)}
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					g.Seed = record.Seed{byte(i), byte(i >> 8), byte(i >> 16), byte(i >> 24), 2}
					g.Outcome.Winners[0] = rules.Player(i % 2)
					if _, err := s.RecordGame(b.Context(), g); err != nil {
						b.Fatal(err)
					}
				}
				if rated {
					if rs, _ := s.Ratings(b.Context(), "Beth"); len(rs) != 1 {
						b.Fatalf("not rated: %v", rs)
					}
				}
			})
		}
	}
}
