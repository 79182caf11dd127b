package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bomber-game/bomber/account"
	"github.com/bomber-game/bomber/client/ext"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server/servertest"
)

// restart starts bomberd again as d was started (same directory, store,
// journal and game address) after d's process ended, and returns its log
// once it listens; the test's end stops it.
func restart(t *testing.T, d *proc) *syncBuffer {
	t.Helper()
	again := exec.Command(bomberdBin, d.cmd.Args[1:]...)
	again.Dir, again.Env = d.cmd.Dir, append(d.cmd.Env, "BOMBER_LISTEN="+d.addr, "BOMBER_ADMIN_LISTEN=127.0.0.1:0") // an empty value means the default port, which another daemon may hold
	log := &syncBuffer{}
	again.Stdout, again.Stderr = log, log
	if err := again.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		again.Process.Signal(syscall.SIGTERM)
		again.Wait()
		if t.Failed() {
			t.Logf("restarted bomberd log:\n%s", log.String())
		}
	})
	// the game port is bound before the log says "listening"
	if !log.await(30*time.Second, nil, func(s string) bool { return logged(s, "listening") != "" }) {
		t.Fatalf("restart:\n%s", log.String())
	}
	return log
}

// killAndPlayOn kills d with SIGKILL and starts it again; every player
// reconnects, resumes its seat and plays on (r.Hold no longer holds them)
// until every game is over, and each must have ended by its play, not as
// abandoned or aborted. It returns the restarted daemon's log.
func killAndPlayOn(t *testing.T, d *proc, r *servertest.Room, players []*servertest.Player) *syncBuffer {
	t.Helper()
	d.cmd.Process.Kill()
	<-d.done
	d.done <- nil
	log := restart(t, d)
	r.Hold = 0
	for _, p := range players {
		r.Reconnect(p, d.addr)
	}
	r.Until("every game over", servertest.Over(players...))
	for _, p := range players {
		if g := p.C.Game(); g.End == nil || g.End.Reason == "abandoned" || g.End.Reason == "aborted" {
			t.Fatalf("%s's game ended %+v, want it played to the end", p.Name, g.End)
		}
	}
	return log
}

// TestKill9KeepsTwentyGames: twenty two-seat games, four each of Checkers,
// Dots and Boxes, Pai Sho, Bomber and Aeroplane Chess, are being played
// when bomberd is killed with SIGKILL. Started again on the same
// directory, it has them all: every player reconnects, resumes its seat
// with its token, and plays on to the end; each game is recorded exactly
// once. (The players choose among the legal moves their client's copy of
// the game lists; in Bomber, whose secret boards no client lists, they
// place a random board and guess cells the View shows nothing of. An
// Aeroplane Chess player that resumes after rolls it missed is sent their
// faces with the moves, so its copy of the game plays on.)
func TestKill9KeepsTwentyGames(t *testing.T) {
	twentyGamesAcrossKill(t, bomberdBin)
}

// generationZero is the last commit whose bomberd drew every table's
// randomness (its games' seeds, its seats' resume tokens) from the
// world's generator: the state machine's generation 0.
const generationZero = "2525de1f9172a55cbdb41aa08677feb89c131542"

// TestUpgradeKeepsTwentyGames: the twenty games of TestKill9KeepsTwentyGames
// are under way on the bomberd of generationZero when it is killed; this
// build, started on its journal, replays the older build's log as that
// build applied it (every table drawing from the world's generator), so
// every player resumes with the token it was given and every game, the
// dice of Aeroplane Chess included, plays on to its end and is recorded
// once. (A build that gave those tables generators of their own refused
// every token: run.)
func TestUpgradeKeepsTwentyGames(t *testing.T) {
	twentyGamesAcrossKill(t, buildAt(t, generationZero))
}

// buildAt builds the bomberd of commit rev from this repository's history
// (git archive into a temporary directory) and returns its path.
func buildAt(t *testing.T, rev string) string {
	t.Helper()
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err == nil {
		err = exec.Command("git", "cat-file", "-e", rev+"^{commit}").Run()
	}
	if err != nil {
		t.Skipf("not a git checkout holding commit %s: %v", rev, err)
	}
	dir := t.TempDir()
	archive := exec.Command("sh", "-c", `git archive --format=tar "$0" | tar -x -C "$1"`, rev, dir)
	archive.Dir = strings.TrimSpace(string(top)) // in a subdirectory, git archive takes only that
	if out, err := archive.CombinedOutput(); err != nil {
		t.Fatalf("git archive %s: %v\n%s", rev, err, out)
	}
	bin := filepath.Join(dir, "bomberd")
	build := exec.Command("go", "build", "-o", bin, "./cmd/bomberd")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building bomberd at %s: %v\n%s", rev, err, out)
	}
	return bin
}

// twentyGamesAcrossKill is TestKill9KeepsTwentyGames with the games begun
// on the bomberd at first and played on by this build.
func twentyGamesAcrossKill(t *testing.T, first string) {
	db := filepath.Join(t.TempDir(), "bomber.db")
	s, err := account.OpenSQLite(context.Background(), db, account.NewHasher(account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 1))
	if err != nil {
		t.Fatal(err)
	}
	const tables = 20
	for i := range 2 * tables {
		if err := s.Add(context.Background(), fmt.Sprintf("player%02d", i), "123"); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	// the players move as fast as the answers come (Bomber's guesses, and
	// a View asked for after each, pass the segment rate a person keeps)
	d := startBinary(t, first, 0, "BOMBER_STORE_SQLITE_PATH="+db, "BOMBER_STORE_DEMO_ACCOUNTS=false", "BOMBER_LOG_LEVEL=info",
		"BOMBER_LIMITS_SEGMENT_RATE=100000", "BOMBER_LIMITS_SEGMENT_BURST=100000")
	games := []struct {
		name string
		opts []segment.KV
	}{
		{"checkers", nil},
		{"dots", []segment.KV{{Key: "rows", Value: "4"}, {Key: "cols", Value: "4"}}},
		{"paisho", []segment.KV{{Key: "move-limit", Value: "40"}}},
		{"bomber", nil},
		{"aeroplane", nil},
	}
	r := servertest.NewRoom(t)
	r.Hold = 6 // every game is running when the daemon dies
	var players []*servertest.Player
	for i := range tables {
		a, b := r.Join(fmt.Sprintf("player%02d", 2*i), d.addr), r.Join(fmt.Sprintf("player%02d", 2*i+1), d.addr)
		g := games[i%len(games)]
		r.StartTable(a, b, g.name, g.opts)
		players = append(players, a, b)
	}
	r.Until("six moves at every table", func() bool {
		for _, p := range players {
			if !servertest.Moves(p, r.Hold)() || p.C.Game().Over() {
				return false
			}
		}
		return true
	})

	log := killAndPlayOn(t, d, r, players)
	if !log.await(20*time.Second, nil, func(s string) bool { return strings.Count(s, "game recorded") >= tables }) {
		t.Fatalf("not every game was recorded after the restart")
	}
	s, err = account.OpenSQLite(context.Background(), db, account.NewHasher(account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 1))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	recs, err := s.Games(context.Background(), account.GameFilter{})
	if err != nil || len(recs) != tables {
		t.Fatalf("%d records stored (%v), want one for each of the %d games", len(recs), err, tables)
	}
	seen := map[[32]byte]bool{}
	for _, g := range recs {
		if seen[g.Seed] || g.Reason == "abandoned" || g.Reason == "aborted" {
			t.Fatalf("record %d (%s, %s) twice or not played to the end", g.ID, g.Game, g.Reason)
		}
		seen[g.Seed] = true
	}
	if strings.Contains(log.String(), "game record refused") || strings.Contains(log.String(), "skipping the rest of a log entry") {
		t.Fatal("the restarted daemon refused a record or could not read its journal")
	}
}

// TestKill9KeepsGamesAgainstTheComputer: games against the computer
// (Checkers, Dots and Boxes) under way when bomberd is killed with SIGKILL
// go on after it starts again on the same directory: each player
// reconnects and resumes, and the computer, run now by the new start
// (the journal's earlier starts are gone from the world), plays on to the
// end.
func TestKill9KeepsGamesAgainstTheComputer(t *testing.T) {
	d := startDaemon(t, "BOMBER_LOG_LEVEL=info")
	r := servertest.NewRoom(t)
	r.Hold = 4 // the games are running when the daemon dies
	var players []*servertest.Player
	for i, g := range []struct {
		name string
		opts []segment.KV
	}{{"checkers", nil}, {"dots", []segment.KV{{Key: "rows", Value: "3"}, {Key: "cols", Value: "3"}}}} {
		p := r.Join([]string{"Albert", "Beth"}[i], d.addr)
		r.Call(p, func() (ext.Out, error) { return p.C.Create(g.name, 2, 0, g.opts) })
		r.Until(p.Name+"'s table", func() bool { return p.C.Table() != nil })
		r.Call(p, func() (ext.Out, error) { return p.C.Bot(segment.SeatAny) })
		players = append(players, p)
	}
	for _, p := range players {
		r.Until(p.Name+"'s four moves", servertest.Moves(p, r.Hold))
		if p.C.Game().Over() {
			t.Fatalf("%s's game ended within four moves; the test needs it under way", p.Name)
		}
	}

	log := killAndPlayOn(t, d, r, players)
	if !log.await(20*time.Second, nil, func(s string) bool { return strings.Count(s, "game recorded") >= len(players) }) {
		t.Fatal("not every game was recorded after the restart")
	}
}
