package server

import (
	"context"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"go.uber.org/zap"

	"github.com/bomber-game/bomber/statemachine"
)

// BenchmarkBotFairShare: one user keeps 200 tables' computer moves waiting
// (each answered move is asked again at once) while an honest table asks
// for one move at a time; every move costs about a millisecond of CPU on
// two workers. It reports the honest table's wait from ask to answer. In
// "fifo" every request waits in one line (the pool before it shared its
// queue out by user and table); in "fair" by user and table.
func BenchmarkBotFairShare(b *testing.B) {
	for _, fair := range []bool{false, true} {
		name := "fifo"
		if fair {
			name = "fair"
		}
		b.Run(name, func(b *testing.B) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cfg := Config{BotQueue: 1024, BotWorkers: 2, BotBudget: time.Second, Observer: nopObserver{}, Logger: zap.NewNop(),
				Bot: func(req statemachine.BotRequest) (statemachine.BotAnswer, error) {
					for t0 := time.Now(); time.Since(t0) < time.Millisecond; {
					} // a move's worth of work
					return statemachine.BotAnswer{Table: req.Table, Seat: req.Seat, Seq: req.Seq}, nil
				}}
			p := newBotPool(ctx, cfg, func() {})
			const honest = 1 << 30
			ask := func(seq uint32) {
				owner, table := "flooder", seq+1
				if seq == honest {
					owner, table = "honest", honest
				}
				if !fair {
					owner, table = "", 1
				}
				p.ask(owner, statemachine.BotRequest{Table: table, Seq: seq})
			}
			for i := range 200 {
				ask(uint32(i))
			}
			lat := hdrhistogram.New(1, 10_000_000, 3)
			b.ResetTimer()
			for range b.N {
				t0 := time.Now()
				ask(honest)
				for a := range p.results {
					if a.Seq == honest {
						break
					}
					ask(a.Seq) // the flooder asks again at once
				}
				lat.RecordValue(time.Since(t0).Microseconds())
			}
			b.ReportMetric(float64(lat.ValueAtQuantile(50))/1000, "p50-ms")
			b.ReportMetric(float64(lat.ValueAtQuantile(99))/1000, "p99-ms")
		})
	}
}
