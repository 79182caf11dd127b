package server

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/statemachine"
)

// botPool runs computer players off the engine's goroutine on a fixed
// number of workers, each move within a time budget. Requests wait in a
// bounded queue; past it (and past a move's budget) the seat plays a random
// legal move instead, so no table ever waits for a computer player that
// cannot keep up.
//
// The queue is shared fairly: requests wait by the user who created their
// table, then by table, and the workers take one request from each user in
// turn (and, within a user, from each table in turn). A user with hundreds
// of computer seats therefore delays another user's computer move by at
// most one move per waiting user, not by the whole backlog; and when the
// queue is full, the user holding the most of it gives up its newest
// request (played at random at once), not the newcomer.
type botPool struct {
	cfg     Config
	ready   chan struct{} // one token per queued request
	results chan statemachine.BotAnswer
	wake    func()

	mu    sync.Mutex
	users map[string]*botUser // by table creator
	ring  []*botUser          // users with requests waiting, in turn order
	n     int                 // requests waiting
}

// botUser is one user's waiting requests, by table, tables in turn order.
type botUser struct {
	name   string
	n      int
	tables map[uint32][]statemachine.BotRequest
	ring   []uint32
}

func newBotPool(ctx context.Context, cfg Config, wake func()) *botPool {
	b := newBotQueue(cfg, wake)
	for range cfg.BotWorkers {
		go b.worker(ctx)
	}
	return b
}

// newBotQueue is the pool without its workers.
func newBotQueue(cfg Config, wake func()) *botPool {
	return &botPool{
		cfg:     cfg,
		ready:   make(chan struct{}, cfg.BotQueue),
		results: make(chan statemachine.BotAnswer, cfg.BotQueue+cfg.BotWorkers),
		wake:    wake,
		users:   make(map[string]*botUser),
	}
}

// ask queues req for the table created by owner. When the queue is full,
// the user holding the most of it (if that is not owner) gives up its
// newest request, returned as dropped for the caller to answer at once;
// ok is false when req itself is not queued. Called on the engine
// goroutine.
func (b *botPool) ask(owner string, req statemachine.BotRequest) (ok bool, dropped *statemachine.BotRequest) {
	b.mu.Lock()
	defer b.mu.Unlock()
	u := b.users[owner]
	if b.n >= b.cfg.BotQueue {
		big := b.largest()
		if big == nil || big == u || u != nil && u.n >= big.n-1 {
			return false, nil // owner holds its share already
		}
		d := big.dropNewest()
		b.n--
		if big.n == 0 {
			b.forget(big)
		}
		dropped = &d
	} else {
		b.ready <- struct{}{} // never blocks: fewer than BotQueue tokens wait
	}
	if u == nil {
		u = &botUser{name: owner, tables: make(map[uint32][]statemachine.BotRequest)}
		b.users[owner] = u
		b.ring = append(b.ring, u)
	}
	if len(u.tables[req.Table]) == 0 {
		u.ring = append(u.ring, req.Table)
	}
	u.tables[req.Table] = append(u.tables[req.Table], req)
	u.n++
	b.n++
	return true, dropped
}

// largest is the user with the most requests waiting.
func (b *botPool) largest() *botUser {
	var big *botUser
	for _, u := range b.ring {
		if big == nil || u.n > big.n {
			big = u
		}
	}
	return big
}

// dropNewest takes the request u queued last from u's fullest table.
func (u *botUser) dropNewest() statemachine.BotRequest {
	var id uint32
	for _, t := range u.ring {
		if len(u.tables[t]) > len(u.tables[id]) {
			id = t
		}
	}
	q := u.tables[id]
	d := q[len(q)-1]
	u.tables[id] = q[:len(q)-1]
	if len(q) == 1 {
		delete(u.tables, id)
		u.ring = slices.DeleteFunc(u.ring, func(t uint32) bool { return t == id })
	}
	u.n--
	return d
}

func (b *botPool) forget(u *botUser) {
	delete(b.users, u.name)
	b.ring = slices.DeleteFunc(b.ring, func(x *botUser) bool { return x == u })
}

// take is the next request to run: the first user's first table's oldest
// request; the table then goes to the back of its user's turn, the user to
// the back of the users'. False when nothing waits.
func (b *botPool) take() (statemachine.BotRequest, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.ring) == 0 {
		return statemachine.BotRequest{}, false
	}
	u := b.ring[0]
	id := u.ring[0]
	q := u.tables[id]
	req := q[0]
	q[0] = statemachine.BotRequest{} // it holds a game copy
	u.ring = u.ring[1:]
	if len(q) > 1 {
		u.tables[id] = q[1:]
		u.ring = append(u.ring, id)
	} else {
		delete(u.tables, id)
	}
	u.n--
	b.n--
	b.ring = b.ring[1:]
	if u.n > 0 {
		b.ring = append(b.ring, u)
	} else {
		delete(b.users, u.name)
	}
	return req, true
}

func (b *botPool) worker(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-b.ready:
			// a token per queued request; one dropped to make room
			// passed its token on to its replacement
			if req, ok := b.take(); ok {
				b.results <- b.run(req)
				b.wake()
			}
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
