package server

import (
	"context"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/statemachine"
)

type timedRecord struct {
	r          statemachine.Record
	start, end time.Time
}

type result struct {
	id uint64
	a  statemachine.Answer
}

// pool runs account checks and game records off the engine's goroutine, on
// a fixed number of workers. Checks wait in a bounded queue: when it is
// full the check is answered Unavailable at once (the client sees code 4),
// so a login storm can neither stall the loop nor grow memory without
// bound. Records have their own queue and worker so a slow database
// delays no login; they are never dropped.
type pool struct {
	cfg     Config
	checks  chan statemachine.Check
	results chan result
	wake    func()
	obs     Observer

	mu      sync.Mutex
	records []timedRecord
	recWake chan struct{}
	recDone chan struct{}
	wg      sync.WaitGroup
	stop    context.CancelFunc
	ctx     context.Context
}

func newPool(cfg Config, wake func()) *pool {
	ctx, stop := context.WithCancel(context.Background())
	p := &pool{
		cfg:     cfg,
		checks:  make(chan statemachine.Check, cfg.QueueLen),
		results: make(chan result, cfg.QueueLen+cfg.Workers),
		wake:    wake,
		obs:     cfg.Observer,
		recWake: make(chan struct{}, 1),
		recDone: make(chan struct{}),
		ctx:     ctx,
		stop:    stop,
	}
	if p.obs == nil {
		p.obs = nopObserver{}
	}
	for range cfg.Workers {
		p.wg.Add(1)
		go p.worker()
	}
	go p.recorder()
	return p
}

// check queues c; false when the queue is full (the caller answers
// Unavailable itself). Called on the engine goroutine.
func (p *pool) check(c statemachine.Check) bool {
	select {
	case p.checks <- c:
		return true
	default:
		return false
	}
}

func (p *pool) worker() {
	defer p.wg.Done()
	for {
		select {
		case <-p.ctx.Done():
			return
		case c := <-p.checks:
			ctx, cancel := context.WithTimeout(p.ctx, p.cfg.CheckTimeout)
			t0 := time.Now()
			a := p.cfg.Check(ctx, c)
			cancel()
			p.obs.CheckLatency(c.Kind, time.Since(t0), a)
			p.results <- result{c.ID, a}
			p.wake()
		}
	}
}

// record queues r for storing. Called on the engine goroutine.
func (p *pool) record(r statemachine.Record, start, end time.Time) {
	p.mu.Lock()
	p.records = append(p.records, timedRecord{r, start, end})
	p.mu.Unlock()
	select {
	case p.recWake <- struct{}{}:
	default:
	}
}

func (p *pool) recorder() {
	defer close(p.recDone)
	for {
		p.mu.Lock()
		batch := p.records
		p.records = nil
		p.mu.Unlock()
		for i := 0; i < len(batch); i++ {
			tr := batch[i]
			r := tr.r
			if p.cfg.Record == nil {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), p.cfg.CheckTimeout)
			err := p.cfg.Record(ctx, r, tr.start, tr.end)
			cancel()
			if err != nil {
				p.cfg.Logger.Warn("recording a game failed; retrying", zap.Strings("players", r.Players[:]), zap.Error(err))
				select {
				case <-time.After(time.Second):
				case <-p.ctx.Done():
					p.cfg.Logger.Error("game not recorded at shutdown", zap.Strings("players", r.Players[:]), zap.String("reason", r.Reason.String()))
					continue
				}
				i-- // retry the same record
			}
		}
		if len(batch) == 0 {
			select {
			case <-p.recWake:
			case <-p.ctx.Done():
				p.mu.Lock()
				empty := len(p.records) == 0
				p.mu.Unlock()
				if empty {
					return
				}
			}
		}
	}
}

// close stops the workers after the records queued so far are stored or
// ctx ends.
func (p *pool) close(ctx context.Context) error {
	p.stop()
	p.wg.Wait()
	select {
	case <-p.recDone:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
