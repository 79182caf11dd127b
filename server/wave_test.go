//go:build linux

package server_test

import (
	"context"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"runtime/metrics"
	"slices"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// listenBacklog opens a loopback TCP listener whose accept queue holds only
// backlog connections.
func listenBacklog(t *testing.T, backlog int) net.Listener {
	t.Helper()
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Bind(fd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		unix.Close(fd)
		t.Fatal(err)
	}
	if err := unix.Listen(fd, backlog); err != nil {
		unix.Close(fd)
		t.Fatal(err)
	}
	f := os.NewFile(uintptr(fd), "listener")
	defer f.Close()
	l, err := net.FileListener(f)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestLoginWave: a wave of idle clients logging in, each login among
// everyone already online (so the engine spends long stretches fanning out
// user lists and online notices), on a listener with a small accept queue
// and more logins in flight than the queue holds. Every client must get its
// answer. A transport that accepts only between its loop's batches of work
// lets the queue overflow; the kernel then drops handshakes it already
// answered (under SYN cookies nobody retransmits them), and those clients
// wait for answers that never come. Two players relay guesses all through
// the wave, so the collector is held off while it lasts.
func TestLoginWave(t *testing.T) {
	const (
		n        = 2500
		inFlight = 128
		backlog  = 16
		deadline = 30 * time.Second // per client: dial plus login
	)
	if testing.Short() || raceOn {
		t.Skip("a wave of 2,500 logins: not in -short, and meaningless at the race detector's pace")
	}
	accounts := replay.Accounts{}
	for i := range n {
		accounts[fmt.Sprintf("w%05d", i)] = "123"
	}
	accounts["Albert"], accounts["Beth"] = "123", "123"
	for _, kind := range kinds {
		t.Run(string(kind), func(t *testing.T) {
			store := &demoStore{accounts: accounts}
			cfg := server.Config{Hub: statemachine.Config{}, Check: store.check, Record: store.record, MaxConns: n + 10, MaxOutput: 1 << 20}
			tr, err := kind.open(cfg)
			if err != nil {
				t.Fatal(err)
			}
			l := listenBacklog(t, backlog)
			addr := l.Addr().String()
			served := make(chan struct{})
			go func() { tr.Serve(l); close(served) }()
			var mu sync.Mutex
			var conns []net.Conn
			var lat []time.Duration
			defer func() {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				tr.Shutdown(ctx)
				<-served
				for _, c := range conns {
					c.Close()
				}
			}()
			stopGame := playDuring(t, addr)
			defer stopGame()
			gogc := watchGOGC()
			sem := make(chan struct{}, inFlight)
			errs := make(chan error, n)
			t0 := time.Now()
			for i := range n {
				go func() {
					sem <- struct{}{}
					defer func() { <-sem }()
					errs <- waveLogin(addr, fmt.Sprintf("w%05d", i), deadline, func(nc net.Conn, d time.Duration) {
						mu.Lock()
						conns = append(conns, nc)
						if d > 0 {
							lat = append(lat, d)
						}
						mu.Unlock()
					})
				}()
			}
			failed := 0
			for range n {
				if err := <-errs; err != nil {
					if failed++; failed <= 3 {
						t.Error(err)
					}
				}
			}
			mu.Lock()
			defer mu.Unlock()
			slices.Sort(lat)
			if failed > 0 {
				t.Errorf("%d of %d logins got no answer within %v", failed, n, deadline)
			}
			// a game was played all through: the collector was held off
			// through the wave and is let go once it is over (gchold.go)
			if off, back := gogc(); !off {
				t.Error("the collector ran all through a wave of logins (GOGC never off)")
			} else if !back {
				t.Error("the collector was still held 10 s after the wave")
			}
			if len(lat) > 0 {
				t.Logf("%d logins in %v; login latency p50 %v p99 %v max %v", len(lat), time.Since(t0).Round(time.Millisecond),
					lat[len(lat)/2].Round(time.Millisecond), lat[len(lat)*99/100].Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond))
			}
		})
	}
}

// playDuring has Albert and Beth start a reference game and relay
// guesses to each other, one at a time, until the function it returns is
// called (which waits for the last guess to arrive).
func playDuring(t *testing.T, addr string) func() {
	t.Helper()
	a, b := dialLogin(t, addr, "Albert"), dialLogin(t, addr, "Beth")
	readUntil(t, a, segment.NewOnline)
	boardA, _ := segment.Raw(segment.Board, []byte("023207375282"))
	boardB, _ := segment.Raw(segment.Board, []byte("023207375787"))
	a.Write(segment.Name(segment.SendInvit, "Beth").AppendTo(nil))
	readUntil(t, b, segment.RecvInvit)
	b.Write(segment.Code(segment.InvitResponse, 1).AppendTo(nil))
	readUntil(t, a, segment.InvitResponse)
	a.Write(boardA.AppendTo(nil))
	b.Write(boardB.AppendTo(nil))
	// play begins once both boards are in, each player then getting the
	// other's: a guess read before Beth's board would be ignored
	readUntil(t, a, segment.Board)
	stop := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		guess := segment.NewSingle(segment.Coord{X: 9, Y: 9}, segment.ASCII).AppendTo(nil)
		var da, db segment.Decoder
		from, to, dto := a, b, &db
		for {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			if _, err := from.Write(guess); err != nil {
				done <- err
				return
			}
			to.SetReadDeadline(time.Now().Add(10 * time.Second))
			if err := readGuess(to, dto); err != nil {
				done <- fmt.Errorf("a guess relayed during the wave: %w", err)
				return
			}
			if from == a {
				from, to, dto = b, a, &da
			} else {
				from, to, dto = a, b, &db
			}
		}
	}()
	return func() {
		close(stop)
		if err := <-done; err != nil {
			t.Error(err)
		}
		a.Close()
		b.Close()
	}
}

// readGuess reads from nc through d until a guess arrives.
func readGuess(nc net.Conn, d *segment.Decoder) error {
	for got := false; !got; {
		k, err := nc.Read(d.Free())
		if err != nil {
			return err
		}
		d.Commit(k)
		if err := d.Decode(func(s segment.Segment) bool {
			got = s.Type == segment.SingleCoord
			return !got
		}); err != nil {
			return err
		}
	}
	return nil
}

// watchGOGC samples the runtime's GOGC from now on. The function it
// returns stops sampling and reports whether GOGC was seen off and whether
// it is back to what it was, waiting for that up to 10 s.
func watchGOGC() func() (off, back bool) {
	read := func() uint64 {
		s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	was := read()
	stop := make(chan struct{})
	done := make(chan bool)
	go func() {
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		off := false
		for {
			select {
			case <-stop:
				done <- off
				return
			case <-tick.C:
				off = off || read() == math.MaxUint64 // GOGC off reads as -1
			}
		}
	}()
	return func() (off, back bool) {
		close(stop)
		off = <-done
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); <-tick.C {
			if read() == was {
				return off, true
			}
		}
		return off, false
	}
}

// waveLogin dials, logs in as name and waits for PasswdResp; then the client
// reads and discards everything, as an idle client does. keep receives the
// connection (and the login's latency once answered).
func waveLogin(addr, name string, deadline time.Duration, keep func(net.Conn, time.Duration)) error {
	t0 := time.Now()
	nc, err := net.DialTimeout("tcp", addr, deadline)
	if err != nil {
		return fmt.Errorf("%s: dial: %w", name, err)
	}
	keep(nc, 0)
	nc.SetDeadline(t0.Add(deadline))
	if _, err := nc.Write(segment.Name(segment.Passwd, "123").AppendTo(segment.Name(segment.Info, name).AppendTo(nil))); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var d segment.Decoder
	answered := false
	for !answered {
		k, err := nc.Read(d.Free())
		if err != nil {
			return fmt.Errorf("%s: no answer after %v: %w", name, time.Since(t0).Round(time.Millisecond), err)
		}
		d.Commit(k)
		if err := d.Decode(func(s segment.Segment) bool {
			answered = s.Type == segment.PasswdResp
			return !answered
		}); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	keep(nc, time.Since(t0))
	nc.SetDeadline(time.Time{})
	go io.Copy(io.Discard, nc)
	return nil
}
