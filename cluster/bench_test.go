package cluster

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/account"
	"github.com/bomber-game/bomber/bench/load"
	"github.com/bomber-game/bomber/client/ext"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server/servertest"
	"github.com/bomber-game/bomber/statemachine"
)

// BenchmarkRelay drives bomberd processes with the load generator (bench/load):
// a node alone without NATS, one clustered node, and three clustered nodes
// with each game's two players on different nodes. It reports relayed
// guesses per second (closed loop, every client guessing as soon as it may)
// and the relay latency's p50 and p99 in µs. Run it with
//
//	go test -run XXX -bench Relay -benchtime 1x ./cluster
//
// (BENCH_CLUSTER_GAMES games, default 100; BENCH_CLUSTER_WINDOW, default 5s).
func BenchmarkRelay(b *testing.B) {
	if _, err := exec.LookPath(natsBinary()); err != nil {
		b.Skipf("nats-server not found (%v); scripts/nats.sh installs it", err)
	}
	games, window, rate := 100, 5*time.Second, 2000
	fmt.Sscan(os.Getenv("BENCH_CLUSTER_GAMES"), &games)
	fmt.Sscan(os.Getenv("BENCH_CLUSTER_RATE"), &rate)
	if d, err := time.ParseDuration(os.Getenv("BENCH_CLUSTER_WINDOW")); err == nil {
		window = d
	}
	for _, nodes := range []int{0, 1, 3} {
		name := fmt.Sprintf("nodes=%d", nodes)
		if nodes == 0 {
			name = "alone"
		}
		b.Run(name, func(b *testing.B) {
			var addrs []string
			db, env := benchStore(b, games)
			if nodes == 0 {
				addrs = append(addrs, daemonNode(b, "", "", "alone", db, env...).addr)
			} else {
				ns := processNATS(b)
				world := fmt.Sprintf("b%d", time.Now().UnixNano()%1e9)
				for i := range nodes {
					addrs = append(addrs, daemonNode(b, ns.url, world, fmt.Sprintf("n%d", i), db, env...).addr)
				}
			}
			for range b.N {
				f := load.New(load.Config{Addrs: addrs, Seed: 1})
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				if err := f.Games(ctx, 0, games); err != nil {
					cancel()
					b.Fatal(err)
				}
				cancel()
				f.TakeLatency()
				f.Record(true)
				c0 := f.Counters()
				time.Sleep(window) // the measuring window: the load runs meanwhile
				c := f.Counters().Sub(c0)
				h := f.TakeLatency()
				// then open loop, at a rate every setup sustains
				f.SetRate(float64(rate))
				time.Sleep(window / 5) // the schedule settles
				f.TakeLatency()
				time.Sleep(window)
				o := f.TakeLatency()
				f.Close(10 * time.Second)
				b.ReportMetric(float64(c.Relayed)/window.Seconds(), "guesses/s")
				b.ReportMetric(float64(h.ValueAtQuantile(50))/1e3, "p50-µs")
				b.ReportMetric(float64(h.ValueAtQuantile(99))/1e3, "p99-µs")
				b.ReportMetric(float64(o.ValueAtQuantile(50))/1e3, "fixed-p50-µs")
				b.ReportMetric(float64(o.ValueAtQuantile(99))/1e3, "fixed-p99-µs")
			}
		})
	}
}

// BenchmarkCatchUp measures how fast a node that starts replays the
// world's log: a world plays BENCH_CLUSTER_REPLAY_GAMES games of each of
// the five games (default 20) on one node, then each iteration joins a
// new node and waits until it has applied the whole log. It reports log
// entries and bytes replayed per second.
func BenchmarkCatchUp(b *testing.B) {
	rounds := 20
	fmt.Sscan(os.Getenv("BENCH_CLUSTER_REPLAY_GAMES"), &rounds)
	ns := embeddedNATS(b)
	w := newWorld(b, ns, 1)
	users := []string{"Novate", "Twofyw", "Larry", "Albert", "Beth"}
	for r := range rounds {
		for gi, e := range statemachine.Catalogue() {
			servertest.PlayTable(b, w.addrs(), e.Spec, small[e.Spec.Name], users[:e.Spec.MaxPlayers], r*5+gi)
		}
	}
	ctx := context.Background()
	info, err := w.nodes[0].n.stream.Info(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		n := w.start(fmt.Sprintf("late%d", len(w.nodes)))
		want, err := w.nodes[0].tr.Stats(ctx)
		if err != nil {
			b.Fatal(err)
		}
		for n.n.Ready() != nil || !caughtUp(ctx, n, want) {
			time.Sleep(time.Millisecond) // no event says "applied"; the engine's stats do
		}
	}
	b.StopTimer()
	per := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(info.State.Msgs)/per, "entries/s")
	b.ReportMetric(float64(info.State.Bytes)/per/1e6, "MB/s")
	b.ReportMetric(float64(info.State.Msgs), "entries")
}

// caughtUp reports whether n's state machine has seen as many moves as want.
func caughtUp(ctx context.Context, n *testNode, want statemachine.Stats) bool {
	st, err := n.tr.Stats(ctx)
	return err == nil && st.TableMoves >= want.TableMoves
}

// BenchmarkFollow measures what following the world costs a node: two
// bomberd processes on one nats-server, one serving BENCH_CLUSTER_GAMES
// games (default 100) at BENCH_CLUSTER_RATE guesses a second (default
// 2000) for BENCH_CLUSTER_WINDOW (default 5s), the other (or
// BENCH_CLUSTER_IDLE others) with no client at all; with
// BENCH_CLUSTER_SERVE=n, n nodes serve the games, each player on the next
// (a game's two on two nodes). It reports an idle
// node's CPU (idle-cpu-%, their mean), its CPU per input it applied
// (follow-µs/input: a in docs/operations.md's capacity model), the
// serving nodes' CPU per relayed guess beyond that (serve-µs/guess: s),
// the inputs an idle node applied per guess, the least and the most of
// the world's table inputs one node applied (table-share-min, -max: a
// guess is one; a world in one log has every node apply all, 1.0), the
// log's entries a second
// and the nats-server's CPU (nats-cpu-%) and its CPU per entry, which it
// stores once and delivers to every node (nats-µs/entry). Run it with
//
//	go test -run XXX -bench Follow -benchtime 1x ./cluster
func BenchmarkFollow(b *testing.B) {
	needNATS(b)
	games, window, rate, nidle, nserve := 100, 5*time.Second, 2000, 1, 1
	fmt.Sscan(os.Getenv("BENCH_CLUSTER_GAMES"), &games)
	fmt.Sscan(os.Getenv("BENCH_CLUSTER_RATE"), &rate)
	fmt.Sscan(os.Getenv("BENCH_CLUSTER_IDLE"), &nidle)
	fmt.Sscan(os.Getenv("BENCH_CLUSTER_SERVE"), &nserve)
	if d, err := time.ParseDuration(os.Getenv("BENCH_CLUSTER_WINDOW")); err == nil {
		window = d
	}
	db, env := benchStore(b, games)
	ns := processNATS(b)
	world := fmt.Sprintf("f%d", time.Now().UnixNano()%1e9)
	serving := make([]daemon, max(nserve, 1))
	addrs := make([]string, len(serving))
	for i := range serving {
		serving[i] = daemonNode(b, ns.url, world, fmt.Sprintf("serve%d", i), db, env...)
		addrs[i] = serving[i].addr
	}
	idle := make([]daemon, max(nidle, 1))
	for i := range idle {
		idle[i] = daemonNode(b, ns.url, world, fmt.Sprintf("idle%d", i), db, env...)
	}
	metric := func(ds []daemon, line string) float64 { // summed over ds
		var n float64
		for _, d := range ds {
			v, _ := strconv.ParseFloat(scrape(b, d.admin, "/metrics", line), 64)
			n += v
		}
		return n
	}
	cpu := func(ds []daemon) time.Duration { // of ds, all together
		var t time.Duration
		for _, d := range ds {
			t += processCPU(b, d.cmd.Process.Pid)
		}
		return t
	}
	const tableLine, worldLine = `bomber_inputs_applied_total{scope="table"} `, `bomber_inputs_applied_total{scope="world"} `
	// inputs the idle nodes applied; table inputs each node applied,
	// serving ones first
	applied := func() float64 { return metric(idle, tableLine) + metric(idle, worldLine) }
	tableInputs := func() []float64 {
		var out []float64
		for _, d := range append(slices.Clone(serving), idle...) {
			out = append(out, metric([]daemon{d}, tableLine))
		}
		return out
	}
	serveCPU, idleCPU := func() time.Duration { return cpu(serving) }, func() time.Duration { return cpu(idle) }
	// the log's entries: the serving nodes append them all
	appends := func() float64 { return metric(serving, "bomber_cluster_appends_total ") }
	for range b.N {
		f := load.New(load.Config{Addrs: addrs, Seed: 1})
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		if err := f.Games(ctx, 0, games); err != nil {
			cancel()
			b.Fatal(err)
		}
		cancel()
		f.SetRate(float64(rate))
		time.Sleep(window / 5) // the schedule settles
		c0, in0, tables0 := f.Counters(), applied(), tableInputs()
		cpuServe0, cpuIdle0, cpuNATS0 := serveCPU(), idleCPU(), processCPU(b, ns.pid())
		entries0 := appends()
		start := time.Now()
		if out := os.Getenv("BENCH_FOLLOW_PROFILE"); out != "" {
			profile(b, idle[0], window, out) // takes the window
		} else {
			time.Sleep(window) // the measuring window: the load runs meanwhile
		}
		cpuServe, cpuIdle, cpuNATS := serveCPU()-cpuServe0, idleCPU()-cpuIdle0, processCPU(b, ns.pid())-cpuNATS0
		entries := appends() - entries0
		elapsed := time.Since(start)
		guesses := float64(f.Counters().Sub(c0).Relayed)
		tables := tableInputs()
		f.Close(10 * time.Second)
		inputs := applied() - in0
		if guesses == 0 || inputs == 0 {
			b.Fatalf("%v guesses relayed, %v inputs applied by the idle nodes", guesses, inputs)
		}
		a, k := cpuIdle.Seconds()/inputs, float64(len(idle))
		b.ReportMetric(float64(guesses)/elapsed.Seconds(), "guesses/s")
		b.ReportMetric(100*cpuIdle.Seconds()/elapsed.Seconds()/k, "idle-cpu-%")
		b.ReportMetric(a*1e6, "follow-µs/input")
		b.ReportMetric((cpuServe.Seconds()-float64(len(serving))*a*inputs/k)/guesses*1e6, "serve-µs/guess")
		// each node's share of the world's table inputs (a guess is one):
		// every node applies every one while the world is one log
		lo, hi := math.Inf(1), 0.0
		for i := range tables {
			share := (tables[i] - tables0[i]) / guesses
			lo, hi = min(lo, share), max(hi, share)
		}
		b.ReportMetric(lo, "table-share-min")
		b.ReportMetric(hi, "table-share-max")
		b.ReportMetric(inputs/guesses/k, "inputs/guess")
		b.ReportMetric(entries/elapsed.Seconds(), "entries/s")
		b.ReportMetric(100*cpuNATS.Seconds()/elapsed.Seconds(), "nats-cpu-%")
		b.ReportMetric(cpuNATS.Seconds()/entries*1e6, "nats-µs/entry")
	}
}

// BenchmarkComputerPlayers measures how a cluster shares its computer
// players: three bomberd processes on one nats-server, and
// BENCH_CLUSTER_BOT_TABLES tables (default 30) of BENCH_CLUSTER_BOT_GAME
// (checkers, default, a computer that searches; or aeroplane, one that
// follows rules of thumb), each with one person (a client that plays at
// random among the legal moves, and asks for a rematch when a game ends),
// the people spread over the nodes in turn as a balancer would, and
// computer players in the other seats,
// played for BENCH_CLUSTER_WINDOW (default 5s). It reports the computer
// players' moves a second in all, each node's share of them (n0-bots-%,
// n1-bots-%, n2-bots-%), each node's CPU (n0-cpu-%, ...), the log's
// entries a second and the nats-server's CPU. BENCH_BOMBERD runs another
// build's bomberd. Run it with
//
//	go test -run XXX -bench ComputerPlayers -benchtime 1x ./cluster
func BenchmarkComputerPlayers(b *testing.B) {
	needNATS(b)
	tables, game, window := 30, "checkers", 5*time.Second
	fmt.Sscan(os.Getenv("BENCH_CLUSTER_BOT_TABLES"), &tables)
	fmt.Sscan(os.Getenv("BENCH_CLUSTER_BOT_GAME"), &game)
	if d, err := time.ParseDuration(os.Getenv("BENCH_CLUSTER_WINDOW")); err == nil {
		window = d
	}
	seats := map[string]int{"checkers": 2, "aeroplane": 4}[game]
	if seats == 0 {
		b.Fatalf("BENCH_CLUSTER_BOT_GAME=%s: checkers or aeroplane", game)
	}
	names := make([]string, tables)
	for i := range names {
		names[i] = load.Name(i)
	}
	db := accountsStore(b, "123", names...)
	ns := processNATS(b)
	world := fmt.Sprintf("c%d", time.Now().UnixNano()%1e9)
	nodes := make([]daemon, 3)
	for i := range nodes {
		nodes[i] = daemonNode(b, ns.url, world, fmt.Sprintf("n%d", i), db, "BOMBER_LIMITS_LOGIN_FAILURES=0",
			"BOMBER_STORE_DEMO_ACCOUNTS=false", "BOMBER_LIMITS_MAX_CONNECTIONS_PER_IP=0")
	}
	appends := func(d daemon) float64 { // the log's entries this node put in
		v, _ := strconv.ParseFloat(scrape(b, d.admin, "/metrics", "bomber_cluster_appends_total "), 64)
		return v
	}
	botMoves := func(d daemon) float64 {
		var n float64
		for _, ok := range []string{"true", "false"} {
			v, _ := strconv.ParseFloat(scrape(b, d.admin, "/metrics", `bomber_bot_move_seconds_count{game="`+game+`",ok="`+ok+`"} `), 64)
			n += v
		}
		return n
	}
	for range b.N {
		r := servertest.NewRoom(b)
		var ps []*servertest.Player
		for i, name := range names {
			p := r.Join(name, nodes[i%len(nodes)].addr)
			r.Call(p, func() (ext.Out, error) { return p.C.Create(game, seats, 0, nil) })
			r.Until(name+"'s table", func() bool { return p.C.Table() != nil })
			r.Call(p, func() (ext.Out, error) { return p.C.Bot(segment.SeatAny) })
			ps = append(ps, p)
		}
		rematched := map[*servertest.Player]*ext.Game{} // the game each asked a rematch after
		rematch := func() {
			for _, p := range ps {
				if g := p.C.Game(); g != nil && g.Over() && rematched[p] != g {
					rematched[p] = g
					r.Call(p, p.C.Ready)
				}
			}
		}
		r.During(window/5, rematch) // the games start
		moves0, cpu0 := make([]float64, len(nodes)), make([]time.Duration, len(nodes))
		var entries0 float64
		for i, d := range nodes {
			moves0[i], cpu0[i] = botMoves(d), processCPU(b, d.cmd.Process.Pid)
			entries0 += appends(d)
		}
		cpuNATS0 := processCPU(b, ns.pid())
		start := time.Now()
		r.During(window, rematch) // the measuring window
		elapsed := time.Since(start)
		moves, cpu := make([]float64, len(nodes)), make([]time.Duration, len(nodes))
		var total, entries float64
		for i, d := range nodes {
			moves[i], cpu[i] = botMoves(d)-moves0[i], processCPU(b, d.cmd.Process.Pid)-cpu0[i]
			total += moves[i]
			entries += appends(d)
		}
		cpuNATS := processCPU(b, ns.pid()) - cpuNATS0
		entries -= entries0
		for _, p := range ps {
			p.NC.Close()
		}
		if total == 0 {
			b.Fatal("no computer player moved")
		}
		b.ReportMetric(total/elapsed.Seconds(), "bot-moves/s")
		b.ReportMetric(entries/elapsed.Seconds(), "entries/s")
		b.ReportMetric(100*cpuNATS.Seconds()/elapsed.Seconds(), "nats-cpu-%")
		for i := range nodes {
			b.ReportMetric(100*moves[i]/total, fmt.Sprintf("n%d-bots-%%", i))
			b.ReportMetric(100*cpu[i].Seconds()/elapsed.Seconds(), fmt.Sprintf("n%d-cpu-%%", i))
		}
	}
}

// profile writes a CPU profile of daemon d over window to file out
// (BenchmarkFollow's BENCH_FOLLOW_PROFILE, for the idle node).
func profile(t testing.TB, d daemon, window time.Duration, out string) {
	t.Helper()
	token, err := os.ReadFile(filepath.Join(d.cmd.Dir, "var", "admin.token"))
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", d.admin, int(window.Seconds())), nil)
	req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(token)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("profile: %s: %s", resp.Status, body)
	}
	if err := os.WriteFile(out, body, 0o644); err != nil {
		t.Fatal(err)
	}
}

// benchStore makes an SQLite store with the load generator's users for
// games games, and returns it with the settings a bench changes on
// bomberd: no login throttling (every login comes from 127.0.0.1) and no
// connection limit per address (daemonNode itself turns the per-connection
// segment rate off, for a closed loop).
func benchStore(b *testing.B, games int) (db string, env []string) {
	names := make([]string, 2*games)
	for i := range names {
		names[i] = load.Name(i)
	}
	return accountsStore(b, "123", names...), []string{"BOMBER_LIMITS_LOGIN_FAILURES=0", "BOMBER_STORE_DEMO_ACCOUNTS=false", "BOMBER_LIMITS_MAX_CONNECTIONS_PER_IP=0"}
}

// accountsStore makes an SQLite store with accounts for names, all with
// password (hashed cheaply: tests only), and returns its path.
func accountsStore(t testing.TB, password string, names ...string) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "bomber.db")
	s, err := account.OpenSQLite(context.Background(), db, account.NewHasher(account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 2))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, name := range names {
		if err := s.Add(context.Background(), name, password); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// processCPU is the CPU time process pid has used (user and system, all
// its threads), from /proc/PID/stat in clock ticks of 10 ms.
func processCPU(t testing.TB, pid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	// the command name, in parentheses, may hold spaces: fields count after it
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	utime, _ := strconv.Atoi(f[11])
	stime, _ := strconv.Atoi(f[12])
	return time.Duration(utime+stime) * 10 * time.Millisecond
}
