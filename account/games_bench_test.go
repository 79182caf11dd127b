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
	base := time.Now()
	g := record.Game{Game: "bomber", Seats: []record.Seat{{Name: "Beth"}, {Name: "Larry"}},
		Outcome: rules.Outcome{Status: rules.Won, Winners: []rules.Player{0}}, Reason: "won", Leaver: rules.Spectator,
		Start: base.UnixNano(), End: base.Add(time.Minute).UnixNano()}
	for i := range 200 {
		g.Moves = append(g.Moves, record.Move{Seat: rules.Player(i % 2), Text: fmt.Sprintf("%c%d", 'A'+i%10, i%10), At: g.Start + int64(i)*int64(time.Millisecond)})
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		g.Seed = record.Seed{byte(i), byte(i >> 8), byte(i >> 16), byte(i >> 24), 1}
		if _, err := s.RecordGame(b.Context(), g); err != nil {
			b.Fatal(err)
		}
	}
}
