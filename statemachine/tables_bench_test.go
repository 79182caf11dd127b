package statemachine_test

import (
	"testing"

	"github.com/bomber-game/bomber/client/tables"
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/statemachine"
)

// scriptedGame is one whole table game as its clients sent it: the logins
// and table set-up, then the moves.
type scriptedGame struct {
	name          string
	setup, moves  []input
	movesAccepted int
}

// recordGames plays one game of each game through the hub and keeps what
// the clients sent, to replay in benchmarks.
func recordGames(tb testing.TB) []scriptedGame {
	var out []scriptedGame
	for gi, e := range statemachine.Catalogue() {
		x := newHarness(tb, statemachine.Config{})
		var players []statemachine.ConnID
		seats := e.Spec.MaxPlayers
		if e.Spec.Name == "dots" {
			seats = 2
		}
		x.logging = true
		for i := range seats {
			players = append(players, x.login(names[i]))
		}
		w := x.login(names[5])
		x.table(e.Spec.Name, nil, players, w)
		setup := len(x.sent)
		d := tables.New(e.Spec, rules.Options{}, seats, uint64(gi))
		d.MaxMoves = 2000
		x.play(d, players)
		out = append(out, scriptedGame{name: e.Spec.Name, setup: x.sent[:setup], moves: x.sent[setup:], movesAccepted: d.Moves()})
	}
	return out
}

// replayGame feeds g's segments to a fresh hub and returns the segments in
// and out; set-up runs with the timer stopped.
func replayGame(b *testing.B, g scriptedGame) (in, out int) {
	b.StopTimer()
	h := statemachine.New(statemachine.Config{Games: statemachine.Catalogue()})
	h.Step(0, statemachine.SeedInput(7))
	opened := map[statemachine.ConnID]bool{}
	feed := func(ins []input) {
		for _, i := range ins {
			if !opened[i.conn] {
				opened[i.conn] = true
				h.Step(0, statemachine.Input{Kind: statemachine.InOpen, Conn: i.conn})
			}
			h.Step(0, statemachine.Input{Kind: statemachine.InReceive, Conn: i.conn, Seg: i.seg})
			for {
				rd := h.Ready()
				if rd.Empty() {
					break
				}
				out += len(rd.Sends)
				checks := append([]statemachine.Check(nil), rd.Checks...)
				h.Advance()
				for _, c := range checks {
					h.Step(0, statemachine.Input{Kind: statemachine.InAnswer, Check: c.ID, Answer: statemachine.Found})
				}
			}
		}
	}
	feed(g.setup)
	if h.Online() != len(opened) {
		b.Fatalf("%d of %d logged in", h.Online(), len(opened))
	}
	out = 0
	b.StartTimer()
	feed(g.moves)
	b.StopTimer()
	if st := h.Stats(); st.TableMoves != uint64(g.movesAccepted) || st.GamesEnded == (statemachine.Stats{}).GamesEnded && g.name != "paisho" {
		b.Fatalf("%s: %d moves accepted, want %d", g.name, st.TableMoves, g.movesAccepted)
	}
	b.StartTimer()
	return len(g.moves), out
}

// BenchmarkTableMove reports the pure hub's cost per accepted move for each
// game (a whole game replayed per iteration; a watcher at every table), and
// the segments per second in and out.
func BenchmarkTableMove(b *testing.B) {
	for _, g := range recordGames(b) {
		b.Run(g.name, func(b *testing.B) {
			segs := 0
			for range b.N {
				in, out := replayGame(b, g)
				segs += in + out
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*g.movesAccepted), "ns/move")
			b.ReportMetric(float64(segs)/b.Elapsed().Seconds(), "segments/s")
		})
	}
}

// BenchmarkTableMix replays one game of each of the five games per
// iteration: the pure hub's segments per second for a mix of all five.
func BenchmarkTableMix(b *testing.B) {
	games := recordGames(b)
	b.ResetTimer()
	segs, moves := 0, 0
	for range b.N {
		for _, g := range games {
			in, out := replayGame(b, g)
			segs += in + out
			moves += g.movesAccepted
		}
	}
	b.ReportMetric(float64(segs)/b.Elapsed().Seconds(), "segments/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(moves), "ns/move")
}
