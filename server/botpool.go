package server

import (
	"context"
	"math/rand/v2"
	"time"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/statemachine"
)

// botPool runs computer players off the engine's goroutine on a fixed
// number of workers, each move within a time budget. Requests wait in a
// bounded queue; past it (and past a move's budget) the seat plays a random
// legal move instead, so no table ever waits for a computer player that
// cannot keep up.
type botPool struct {
	cfg     Config
	jobs    chan statemachine.BotRequest
	results chan statemachine.BotAnswer
	wake    func()
}

func newBotPool(ctx context.Context, cfg Config, wake func()) *botPool {
	b := &botPool{
		cfg:     cfg,
		jobs:    make(chan statemachine.BotRequest, cfg.BotQueue),
		results: make(chan statemachine.BotAnswer, cfg.BotQueue+cfg.BotWorkers),
		wake:    wake,
	}
	for range cfg.BotWorkers {
		go b.worker(ctx)
	}
	return b
}

// ask queues req; false when the queue is full. Called on the engine goroutine.
func (b *botPool) ask(req statemachine.BotRequest) bool {
	select {
	case b.jobs <- req:
		return true
	default:
		return false
	}
}

func (b *botPool) worker(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case req := <-b.jobs:
			b.results <- b.run(req)
			b.wake()
		}
	}
}

// run asks the bot for req within the budget. A bot that runs over is
// answered for with a random legal move; the worker still waits for it to
// finish, so at most BotWorkers bots ever run at once.
func (b *botPool) run(req statemachine.BotRequest) statemachine.BotAnswer {
	type out struct {
		a   statemachine.BotAnswer
		err error
	}
	done := make(chan out, 1)
	t0 := time.Now()
	go func() {
		a, err := b.cfg.Bot(req)
		done <- out{a, err}
	}()
	timer := time.NewTimer(b.cfg.BotBudget)
	defer timer.Stop()
	select {
	case o := <-done:
		b.cfg.Observer.BotMove(req.Game, time.Since(t0), o.err == nil)
		if o.err != nil {
			b.cfg.Logger.Warn("computer player failed; playing a random legal move", zap.String("game", req.Game), zap.Error(o.err))
			return fallbackMove(req)
		}
		return o.a
	case <-timer.C:
		b.cfg.Observer.BotMove(req.Game, b.cfg.BotBudget, false)
		a := fallbackMove(req)
		b.results <- a // answer now; the straggler's move is dropped
		b.wake()
		<-done
		return statemachine.BotAnswer{Table: req.Table, Seat: req.Seat, Seq: ^req.Seq} // a sequence the hub ignores
	}
}

// fallbackMove is a random legal move of req's seat, chosen from its view.
func fallbackMove(req statemachine.BotRequest) statemachine.BotAnswer {
	g := req.View.Game()
	legal := g.Legal(req.Seat, nil)
	a := statemachine.BotAnswer{Table: req.Table, Seat: req.Seat, Seq: req.Seq}
	if len(legal) > 0 {
		rng := rand.New(rand.NewPCG(req.Seed, uint64(req.Seq)))
		a.Move = g.FormatMove(legal[rng.IntN(len(legal))])
	}
	return a
}
