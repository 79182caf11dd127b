//go:build linux

package main

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestReferenceRunsWhatItHolds: the reference server's select(2) loop holds
// about 1,000 connections, so each phase runs on it only the counts that
// fit (and on bomberd all of them), and no storm that would outgrow it.
func TestReferenceRunsWhatItHolds(t *testing.T) {
	o := options{refMax: 1000, online: 400, storm: 200, storms: 1}
	for _, c := range []struct {
		srv     string
		counts  []int
		perConn int
		want    []int
	}{
		{refName, []int{100, 400, 1000}, 2, []int{100, 400}},
		{refName, []int{900, 10000}, 1, []int{900}},
		{refName, []int{1000}, 2, nil},
		{"reactor", []int{100, 400, 1000}, 2, []int{100, 400, 1000}},
		{floorName, []int{10000}, 2, []int{10000}},
	} {
		if got := fitting(o, c.srv, c.counts, c.perConn); !slices.Equal(got, c.want) {
			t.Errorf("%s, %v counts of %d connections: ran %v, want %v", c.srv, c.counts, c.perConn, got, c.want)
		}
	}
	// 400 online (the 200 players among them), then the storm and the
	// storm at half saturation, whose users stay online
	if got := stormConns(o, 100); got != 800 {
		t.Errorf("storms on 100 games hold %d connections, want 800", got)
	}
	o.online = 10000
	if got := stormConns(o, 100); got <= o.refMax {
		t.Errorf("storms among 10,000 online hold %d connections, within the reference's %d", got, o.refMax)
	}
}

// TestReferenceColumn: the table has a column for the reference server; a
// count it could not hold, and the Go heap it has not, read "—", never a
// zero that looks measured; its CPU rounds are divided by the reactor's.
func TestReferenceColumn(t *testing.T) {
	ref, reactor := newTrResult(), newTrResult()
	ref.idleRSS[900] = 46 * 1024
	ref.idlePeak[900] = 40 << 20
	ref.games[100] = gameResult{rate: 30000, cpuPerGuess: 33, cpuShare: 0.99, peakRSS: 5 << 20}
	ref.latGames = 100
	ref.stormErr = "login storm: u000571: connection reset by peer"
	reactor.idleRSS[900], reactor.idleRSS[10000] = 7*1024, 1.1*1024
	reactor.idleGo[900], reactor.idleGo[10000] = 6*1024, 0.8*1024
	reactor.idlePeak[900], reactor.idlePeak[10000] = 30<<20, 708<<20
	reactor.games[100] = gameResult{rate: 60000, cpuPerGuess: 13, cpuShare: 0.8, peakRSS: 40 << 20}
	reactor.games[1000] = gameResult{rate: 58000, cpuPerGuess: 15, cpuShare: 0.9, peakRSS: 2040 << 20}
	reactor.latGames = 100
	res := &results{opts: options{transports: []string{"reactor"}, idle: []int{900, 10000}, games: []int{100, 1000},
		reference: []string{"/opt/ref/server"}, refAddr: "127.0.0.1:20343", refMax: 1000, storm: 200, online: 400, storms: 1},
		byTr: map[string]*trResult{refName: ref, "reactor": reactor},
		pure: pureResult{in: 1e6, out: 3e6, elapsed: time.Second},
		cpu: &cpuSeries{games: []int{100, 1000}, servers: []string{refName, "reactor"}, rounds: 1, window: 5 * time.Second,
			perGame: map[string]map[int][]float64{refName: {100: {34}}, "reactor": {100: {13.6}, 1000: {15}}}},
	}
	var b strings.Builder
	res.print(&b)
	out := b.String()
	cells := map[string][]string{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Split(strings.Trim(l, "| "), " | "); len(f) > 2 {
			cells[f[0]] = f
		}
	}
	if h := cells["measurement"]; len(h) < 4 || h[2] != refName || h[3] != "reactor" {
		t.Fatalf("header: %q", h)
	}
	for row, want := range map[string]string{
		"(a) RSS per idle logged-in connection, 900 connections":                                               "46.00 KiB",
		"(a) RSS per idle logged-in connection, 10k connections":                                               "—",
		"(a) Go heap + stacks in use per idle logged-in connection, 900 connections":                           "—",
		"(a) the daemon's peak RSS while the 900 logged in (VmHWM: the login waves' unread presence included)": "40 MiB",
		"(a) the daemon's peak RSS while the 10k logged in (VmHWM: the login waves' unread presence included)": "—",
		"(b) relayed guesses per second, 100 games (closed loop)":                                              "30000",
		"(b) relayed guesses per second, 1k games (closed loop)":                                               "—",
		"(b) server CPU per relayed guess, 1k games":                                                           "—",
		"(b) the server's peak RSS once 100 games were playing (VmHWM: their players' login wave included)":    "5 MiB",
		"(b) the server's peak RSS once 1k games were playing (VmHWM: their players' login wave included)":     "—",
		"(d) pure state machine, segments per second (in + out)":                                               "—",
	} {
		c := cells[row]
		if len(c) < 4 {
			t.Errorf("no row %q in\n%s", row, out)
			continue
		}
		if !strings.HasPrefix(c[2], want) {
			t.Errorf("%s: the reference's cell is %q, want %q", row, c[2], want)
		}
		if c[3] == "—" {
			t.Errorf("%s: the reactor's cell is empty", row)
		}
	}
	// a storm it lost logins in says so, where the reactor's has figures
	storm := cells["(c) relay latency during 200 logins among 400 online, games at the first fixed rate, p50 / p99 / p99.9"]
	if len(storm) < 4 || !strings.HasPrefix(storm[2], "failed: login storm: u000571") || storm[3] != "—" {
		t.Errorf("the storm row: %q", storm)
	}
	later := cells["(c) relay latency during 200 logins among 600 online, games at half saturation, p50 / p99 / p99.9"]
	if len(later) < 4 || later[2] != "failed (above)" {
		t.Errorf("the storm at half saturation, after the first failed: %q", later)
	}
	if c := cells["100"]; len(c) < 4 || !strings.Contains(strings.Join(c, " | "), "2.50×") {
		t.Errorf("the rounds' 100 games row lacks reference ÷ reactor (34 ÷ 13.6): %q", c)
	}
	if c := cells["1000"]; len(c) < 3 || c[1] != "—" {
		t.Errorf("the rounds' 1000 games row: the reference's cell %q, want —", c)
	}
	if !strings.Contains(out, "reference ÷ reactor") || !strings.Contains(out, "/opt/ref/server") || !strings.Contains(out, "select(2)") {
		t.Errorf("the table does not say what the reference server is or why cells are missing:\n%s", out)
	}
}

// TestStormTakesLoginsAtOnce: the storm process takes how many of its
// online users log in at once (the reference server needs few), and
// refuses a count that would log in none.
func TestStormTakesLoginsAtOnce(t *testing.T) {
	for _, bad := range []string{"0", "-3", "x"} {
		err := stormMain([]string{"127.0.0.1:1", "0", "10", "5", "1s", bad})
		if err == nil || !strings.Contains(err.Error(), "AT_ONCE") {
			t.Errorf("AT_ONCE %q: %v", bad, err)
		}
	}
	if err := stormMain([]string{"127.0.0.1:1", "0", "10", "5", "1s", "8", "extra"}); err == nil || !strings.Contains(err.Error(), "usage") {
		t.Errorf("seven arguments: %v", err)
	}
}
