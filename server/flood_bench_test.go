package server_test

import (
	"context"
	"io"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bomber-game/bomber/account"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// BenchmarkHonestLoginDuringFlood measures what a wrong-password flood does
// to an honest user: 16 clients from 127.0.0.1 send a wrong password for
// Albert and hang up before the answer, as fast as they can, against the
// reactor with bomberd's default limits and real argon2id hashing (OWASP
// parameters, two at once); meanwhile Beth logs in from 127.0.0.2, b.N
// times. ns/op is her mean login time; the extra metrics are her median and
// worst, and how many wrong passwords the daemon hashed.
func BenchmarkHonestLoginDuringFlood(b *testing.B) {
	h := account.NewHasher(account.OWASPParams(), 2)
	ctx := context.Background()
	encoded, err := h.Hash(ctx, "123")
	if err != nil {
		b.Fatal(err)
	}
	var wrong atomic.Int64
	check := func(ctx context.Context, c statemachine.Check) statemachine.Answer {
		if c.Kind == statemachine.Verify {
			if c.Password != "123" {
				wrong.Add(1)
			}
			ok, _, err := h.Verify(ctx, encoded, c.Password)
			switch {
			case err != nil:
				return statemachine.Unavailable
			case !ok:
				return statemachine.WrongPassword
			}
		}
		return replay.DemoAccounts().Answer(c)
	}
	cfg := server.Config{
		Hub:   statemachine.Config{LoginFailures: 5, LoginWindow: time.Minute, LoginLockout: 5 * time.Minute},
		Check: check, Workers: 4, QueueLen: 1024, CheckTimeout: 5 * time.Second, TickEvery: 100 * time.Millisecond,
	}
	r, err := server.NewReactor(cfg)
	if err != nil {
		b.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go r.Serve(l)
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		r.Shutdown(ctx)
	}()
	addr := l.Addr().String()

	stop, underway := make(chan struct{}), make(chan struct{})
	var once sync.Once
	var attempts atomic.Int64
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				nc, err := net.DialTimeout("tcp", addr, 5*time.Second)
				if err != nil {
					continue
				}
				nc.SetDeadline(time.Now().Add(30 * time.Second))
				nc.Write(segment.Name(segment.Info, "Albert").AppendTo(nil))
				var resp [4]byte
				if _, err := io.ReadFull(nc, resp[:]); err == nil && resp[3] == 1 {
					nc.Write(segment.Name(segment.Passwd, "wrong").AppendTo(nil))
				}
				nc.Close()
				if attempts.Add(1) == 50 {
					once.Do(func() { close(underway) })
				}
			}
		})
	}
	<-underway
	login := append(segment.Name(segment.Info, "Beth").AppendTo(nil), segment.Name(segment.Passwd, "123").AppendTo(nil)...)
	want := append(append(segment.Code(segment.InfoResp, 1).AppendTo(nil), segment.Code(segment.PasswdResp, 1).AppendTo(nil)...), segment.Empty(segment.SyncEnd).AppendTo(nil)...)
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}, Timeout: 5 * time.Second}
	var lat []time.Duration
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		nc, err := d.Dial("tcp", addr)
		if err != nil {
			b.Fatal(err)
		}
		nc.SetDeadline(time.Now().Add(time.Minute))
		nc.Write(login)
		got := make([]byte, len(want))
		if _, err := io.ReadFull(nc, got); err != nil || string(got) != string(want) {
			b.Fatalf("honest login: %v % x", err, got)
		}
		nc.Close()
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	close(stop)
	wg.Wait()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2])/1e6, "median-ms")
	b.ReportMetric(float64(lat[len(lat)-1])/1e6, "max-ms")
	b.ReportMetric(float64(wrong.Load()), "wrong-hashed")
	b.ReportMetric(float64(attempts.Load()), "attempts")
}
