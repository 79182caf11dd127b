package server_test

import (
	"context"
	"testing"
	"time"

	"github.com/bomber-game/bomber/rules/dots"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/server/servertest"
	"github.com/bomber-game/bomber/statemachine"
)

// TestStoredGamesLeaveTheSnapshot: games the recorder has stored are not
// kept for the world's next snapshot. A daemon alone kept two minutes of
// finished games in every snapshot of its journal; at hundreds of games a
// minute, encoding them held the loop for 100-250 ms every few seconds,
// and every player's move waited.
func TestStoredGamesLeaveTheSnapshot(t *testing.T) {
	recorded := make(chan string, 16)
	f := start(t, reactor, statemachine.Config{Games: statemachine.Catalogue()}, func(c *server.Config) {
		c.Record = func(_ context.Context, gs []server.FinishedGame) (int, error) {
			for _, g := range gs {
				recorded <- g.Record.Game
			}
			return len(gs), nil
		}
	})
	const games = 3
	for i := range games {
		servertest.PlayTable(t, []string{f.addr}, dots.Spec(), []segment.KV{{Key: "rows", Value: "3"}, {Key: "cols", Value: "3"}}, []string{"Albert", "Beth"}, i)
	}
	for range games {
		select {
		case <-recorded:
		case <-time.After(10 * time.Second):
			t.Fatal("a game was never recorded")
		}
	}
	// the recorder settles a batch right after the store answers it
	ctx := context.Background()
	for deadline := time.Now().Add(5 * time.Second); ; {
		n, err := server.RecordsKept(ctx, f.tr)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d stored games still kept for the next snapshot", n)
		}
		time.Sleep(10 * time.Millisecond) // the recorder hands keys back with no event the test can see
	}
}
