//go:build linux

package load_test

import (
	"context"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/bench/load"
	"github.com/bomber-game/bomber/bench/relay"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/server/servertest"
	"github.com/bomber-game/bomber/server/ws"
	"github.com/bomber-game/bomber/statemachine"
)

// startServer runs an in-process server of the given transport whose
// accounts are every u* name with password 123.
func startServer(t *testing.T, transport string) string {
	t.Helper()
	addr, _ := servertest.Start(t, serverConfig(), transport != "net")
	return addr
}

// startGateway runs the same server behind the WebSocket gateway and
// returns its ws:// URL.
func startGateway(t *testing.T) string {
	t.Helper()
	_, tr := servertest.Start(t, serverConfig(), true)
	g, err := ws.New(ws.Config{Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http") + ws.Path
}

func serverConfig() server.Config {
	return server.Config{
		Check: func(_ context.Context, c statemachine.Check) statemachine.Answer {
			switch {
			case !strings.HasPrefix(c.User, "u"):
				return statemachine.NotFound
			case c.Kind == statemachine.Verify && c.Password != "123":
				return statemachine.WrongPassword
			}
			return statemachine.Found
		},
		Record: func(_ context.Context, fs []server.FinishedGame) (int, error) { return len(fs), nil },
	}
}

// waitFor polls cond every 10 ms until it holds or the deadline passes.
func waitFor(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(within); !cond(); {
		if time.Now().After(end) {
			t.Fatalf("no %s within %v", what, within)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestFleetPlaysWholeGames(t *testing.T) {
	for _, tc := range []struct {
		transport  string
		rate       float64 // guesses per second over all games; 0 closed loop
		goroutines bool    // the goroutine-per-connection client instead of poll loops
	}{
		{"reactor", 0, false},
		{"net", 0, false},
		{"reactor", 2000, false},
		{"reactor", 0, true},
		{"reactor", 2000, true},
	} {
		name := tc.transport + "/closed"
		if tc.rate > 0 {
			name = tc.transport + "/open"
		}
		if tc.goroutines {
			name += "/goroutines"
		}
		t.Run(name, func(t *testing.T) {
			addr := startServer(t, tc.transport)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			f := load.New(load.Config{Addr: addr, Sources: []string{"127.0.0.1", "127.0.0.2"}, Seed: 1, Goroutines: tc.goroutines})
			defer f.Close(10 * time.Second)
			t0 := time.Now()
			if err := f.Idle(ctx, 100, 3, 0); err != nil {
				t.Fatal(err)
			}
			f.Record(true)
			if err := f.Games(ctx, 0, 4); err != nil {
				t.Fatal(err)
			}
			t.Logf("logged in after %v", time.Since(t0))
			f.SetRate(tc.rate) // after Games: the rate is spread over the games started
			began, before := time.Now(), f.Counters()
			// a game lasts at least 30 guesses by the winner; 12 games need many more
			waitFor(t, 15*time.Second, "12 finished games", func() bool { return f.Counters().Games >= 12 })
			c := f.Counters()
			elapsed := time.Since(began).Seconds()
			t.Logf("%d games, %d relayed in %.2fs", c.Games, c.Relayed, elapsed)
			if c.Logins != 11 {
				t.Errorf("logins = %d, want 11", c.Logins)
			}
			if c.Closed != 0 {
				t.Errorf("%d connections ended by the server during the run", c.Closed)
			}
			if c.Relayed < 12*59 {
				t.Errorf("%d relayed guesses for %d games; a game has at least 59", c.Relayed, c.Games)
			}
			lats := f.TakeLatencies()
			lat, late, wire, wake := load.Summarise(lats.Relay), load.Summarise(lats.Late), load.Summarise(lats.Wire), load.Summarise(lats.Wake)
			if lat.Count == 0 || lat.P50 <= 0 || lat.P99 < lat.P50 || lat.Max < lat.P999 {
				t.Errorf("latencies %+v", lat)
			}
			switch {
			case tc.goroutines || runtime.GOOS != "linux":
				if wire.Count != 0 {
					t.Errorf("%d kernel-to-kernel latencies from clients that take no receive timestamps", wire.Count)
				}
			case wire.Count < lat.Count*9/10:
				t.Errorf("kernel-to-kernel latencies for %d of %d relayed guesses", wire.Count, lat.Count)
			case wire.P50 > lat.P50 || wire.Max > lat.Max:
				// each is the relay latency without the client's own delays
				t.Errorf("kernel to kernel (%+v) exceeds the relay latency it is part of (%+v)", wire, lat)
			case wake.Count != wire.Count || wake.P50 > lat.P50 || wake.Max > lat.Max:
				// the wait to be read is the part of it after the opponent's kernel
				t.Errorf("the opponent's lateness in reading (%+v) is not part of the relay latency (%+v)", wake, lat)
			}
			switch {
			case tc.rate == 0 && late.Count != 0:
				t.Errorf("closed loop has no schedule to be late for, yet %d sends were timed", late.Count)
			case tc.rate > 0 && late.Count == 0:
				t.Error("open loop: the client's own lateness was not recorded")
			case late.P50 > lat.P50:
				// a guess's latency includes how late its sender was
				t.Errorf("the client's lateness (p50 %v) exceeds the latency it is part of (p50 %v)", late.P50, lat.P50)
			}
			if tc.rate > 0 {
				// the schedule caps the rate (a little over: games restart at a random phase)
				n := c.Sub(before).Relayed
				if max := tc.rate*elapsed*1.1 + 8; float64(n) > max {
					t.Errorf("open loop relayed %d guesses in %.2fs, more than %.0f", n, elapsed, max)
				}
			}
		})
	}
}

// startRelay runs the minimal relay of bench/relay on loopback.
func startRelay(t *testing.T) string {
	t.Helper()
	r, done, err := relay.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.Close()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return r.Addr()
}

// TestFleetAgainstRelay: against a server that judges nothing and only
// forwards bytes (as the reference server forwards GameOver), games end
// only because the winner says so, and a new one starts each time.
func TestFleetAgainstRelay(t *testing.T) {
	for _, rate := range []float64{0, 2000} {
		t.Run(map[bool]string{true: "open", false: "closed"}[rate > 0], func(t *testing.T) {
			addr := startRelay(t)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			f := load.New(load.Config{Addr: addr, Relay: true, Seed: 1})
			defer f.Close(10 * time.Second)
			f.Record(true)
			if err := f.Games(ctx, 0, 4); err != nil {
				t.Fatal(err)
			}
			f.SetRate(rate)
			waitFor(t, 15*time.Second, "12 finished games", func() bool { return f.Counters().Games >= 12 })
			c := f.Counters()
			if c.Logins != 8 {
				t.Errorf("logins = %d, want 8", c.Logins)
			}
			if c.Relayed < 12*59 {
				t.Errorf("%d relayed guesses for %d games; a game has at least 59", c.Relayed, c.Games)
			}
			if lat := load.Summarise(f.TakeLatency()); lat.Count == 0 || lat.P50 <= 0 {
				t.Errorf("latencies %+v", lat)
			}
		})
	}
}

// TestFleetOverWebSocket: the same games through the WebSocket gateway.
func TestFleetOverWebSocket(t *testing.T) {
	url := startGateway(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	f := load.New(load.Config{WS: url, Seed: 1})
	defer f.Close(10 * time.Second)
	if err := f.Games(ctx, 0, 2); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 15*time.Second, "4 finished games", func() bool { return f.Counters().Games >= 4 })
	if c := f.Counters(); c.Relayed < 4*59 {
		t.Errorf("%d relayed guesses for %d games; a game has at least 59", c.Relayed, c.Games)
	}
}

// TestServerLimitIsCounted: when the server closes players for sending too
// fast (bomberd's per-connection segment rate limit, on by default), the
// fleet counts the connections it lost, so a bench that forgot to lift the
// limit cannot pass for a measurement.
func TestServerLimitIsCounted(t *testing.T) {
	cfg := serverConfig()
	cfg.Hub.SegmentRate, cfg.Hub.SegmentBurst = 50, 10
	addr, _ := servertest.Start(t, cfg, true)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	f := load.New(load.Config{Addr: addr, Seed: 1})
	defer f.Close(10 * time.Second)
	if err := f.Games(ctx, 0, 2); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 15*time.Second, "a player closed by the rate limit", func() bool { return f.Counters().Closed > 0 })
}

func TestLoginFailureIsReported(t *testing.T) {
	addr := startServer(t, "reactor")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	f := load.New(load.Config{Addr: addr, Password: "wrong"})
	defer f.Close(5 * time.Second)
	err := f.Idle(ctx, 0, 2, 0)
	if err == nil || !strings.Contains(err.Error(), "PasswdResp 3") {
		t.Fatalf("err = %v, want a wrong-password failure", err)
	}
}
