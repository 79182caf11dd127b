package server

import (
	"container/list"
	"context"
	"net/netip"
	"runtime"
	"slices"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/statemachine"
)

type timedRecord struct {
	r          record.Game
	start, end time.Time
	key        string // a clustered record's claim key: written only by the node that claims it
}

type result struct {
	id    uint64
	a     statemachine.Answer
	src   netip.Addr             // the address the check came from
	asked statemachine.CheckKind // what the check asked
	data  string                 // a query's reply
}

// queueOf is the queue a check of kind k waits in: one each for look-ups,
// password checks and sign-ups, and one for all queries (reads of the
// store that hash nothing).
func queueOf(k statemachine.CheckKind) int { return int(min(k, statemachine.Ratings)) }

// nQueues counts the queues of queueOf.
const nQueues = int(statemachine.Ratings) + 1

// Password checks are bounded per source address and per user name: at
// most one of each runs at a time (the others of that address or name wait
// while workers serve other addresses), and at most a share of the queue
// waits: half of it for one address, verifyPerName for one name. Beyond,
// the check is answered Unavailable (code 4) without hashing.
const verifyPerName = 4

// job is an account check waiting for a worker.
type job struct {
	c    statemachine.Check
	src  netip.Addr
	keys [2]string // what a password check is counted against: its address and its name
}

func newJob(c statemachine.Check, src netip.Addr) *job {
	return &job{c: c, src: src, keys: [2]string{"ip\x00" + src.String(), "user\x00" + c.User}}
}

// queue is one kind of account check: its waiting jobs, oldest first, and
// its own workers. Name look-ups, password checks and sign-ups have a queue each, so
// a look-up (a cheap query) never waits behind password hashing. Guarded
// by pool.qmu.
type queue struct {
	kind    statemachine.CheckKind
	jobs    list.List                             // of *job
	byConn  map[statemachine.ConnID]*list.Element // a session has one check at a time
	running map[string]bool                       // Verify: addresses and names with a check running
	wakeup  *sync.Cond
}

// next takes the oldest job a worker may run now: for password checks, the
// oldest whose address and name have none running. qmu held.
func (q *queue) next() *job {
	for el := q.jobs.Front(); el != nil; el = el.Next() {
		j := el.Value.(*job)
		if q.kind == statemachine.Verify {
			k := j.keys
			if q.running[k[0]] || q.running[k[1]] {
				continue
			}
			q.running[k[0]], q.running[k[1]] = true, true
		}
		q.jobs.Remove(el)
		delete(q.byConn, j.c.Conn)
		return j
	}
	return nil
}

// The engine's goroutine never waits for qmu while a worker holds it, so that
// game traffic never waits behind a login storm. The workers run at a lower
// priority; one preempted while it holds the lock (scanning a queue of a
// thousand logins from one address, say) would make the loop wait until the
// kernel ran that worker again: on a busy CPU, milliseconds, during which no
// guess is relayed (seen in an execution trace of a login storm: 34 such waits
// in 2 s, up to 7.7 ms). So what the engine decides with (how many checks of a
// kind, of an address, of a name are admitted and unanswered) is its own, kept
// without a lock; a new check goes into outbox, and into the shared queue when
// the lock is free (TryLock), at once in almost every case, else on one of the
// next loop iterations (the reactor polls while outbox is not empty). Only
// withdrawing a check that is waiting (its connection closed, its address
// locked out: rare) waits for the lock.
type admitted struct {
	byKind [nQueues]int                // by queueOf
	byKey  map[string]int              // Verify: by job.keys
	byID   map[uint64]*job             // until answered
	byConn map[statemachine.ConnID]int // checks unanswered per connection
	outbox []*job                      // admitted, not yet in the shared queues
	wait   bool                        // take qmu with Lock (the net transport's engine goroutine is an ordinary one)
}

// pool runs account checks and game records off the engine's goroutine, on
// a fixed number of workers per kind of check. Checks wait in bounded
// queues: when one is full, or a source address or user name already has
// its share of waiting password checks, the check is answered Unavailable
// at once (the client sees code 4), so a login storm can neither stall the
// loop nor grow memory without bound; and one address or name has at most
// one password hashed at a time, so it cannot hold more than one worker. A
// check whose connection closes while it waits is cancelled (its password
// is never hashed). Records have their own queue and worker so a slow
// database delays no login; they are never dropped.
type pool struct {
	cfg     Config
	results chan result
	wake    func()
	obs     Observer

	qmu    sync.Mutex      // guards both queues
	queues [nQueues]*queue // by queueOf
	adm    admitted        // the engine goroutine's own

	mu      sync.Mutex
	records []timedRecord
	settled []string // keys of records stored, or claimed by another node, since the loop last took them
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
		results: make(chan result, 2*(cfg.QueueLen+cfg.Workers)),
		wake:    wake,
		obs:     cfg.Observer,
		recWake: make(chan struct{}, 1),
		recDone: make(chan struct{}),
		ctx:     ctx,
		stop:    stop,
		adm:     admitted{byKey: map[string]int{}, byID: map[uint64]*job{}, byConn: map[statemachine.ConnID]int{}},
	}
	if p.obs == nil {
		p.obs = nopObserver{}
	}
	for _, kind := range []statemachine.CheckKind{statemachine.Lookup, statemachine.Verify, statemachine.Register, statemachine.Ratings} {
		q := &queue{kind: kind, byConn: make(map[statemachine.ConnID]*list.Element), running: make(map[string]bool), wakeup: sync.NewCond(&p.qmu)}
		p.queues[queueOf(kind)] = q
		for range cfg.Workers {
			p.wg.Add(1)
			go p.worker(q)
		}
	}
	go p.recorder()
	return p
}

// check admits c from source address src and queues it; false when it
// cannot wait (the caller answers Unavailable itself). Admitted and
// unanswered, at most QueueLen+Workers checks of a kind, QueueLen/2+1 of
// an address and verifyPerName+1 of a name (the waiting share of each,
// and the one running). Called on the engine goroutine.
func (p *pool) check(c statemachine.Check, src netip.Addr) bool {
	if c.Kind.Query() && p.cfg.Query == nil {
		return false
	}
	a := &p.adm
	if a.byKind[queueOf(c.Kind)] >= p.cfg.QueueLen+p.cfg.Workers {
		return false
	}
	j := newJob(c, src)
	if c.Kind == statemachine.Verify {
		k := j.keys
		if a.byKey[k[0]] >= max(p.cfg.QueueLen/2, 1)+1 || a.byKey[k[1]] >= verifyPerName+1 {
			return false
		}
		a.byKey[k[0]]++
		a.byKey[k[1]]++
	}
	a.byKind[queueOf(c.Kind)]++
	a.byID[c.ID] = j
	a.byConn[c.Conn]++
	a.outbox = append(a.outbox, j)
	p.handOver()
	return true
}

// handOver moves the admitted checks into the shared queues if qmu is free
// (or always, when the engine goroutine may wait for it); owes reports
// what is left for a later try. Called on the engine goroutine.
func (p *pool) handOver() {
	a := &p.adm
	if len(a.outbox) == 0 {
		return
	}
	if a.wait {
		p.qmu.Lock()
	} else if !p.qmu.TryLock() {
		return
	}
	for _, j := range a.outbox {
		q := p.queues[queueOf(j.c.Kind)]
		q.byConn[j.c.Conn] = q.jobs.PushBack(j)
		q.wakeup.Signal()
	}
	p.qmu.Unlock()
	clear(a.outbox)
	a.outbox = a.outbox[:0]
}

// owes reports whether admitted checks wait for handOver.
func (p *pool) owes() bool { return len(p.adm.outbox) > 0 }

// checking reports whether any check admitted is still unanswered.
func (p *pool) checking() bool { return len(p.adm.byID) > 0 }

// admittedChecks is how many checks are admitted and still unanswered.
func (p *pool) admittedChecks() int { return len(p.adm.byID) }

// answered forgets check id, admitted earlier, now answered. Called on the
// engine goroutine.
func (p *pool) answered(id uint64) {
	a := &p.adm
	j := a.byID[id]
	if j == nil {
		return
	}
	delete(a.byID, id)
	a.byKind[queueOf(j.c.Kind)]--
	if n := a.byConn[j.c.Conn] - 1; n > 0 {
		a.byConn[j.c.Conn] = n
	} else {
		delete(a.byConn, j.c.Conn)
	}
	if j.c.Kind == statemachine.Verify {
		for _, key := range j.keys {
			if n := a.byKey[key] - 1; n > 0 {
				a.byKey[key] = n
			} else {
				delete(a.byKey, key)
			}
		}
	}
}

// cancel takes the checks of connection conn that are still waiting out
// of the queues (its session has closed: nobody needs the answer, and a
// password nobody waits for is not worth hashing) and reports each one's
// id to answer, so the hub forgets it. Checks already running finish and
// are answered as usual. Called on the engine goroutine; a connection
// with no check unanswered (nearly every one) costs no lock.
func (p *pool) cancel(conn statemachine.ConnID, answer func(id uint64)) {
	if p.adm.byConn[conn] == 0 {
		return
	}
	ids := p.unsent(func(j *job) bool { return j.c.Conn == conn })
	p.qmu.Lock()
	for _, q := range p.queues {
		if el := q.byConn[conn]; el != nil {
			delete(q.byConn, conn)
			ids = append(ids, q.jobs.Remove(el).(*job).c.ID)
		}
	}
	p.qmu.Unlock()
	p.forget(ids, answer)
}

// unsent takes the checks that match out of the outbox and returns their
// ids.
func (p *pool) unsent(match func(*job) bool) []uint64 {
	var ids []uint64
	p.adm.outbox = slices.DeleteFunc(p.adm.outbox, func(j *job) bool {
		if match(j) {
			ids = append(ids, j.c.ID)
			return true
		}
		return false
	})
	return ids
}

// forget answers the withdrawn checks ids.
func (p *pool) forget(ids []uint64, answer func(id uint64)) {
	for _, id := range ids {
		p.answered(id)
		answer(id)
	}
}

// dropSource takes the password checks of address src that are still
// waiting out of the queue (the address has been locked out: its guesses
// are not worth hashing) and reports each one's id to answer. Called on the
// engine goroutine.
func (p *pool) dropSource(src netip.Addr, answer func(id uint64)) {
	ids := p.unsent(func(j *job) bool { return j.c.Kind == statemachine.Verify && j.src == src })
	q := p.queues[queueOf(statemachine.Verify)]
	p.qmu.Lock()
	for el := q.jobs.Front(); el != nil; {
		next := el.Next()
		if j := el.Value.(*job); j.src == src {
			q.jobs.Remove(el)
			delete(q.byConn, j.c.Conn)
			ids = append(ids, j.c.ID)
		}
		el = next
	}
	p.qmu.Unlock()
	p.forget(ids, answer)
}

// yieldingThread locks the calling goroutine to its thread for the rest of
// its life (the thread exits with it, so no setting reaches another
// goroutine), lowers that thread's priority, keeps it off the loop's CPU
// when the process has another, and names it for top -H.
func yieldingThread(name string) {
	runtime.LockOSThread()
	lowerPriority()
	leaveLoopCPU()
	nameThread(name)
}

func (p *pool) worker(q *queue) {
	defer p.wg.Done()
	// Password hashing (and the store's queries) must not take the CPU from
	// the engine's loop: this goroutine keeps a thread of its own, at a
	// lower scheduling priority and off the loop's CPU when there is
	// another, for its whole life (the thread exits with it, so neither
	// setting reaches other goroutines).
	yieldingThread("bomberd-account")
	for {
		p.qmu.Lock()
		var j *job
		for p.ctx.Err() == nil {
			if j = q.next(); j != nil {
				break
			}
			q.wakeup.Wait()
		}
		p.qmu.Unlock()
		if j == nil {
			return // stopping
		}

		ctx, cancel := context.WithTimeout(p.ctx, p.cfg.CheckTimeout)
		t0 := time.Now()
		var a statemachine.Answer
		var data string
		if j.c.Kind.Query() {
			a, data = p.cfg.Query(ctx, j.c)
		} else {
			a = p.cfg.Check(ctx, j.c)
		}
		cancel()
		p.obs.CheckLatency(j.c.Kind, time.Since(t0), a)
		if q.kind == statemachine.Verify {
			p.qmu.Lock()
			for _, key := range j.keys {
				delete(q.running, key)
			}
			q.wakeup.Broadcast() // jobs of this address or name may run now
			p.qmu.Unlock()
		}
		p.results <- result{j.c.ID, a, j.src, j.c.Kind, data}
		p.wake()
	}
}

// record queues r for storing. Called on the engine goroutine.
func (p *pool) record(r record.Game, start, end time.Time) { p.recordOnce("", r, start, end) }

// recordOnce records r unless another node of the cluster claimed key
// (a key "" is never claimed: a node alone records everything).
func (p *pool) recordOnce(key string, r record.Game, start, end time.Time) {
	p.mu.Lock()
	p.records = append(p.records, timedRecord{r, start, end, key})
	p.mu.Unlock()
	select {
	case p.recWake <- struct{}{}:
	default:
	}
}

// recorder stores the queued records, at most RecordBatch at a time. A
// record that finds the recorder idle waits RecordDelay for the games
// that end meanwhile, so that they share one call (and one commit); a
// recorder that is busy finds its next batch queued. When the pool stops
// it stores what is queued without waiting.
func (p *pool) recorder() {
	defer close(p.recDone)
	// Storing a game (on the embedded store, SQLite's inserts and commit
	// run right here) yields to the loop as hashing does: at the same
	// priority on the loop's CPU it doubled the relay's p99 at 5,000
	// guesses/s (docs/performance.md)
	yieldingThread("bomberd-record")
	for {
		if batch := p.takeRecords(); len(batch) > 0 {
			p.store(batch)
			clear(batch) // the queue's array outlives the batch: let the stored games go
			continue
		}
		select {
		case <-p.recWake:
			if p.cfg.RecordDelay > 0 {
				t := time.NewTimer(p.cfg.RecordDelay)
				select {
				case <-t.C:
				case <-p.ctx.Done():
					t.Stop()
				}
			}
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

// takeRecords removes the oldest queued records, at most RecordBatch.
// takeSettled appends to buf the keys of the records settled since the
// last call: stored, or another node's to store. The loop forgets them.
func (p *pool) takeSettled(buf []string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	buf = append(buf, p.settled...)
	clear(p.settled)
	p.settled = p.settled[:0]
	return buf
}

// settle hands the keys of batch's records to the loop (takeSettled).
func (p *pool) settle(batch []timedRecord) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, tr := range batch {
		if tr.key != "" {
			p.settled = append(p.settled, tr.key)
		}
	}
}

func (p *pool) takeRecords() []timedRecord {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := min(len(p.records), p.cfg.RecordBatch)
	batch := p.records[:n:n]
	if p.records = p.records[n:]; len(p.records) == 0 {
		p.records = nil
	}
	return batch
}

// store writes batch: first the cluster's claims (a record another node
// claimed is that node's to write), then this node's records in one call
// to Record. A failure is retried a second later, from the first record
// not yet stored, until it succeeds or the pool stops; a claim made is
// never made again (the second would find the key taken, by this node,
// and drop the record).
func (p *pool) store(batch []timedRecord) {
	if p.cfg.Record == nil {
		return
	}
	mine := make([]FinishedGame, 0, len(batch))
	for _, tr := range batch {
		if p.claimed(tr) {
			mine = append(mine, FinishedGame{tr.r, tr.start, tr.end})
		}
	}
	if len(mine) == 0 {
		p.settle(batch) // every one another node's
		return
	}
	for len(mine) > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), p.cfg.CheckTimeout)
		n, err := p.cfg.Record(ctx, mine)
		cancel()
		if err == nil {
			p.settle(batch)
			return
		}
		mine = mine[min(max(n, 0), len(mine)):]
		if len(mine) > 0 && !p.retryLater("recording a game", err, mine[0].Record) {
			for _, f := range mine[1:] {
				p.cfg.Logger.Error("game not recorded at shutdown", zap.String("game", f.Record.Game), zap.Stringer("reason", f.Record.Reason))
			}
			return
		}
	}
}

// claimed reports whether this node is to write tr: a record with no key
// is, a keyed one once this node claims its key (retried until the claim
// answers or the pool stops).
func (p *pool) claimed(tr timedRecord) bool {
	if tr.key == "" || p.cfg.Log == nil {
		return true
	}
	for {
		ctx, cancel := context.WithTimeout(context.Background(), p.cfg.CheckTimeout)
		ok, err := p.cfg.Log.Claim(ctx, tr.key)
		cancel()
		if err == nil {
			return ok
		}
		if !p.retryLater("claiming a game record", err, tr.r) {
			return false
		}
	}
}

// retryLater logs what failed and waits a second for a retry: false (and
// r logged as lost) when the pool stops first.
func (p *pool) retryLater(what string, err error, r record.Game) bool {
	p.cfg.Logger.Warn(what+" failed; retrying", zap.String("game", r.Game), zap.Error(err))
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-p.ctx.Done():
		p.cfg.Logger.Error("game not recorded at shutdown", zap.String("game", r.Game), zap.Stringer("reason", r.Reason))
		return false
	}
}

// close stops the workers after the records queued so far are stored or
// ctx ends.
func (p *pool) close(ctx context.Context) error {
	p.stop()
	p.qmu.Lock()
	for _, q := range p.queues {
		q.wakeup.Broadcast()
	}
	p.qmu.Unlock()
	p.wg.Wait()
	select {
	case <-p.recDone:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
