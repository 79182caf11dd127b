package statemachine_test

import (
	"math/rand/v2"
	"testing"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/statemachine"
)

// BenchmarkBotMove reports each game's computer player's moves per second
// (one worker), asked for positions from random games, through RunBot as
// the shell's bot pool calls it.
func BenchmarkBotMove(b *testing.B) {
	for _, e := range statemachine.Catalogue() {
		b.Run(e.Spec.Name, func(b *testing.B) {
			// positions: every fifth ply of a few random games
			var reqs []statemachine.BotRequest
			for seed := range uint64(4) {
				g, err := e.Spec.New(e.Spec.MinPlayers, nil, record.Rand([32]byte{byte(seed)}))
				if err != nil {
					b.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(seed, 1))
				for ply := 0; ply < 120 && g.Outcome().Status == rules.Running; ply++ {
					to := g.ToMove(nil)
					p := to[rng.IntN(len(to))]
					if ply%5 == 0 {
						reqs = append(reqs, statemachine.BotRequest{Game: e.Spec.Name, Seat: p, Seq: uint32(ply), View: rules.SeatOf(g, p), Seed: seed})
					}
					var legal []rules.Move
					for _, m := range g.Legal(p, nil) {
						if m.Kind < rules.KindOfferDraw {
							legal = append(legal, m)
						}
					}
					if _, err := g.Play(p, legal[rng.IntN(len(legal))], nil); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ResetTimer()
			for i := range b.N {
				if _, err := statemachine.RunBot(reqs[i%len(reqs)]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
		})
	}
}
