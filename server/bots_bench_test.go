package server_test

import (
	"net"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/server/servertest"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// loopObserver records the engine loop's latency and the bots' moves.
type loopObserver struct {
	mu    sync.Mutex
	loop  *hdrhistogram.Histogram
	moves atomic.Int64
}

func (o *loopObserver) LoopLatency(d time.Duration) {
	o.mu.Lock()
	o.loop.RecordValue(d.Microseconds())
	o.mu.Unlock()
}

func (o *loopObserver) BotMove(string, time.Duration, bool) { o.moves.Add(1) }
func (o *loopObserver) InputApplied(bool)                   {}
func (o *loopObserver) ConnOpened()                         {}
func (o *loopObserver) ConnClosed(server.CloseReason)       {}
func (o *loopObserver) ConnRejected(string)                 {}
func (o *loopObserver) AcceptFailed(string)                 {}
func (o *loopObserver) ProtocolError(string)                {}
func (o *loopObserver) CheckLatency(statemachine.CheckKind, time.Duration, statemachine.Answer) {
}

// BenchmarkBotTables: BOMBER_BOT_TABLES (1000) Aeroplane Chess tables, each
// with one person (a client that rolls and moves the first piece that may
// move) and three computer players, play for five seconds on the reactor;
// it reports the engine loop's latency and the computer players' moves per
// second. Run with -benchtime 1x.
func BenchmarkBotTables(b *testing.B) {
	n := 1000
	if v, err := strconv.Atoi(os.Getenv("BOMBER_BOT_TABLES")); err == nil && v > 0 {
		n = v
	}
	accounts := replay.Accounts{}
	for i := range n {
		accounts["u"+strconv.Itoa(i)] = "pw"
	}
	obs := &loopObserver{loop: hdrhistogram.New(1, 10_000_000, 3)}
	hub := statemachine.Config{Games: statemachine.Catalogue(), MaxTables: n + 10}
	addr, _ := servertest.Start(b, server.Config{Hub: hub, Entropy: replay.Seeds(1), Check: accounts.Check, Observer: obs, MaxConns: n + 10, BotWorkers: 2}, true)
	b.ResetTimer()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var human atomic.Int64
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			playAgainstBots(b, addr, "u"+strconv.Itoa(i), stop, &human)
		}()
	}
	time.Sleep(5 * time.Second) // the measured period: a benchmark, not a test
	obs.mu.Lock()
	obs.loop.Reset()
	obs.mu.Unlock()
	m0 := obs.moves.Load()
	t0 := time.Now()
	time.Sleep(5 * time.Second)
	el := time.Since(t0)
	close(stop)
	wg.Wait()
	obs.mu.Lock()
	b.ReportMetric(float64(obs.loop.ValueAtQuantile(50)), "loop-p50-µs")
	b.ReportMetric(float64(obs.loop.ValueAtQuantile(99)), "loop-p99-µs")
	b.ReportMetric(float64(obs.loop.Max()), "loop-max-µs")
	obs.mu.Unlock()
	b.ReportMetric(float64(obs.moves.Load()-m0)/el.Seconds(), "bot-moves/s")
}

// playAgainstBots logs in, opens a four-seat Aeroplane Chess table with
// three computer players and plays its seat until stop: on its turn it
// rolls, then tries each piece until one moves; a finished game is followed
// by a rematch (Ready).
func playAgainstBots(b *testing.B, addr, name string, stop chan struct{}, moves *atomic.Int64) {
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		b.Error(err)
		return
	}
	defer nc.Close()
	send := func(t segment.Type, body []byte) {
		var out []byte
		for _, s := range segment.AppendMessage(nil, t, body) {
			out = s.AppendTo(out)
		}
		nc.Write(out)
	}
	send(segment.Hello, segment.HelloMsg{Version: 1, Features: 31}.Append(nil))
	nc.Write(segment.Name(segment.Info, name).AppendTo(nil))
	nc.Write(segment.Name(segment.Passwd, "pw").AppendTo(nil))
	send(segment.Create, segment.CreateMsg{Game: "aeroplane", Seats: 4}.Append(nil))
	send(segment.Bot, segment.BotMsg{Seat: 0xFF}.Append(nil))
	var d segment.Decoder
	d.SetDialect(segment.DialectExtended)
	var a segment.Assembler
	piece := 0
	go func() { <-stop; nc.SetReadDeadline(time.Now()) }()
	for {
		n, err := nc.Read(d.Free())
		if err != nil {
			return
		}
		d.Commit(n)
		for {
			s, ok, err := d.Next()
			if err != nil || !ok {
				break
			}
			if !s.Type.Extended() {
				continue
			}
			t, body, done, err := a.Add(s)
			if err != nil || !done {
				continue
			}
			switch t {
			case segment.ViewMsg:
				if v, err := segment.DecodeViewBody(body); err == nil && len(v.ToMove) > 0 && v.ToMove[0] == 0 {
					piece = 0
					send(segment.MoveText, []byte("roll"))
				}
			case segment.Moved:
				if m, err := segment.DecodeMovedBody(body); err == nil && m.Seat == 0 {
					moves.Add(1)
					if m.Notation == "roll" {
						piece = 0
						send(segment.MoveText, []byte("move 0"))
					} else {
						send(segment.ViewReq, nil) // see whose turn it is now
					}
				} else if err == nil && m.Seat == 3 {
					send(segment.ViewReq, nil)
				}
			case segment.ErrorMsg:
				if piece < 3 {
					piece++
					send(segment.MoveText, []byte("move "+strconv.Itoa(piece)))
				} else {
					send(segment.ViewReq, nil)
				}
			case segment.GameEnd:
				send(segment.Ready, nil)
			}
		}
	}
}
