package server_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// hashingStore answers like the demo store, but a password check costs
// hashCost (as argon2id does) and every wrong one is counted.
type hashingStore struct {
	hashCost time.Duration
	wrong    atomic.Int64
}

func (s *hashingStore) check(ctx context.Context, c statemachine.Check) statemachine.Answer {
	if c.Kind == statemachine.Verify {
		if c.Password != "123" {
			s.wrong.Add(1)
		}
		select {
		case <-time.After(s.hashCost):
		case <-ctx.Done():
			return statemachine.Unavailable
		}
	}
	return replay.DemoAccounts().Answer(c)
}

// honestLogin logs in as Beth from 127.0.0.2 and returns how long it took
// to the user list.
func honestLogin(t *testing.T, addr string) time.Duration {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}, Timeout: 5 * time.Second}
	t0 := time.Now()
	nc, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.Write(append(segment.Name(segment.Info, "Beth").AppendTo(nil), segment.Name(segment.Passwd, "123").AppendTo(nil)...))
	got := readUntil(t, nc, segment.SyncEnd)
	if got[1].Type != segment.PasswdResp || got[1].Payload()[0] != 1 {
		t.Fatalf("honest login answered %v", got)
	}
	return time.Since(t0)
}

// TestWrongPasswordFlood is the login throttle's bypass over real sockets:
// from one address, clients send a wrong password for Albert and hang up
// before the answer, as fast as they can. The daemon must count those
// failures and lock the address out after login_failures of them, so only
// a handful of passwords get hashed; meanwhile an honest user from another
// address logs in, and the test reports how long that took.
func TestWrongPasswordFlood(t *testing.T) {
	const attackers, attempts = 16, 20
	hub := statemachine.Config{LoginFailures: 5, LoginWindow: time.Minute, LoginLockout: 5 * time.Minute}
	for _, kind := range kinds {
		t.Run(string(kind), func(t *testing.T) {
			store := &hashingStore{hashCost: 20 * time.Millisecond}
			f := start(t, kind, hub, func(c *server.Config) { c.Check = store.check })
			var refused atomic.Int64
			var wg sync.WaitGroup
			for range attackers {
				wg.Go(func() {
					for i := range attempts {
						nc, err := net.DialTimeout("tcp", f.addr, 5*time.Second)
						if err != nil {
							t.Error(err)
							return
						}
						nc.SetDeadline(time.Now().Add(10 * time.Second))
						nc.Write(segment.Name(segment.Info, "Albert").AppendTo(nil))
						var resp [4]byte
						if _, err := io.ReadFull(nc, resp[:]); err != nil {
							t.Errorf("no InfoResp: %v", err)
							nc.Close()
							return
						}
						if resp[3] != 1 {
							refused.Add(1)
						} else {
							nc.Write(segment.Name(segment.Passwd, fmt.Sprint("guess", i)).AppendTo(nil))
						}
						nc.Close() // before the answer
					}
				})
			}
			done := make(chan struct{})
			go func() { wg.Wait(); close(done) }()
			var lat []time.Duration
		flood:
			for {
				select {
				case <-done:
					break flood
				default:
					lat = append(lat, honestLogin(t, f.addr))
				}
			}
			after := honestLogin(t, f.addr) // behind whatever the flood left queued
			hashed := store.wrong.Load()
			slices.Sort(lat)
			t.Logf("%s: %d attempts from one address: %d wrong passwords hashed, %d refused at the user name; honest logins during the flood: %d, median %v, max %v; after it %v",
				kind, attackers*attempts, hashed, refused.Load(), len(lat), lat[len(lat)/2], lat[len(lat)-1], after)
			if limit := int64(2 * hub.LoginFailures); hashed > limit {
				t.Fatalf("%d wrong passwords from one address were hashed; the lock-out should stop it after about %d (at most %d)", hashed, hub.LoginFailures, limit)
			}
		})
	}
}

// gatedStore holds every password check until the test opens the gate,
// and records the passwords it was asked about.
type gatedStore struct {
	gate    chan struct{}
	started chan string
	mu      sync.Mutex
	seen    []string
}

func (s *gatedStore) check(ctx context.Context, c statemachine.Check) statemachine.Answer {
	if c.Kind == statemachine.Verify {
		s.mu.Lock()
		s.seen = append(s.seen, c.Password)
		s.mu.Unlock()
		s.started <- c.Password
		select {
		case <-s.gate:
		case <-ctx.Done():
			return statemachine.Unavailable
		}
	}
	return replay.DemoAccounts().Answer(c)
}

func write(t *testing.T, nc net.Conn, segs ...segment.Segment) {
	t.Helper()
	var b []byte
	for _, s := range segs {
		b = s.AppendTo(b)
	}
	if _, err := nc.Write(b); err != nil {
		t.Fatal(err)
	}
}

// TestLookupsDoNotWaitForHashing: with the only worker hashing a password,
// another client's user name is still answered (look-ups have their own
// queue and workers), and a password check whose connection closed while
// it waited is never run.
func TestLookupsDoNotWaitForHashing(t *testing.T) {
	for _, kind := range kinds {
		t.Run(string(kind), func(t *testing.T) {
			store := &gatedStore{gate: make(chan struct{}), started: make(chan string, 8)}
			f := start(t, kind, statemachine.Config{}, func(c *server.Config) { c.Check = store.check; c.Workers = 1 })
			a, err := net.Dial("tcp", f.addr)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			write(t, a, segment.Name(segment.Info, "Albert"), segment.Name(segment.Passwd, "123"))
			if pw := <-store.started; pw != "123" {
				t.Fatalf("first check %q", pw)
			}
			// the worker is busy hashing Albert's password until the gate opens
			b, err := net.Dial("tcp", f.addr)
			if err != nil {
				t.Fatal(err)
			}
			write(t, b, segment.Name(segment.Info, "Beth"))
			got := readUntil(t, b, segment.InfoResp)
			if got[0].Payload()[0] != 1 {
				t.Fatalf("Beth's user name answered %v", got)
			}
			write(t, b, segment.Name(segment.Passwd, "closed-before-its-turn"))
			b.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			for { // the close has reached the daemon
				ss, err := f.tr.Sessions(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if len(ss) == 1 {
					break
				}
				select {
				case <-ctx.Done():
					t.Fatalf("b still open: %+v", ss)
				case <-time.After(5 * time.Millisecond):
				}
			}
			close(store.gate)
			readUntil(t, a, segment.SyncEnd)
			c := dialLogin(t, f.addr, "Cindy") // queued behind anything left
			c.Close()
			store.mu.Lock()
			defer store.mu.Unlock()
			if slices.Contains(store.seen, "closed-before-its-turn") {
				t.Fatalf("the password of a closed connection was checked: %q", store.seen)
			}
		})
	}
}

// TestLockedAddressChecksAreDropped: clients from one address that keep
// their connections open and send a wrong password each all at once get
// no more than login_failures of them hashed (plus the one running when
// the address is locked); the rest are answered code 4 unhashed.
func TestLockedAddressChecksAreDropped(t *testing.T) {
	const conns = 20
	hub := statemachine.Config{LoginFailures: 5, LoginWindow: time.Minute, LoginLockout: 5 * time.Minute}
	for _, kind := range kinds {
		t.Run(string(kind), func(t *testing.T) {
			store := &hashingStore{hashCost: 5 * time.Millisecond}
			f := start(t, kind, hub, func(c *server.Config) { c.Check = store.check })
			var ncs []net.Conn
			for i := range conns {
				nc, err := net.Dial("tcp", f.addr)
				if err != nil {
					t.Fatal(err)
				}
				defer nc.Close()
				user := []string{"Novate", "Twofyw", "Larry", "Albert", "Beth", "Cindy"}[i%6] // no name has many waiting
				write(t, nc, segment.Name(segment.Info, user), segment.Name(segment.Passwd, fmt.Sprint("guess", i)))
				ncs = append(ncs, nc)
			}
			codes := map[byte]int{}
			for _, nc := range ncs {
				got := readUntil(t, nc, segment.PasswdResp)
				codes[got[len(got)-1].Payload()[0]]++
			}
			hashed := store.wrong.Load()
			t.Logf("%s: %d pipelined wrong passwords from one address: %d hashed; answers by code %v", kind, conns, hashed, codes)
			if hashed > int64(hub.LoginFailures+1) {
				t.Fatalf("%d of %d wrong passwords from one address were hashed; the lock-out should stop it at %d", hashed, conns, hub.LoginFailures+1)
			}
		})
	}
}
