package main

import (
	"context"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bomber-game/bomber/client"
	"github.com/bomber-game/bomber/rules/bomber/bot"
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
func playPair(tb testing.TB, addr string, games int) (albert, beth *client.Bot) {
	return playPairThinking(tb, addr, games, 0)
}

// playPairThinking is playPair with bots that think before each guess.
func playPairThinking(tb testing.TB, addr string, games int, think time.Duration) (albert, beth *client.Bot) {
	beth = client.NewBot("Beth", "123", rand.New(rand.NewPCG(1, 2)))
	albert = client.NewBot("Albert", "123", rand.New(rand.NewPCG(3, 4)))
	beth.Games, albert.Games, albert.Invite = games, games, "Beth"
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	wg.Add(2)
	go func() { defer wg.Done(); errs[0] = playBot(ctx, beth, addr, time.Millisecond, think, io.Discard) }()
	time.Sleep(50 * time.Millisecond) // Beth first, so Albert finds her online
	go func() { defer wg.Done(); errs[1] = playBot(ctx, albert, addr, time.Millisecond, think, io.Discard) }()
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

// TestBotThinksBeforeEachGuess: with --think, every guess of the bot comes
// at least that long after the one before, so a game lasts at least the
// winner's guesses times the pause (without it, a bot game takes a few
// milliseconds).
func TestBotThinksBeforeEachGuess(t *testing.T) {
	const think = 100 * time.Millisecond
	start := time.Now()
	albert, beth := playPairThinking(t, startServer(t), 1, think)
	took := time.Since(start)
	guesses := albert.WinGuesses() + beth.WinGuesses() // the winner's
	if guesses == 0 || took < time.Duration(guesses)*think {
		t.Fatalf("a game with %d winning guesses took %v; each guess should wait %v", guesses, took, think)
	}
}

// TestBotLevelFlag: --level sets how the network bot plays; the default is
// easy, and an unknown level is refused.
func TestBotLevelFlag(t *testing.T) {
	var out, errb strings.Builder
	cfg, done, _ := parseFlags([]string{"--bot", "--user", "Beth"}, &out, &errb)
	if done || cfg.level != bot.Easy || cfg.think != defaultThink {
		t.Fatalf("defaults: level %v think %v (done %v)", cfg.level, cfg.think, done)
	}
	cfg, done, _ = parseFlags([]string{"--bot", "--user", "Beth", "--level", "hard", "--think", "0"}, &out, &errb)
	if done || cfg.level != bot.Hard || cfg.think != 0 {
		t.Fatalf("--level hard --think 0: %v %v", cfg.level, cfg.think)
	}
	if _, done, code := parseFlags([]string{"--level", "expert"}, &out, &errb); !done || code != 2 || !strings.Contains(errb.String(), "expert") {
		t.Fatalf("--level expert: done %v code %d stderr %q", done, code, errb.String())
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
