package main

import (
	"context"
	"io"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/bomber-game/bomber/client/clientbot"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/server/servertest"
)

// startServer runs the daemon's network layer in-process with the demo
// accounts (password 123); games are not stored.
func startServer(tb testing.TB) string {
	addr, _ := servertest.Start(tb, server.Config{}, false)
	return addr
}

// playPair runs two network bots, Albert inviting Beth, for games games.
func playPair(tb testing.TB, addr string, games int) (albert, beth *clientbot.Bot) {
	beth = clientbot.NewBot("Beth", "123", rand.New(rand.NewPCG(1, 2)))
	albert = clientbot.NewBot("Albert", "123", rand.New(rand.NewPCG(3, 4)))
	beth.Games, albert.Games, albert.Invite = games, games, "Beth"
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	wg.Add(2)
	go func() { defer wg.Done(); errs[0] = playBot(ctx, beth, addr, time.Millisecond, io.Discard) }()
	// Albert may log in before Beth: a bot whose invitation finds nobody
	// invites again after its pause
	go func() { defer wg.Done(); errs[1] = playBot(ctx, albert, addr, time.Millisecond, io.Discard) }()
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			tb.Fatal(err)
		}
	}
	return albert, beth
}

func TestBotsPlayOverTCP(t *testing.T) {
	albert, beth := playPair(t, startServer(t), 3)
	if albert.Played() != 3 || beth.Played() != 3 {
		t.Fatalf("played %d and %d games, want 3", albert.Played(), beth.Played())
	}
	if albert.Won()+beth.Won() != 3 {
		t.Fatalf("%d + %d wins in 3 games: every game needs exactly one winner", albert.Won(), beth.Won())
	}
}

// BenchmarkNetworkBot plays whole games between two network bots over TCP
// against the in-process server.
func BenchmarkNetworkBot(b *testing.B) {
	addr := startServer(b)
	b.ResetTimer()
	albert, beth := playPair(b, addr, b.N)
	b.ReportMetric(float64(albert.WinGuesses()+beth.WinGuesses())/float64(b.N), "guesses/win")
}
