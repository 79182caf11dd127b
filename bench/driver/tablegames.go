//go:build linux

package main

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/bomber-game/bomber/bench/load"
	"github.com/bomber-game/bomber/client/tables"
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// The table-game phase: for each of the five games of
// the extended protocol, o.tables tables play whole games at once against
// one bomberd (client/tables drives every seat with random legal moves,
// one watcher per table), and the server's CPU over the play divided by
// the moves played is its cost per move. Then one Aeroplane Chess table of
// 4 players and 10 watchers measures the relay latency of a move: from
// the seat's write of Move to each of the other 13 connections reading the
// Moved it causes.

// tableResult is one game's row of the table-game phase.
type tableResult struct {
	game   string
	seats  int
	tables int
	moves  int
	cpu    time.Duration // the server's, over the play
	took   time.Duration // the play, summed over rounds
	rounds int
	// perRound is each round's server CPU µs per move, in order
	perRound []float64
	// vs is each round's cost per move ÷ that of the round played beside
	// it: over TCP the fan-out floor's with the same k, over WebSocket
	// the same game's over TCP
	vs []float64
}

const (
	tableWatchers = 1   // per table in the CPU runs
	latWatchers   = 10  // in the latency game
	tableMaxMoves = 300 // a game that has not ended by then is resigned
	// seatsMax bounds the users one table takes (4 seats, a watcher).
	seatsMax = 5
)

// tableUsers is how many accounts the phase logs in at most.
func tableUsers(tables int) int {
	return max(4*len(statemachine.Catalogue())*tables*seatsMax, 4+latWatchers)
}

// tableGames plays each table game on a fresh bomberd with transport tr,
// in rounds, each followed by the same through the WebSocket gateway and
// a round of the fan-out floor with the same recipients per move: the
// ratios the goals judge compare rounds played one after the other, not
// phases minutes apart on a machine whose speed drifts. Then the latency
// game.
func tableGames(ctx context.Context, o options, tr, db, tmp string, res *results) error {
	d, err := startDaemon(o.bomberd, tr, tr, db, serverCPU(o), tmp, true)
	if err != nil {
		return err
	}
	defer d.stop()
	fl, err := startFloor("fanout", serverCPU(o), tmp)
	if err != nil {
		return err
	}
	defer fl.stop()
	res.tables, res.wsTables, res.fanFloor = nil, nil, map[int]tableResult{}
	// every round takes fresh users: a user whose last connection the
	// server has not yet seen close would be a second login
	next := 0
	users := func(n int) []string {
		var us []string
		for range n {
			us = append(us, load.Name(next%tableUsers(o.tables)))
			next++
		}
		return us
	}
	fanKey := 0
	window := max(o.window/2, 3*time.Second)
	for gi, e := range statemachine.Catalogue() {
		seats := tableSeats(e.Spec)
		k := seats + tableWatchers
		// rounds of o.tables games at once until their play adds up to
		// the window; only the play is measured, not the seating
		sum := tableResult{game: e.Spec.Name, seats: seats, tables: o.tables}
		wsSum := sum
		floor := res.fanFloor[k]
		floor.game, floor.seats, floor.tables = "fan-out floor", seats, o.tables
		if path := os.Getenv("BENCH_TABLE_PROFILE"); path != "" {
			go func() { // the first 3 s of this game's rounds, TCP and WebSocket
				if err := d.cpuProfile(ctx, 3, fmt.Sprintf("%s.%s", path, e.Spec.Name)); err != nil {
					note("table profile: %v", err)
				}
			}()
		}
		for round := 0; sum.took < window; round++ {
			var tcp tableResult
			for _, ws := range []string{"", "ws://" + d.web + "/ws"} {
				// bomberd stores a round's records and closes its players'
				// sessions after the last move: not on the next round's clock
				settle(50*time.Millisecond, 5*time.Second, d.pid(), fl.pid())
				tg := make([]*tableGame, o.tables)
				for t := range tg {
					tg[t] = &tableGame{addr: d.addr, ws: ws, spec: e.Spec, seats: seats, users: users(seats + tableWatchers), seed: uint64(gi*100000 + round*1000 + t)}
				}
				r, err := playTables(ctx, d, tg)
				if err != nil {
					via := map[bool]string{false: "TCP", true: "WebSocket"}[ws != ""]
					return fmt.Errorf("%s tables over %s: %w (log %s)", e.Spec.Name, via, err, d.log.Name())
				}
				if ws == "" {
					tcp = r
					continue
				}
				wsSum.add(r, tcp)
			}
			groups := make([]*fanGroup, o.tables)
			for i := range groups {
				fanKey++
				groups[i] = &fanGroup{addr: fl.addr, key: fmt.Sprintf("%c%d", k, fanKey), k: k, seats: seats}
			}
			settle(50*time.Millisecond, 5*time.Second, d.pid(), fl.pid())
			// as many moves a group as the round played a table: a
			// round's fixed costs (its first moves after the other
			// process's round) weigh alike on both
			f, err := playFan(ctx, fl, groups, max(tcp.moves/o.tables, 1))
			if err != nil {
				return fmt.Errorf("fan-out floor, k=%d: %w (log %s)", k, err, fl.log.Name())
			}
			floor.add(f, tableResult{})
			sum.add(tcp, f)
		}
		res.tables = append(res.tables, sum)
		res.wsTables = append(res.wsTables, wsSum)
		res.fanFloor[k] = floor
		note("%s: %d rounds of %d tables of %s: %.1f µs server CPU per move over TCP (%d moves), %.1f over WebSocket (%d), fan-out floor k=%d %.1f",
			tr, sum.rounds, o.tables, e.Spec.Name, sum.perMove(), sum.moves, wsSum.perMove(), wsSum.moves, k, floor.perMove())
	}
	// the latency game: 4 players and 10 watchers, a few games in a row
	for _, e := range statemachine.Catalogue() {
		if e.Spec.Name != latGame {
			continue
		}
		h := hdrhistogram.New(1000, int64(time.Minute), 3)
		moves := 0
		for round := 0; round < 10 && h.TotalCount() < 5000; round++ {
			g := &tableGame{addr: d.addr, spec: e.Spec, seats: 4, users: users(4 + latWatchers), seed: uint64(7 + round), lat: h}
			if _, err := playTables(ctx, d, []*tableGame{g}); err != nil {
				return fmt.Errorf("%s latency game: %w (log %s)", e.Spec.Name, err, d.log.Name())
			}
			moves += g.moves
		}
		res.tableLat = &latRun{Latency: load.Summarise(h), hist: h}
		note("%s: %s, 4 players and %d watchers: %d moves, relay latency %+v", tr, e.Spec.Name, latWatchers, moves, res.tableLat.Latency)
	}
	return nil
}

// tableSeats is how many seats the table-game phase gives game spec's
// tables: the fewest it plays with (at least 2), the most for the latency
// game.
func tableSeats(spec rules.Spec) int {
	if spec.Name == latGame {
		return spec.MaxPlayers
	}
	return max(spec.MinPlayers, 2)
}

// add counts one round's play in r, with the ratio of its cost per move
// to that of the round it is judged against (played just before or after
// it), when there is one.
func (r *tableResult) add(round, against tableResult) {
	r.moves += round.moves
	r.cpu += round.cpu
	r.took += round.took
	r.rounds++
	r.perRound = append(r.perRound, round.perMove())
	if against.perMove() > 0 {
		r.vs = append(r.vs, round.perMove()/against.perMove())
	}
}

// latGame is the four-player game the latency is measured in.
const latGame = "aeroplane"

// cpuNanos is the CPU time of every thread of pid, in nanoseconds, from
// /proc/PID/task/*/schedstat: exact, where utime+stime counts 10 ms ticks
// (too coarse for a few thousand moves).
func cpuNanos(pid int) (int64, error) {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return 0, err
	}
	var sum int64
	for _, t := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, t.Name()))
		if err != nil {
			continue // the thread has gone
		}
		f := strings.Fields(string(b))
		if len(f) == 0 {
			continue
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("parsing %s schedstat: %w", t.Name(), err)
		}
		sum += n
	}
	return sum, nil
}

func (r tableResult) perMove() float64 {
	if r.moves == 0 {
		return 0
	}
	return float64(r.cpu.Nanoseconds()) / 1e3 / float64(r.moves)
}

// playTables seats every table, then plays them all at once and measures
// the server's CPU from the first Ready to the last GameEnd.
func playTables(ctx context.Context, d *daemon, tg []*tableGame) (tableResult, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	seated := make(chan error, len(tg))
	start := make(chan struct{})
	done := make(chan error, len(tg))
	for _, g := range tg {
		g.stop = make(chan struct{})
		go func() {
			defer g.close()
			if err := g.seat(ctx); err != nil {
				seated <- err
				return
			}
			seated <- nil
			select {
			case <-start:
			case <-ctx.Done():
				done <- ctx.Err()
				return
			}
			done <- g.play(ctx)
		}()
	}
	var first error
	for range tg {
		if err := <-seated; err != nil && first == nil {
			first = err
			cancel()
		}
	}
	k0, err := cpuNanos(d.pid())
	if err != nil {
		return tableResult{}, err
	}
	t0 := time.Now()
	close(start)
	for range tg {
		if err := <-done; err != nil && first == nil {
			first = err
			cancel()
		}
	}
	if first != nil {
		// the goroutines that failed to seat sent no done
		return tableResult{}, first
	}
	k1, err := cpuNanos(d.pid())
	if err != nil {
		return tableResult{}, err
	}
	r := tableResult{cpu: time.Duration(k1 - k0), took: time.Since(t0)}
	for _, g := range tg {
		r.moves += g.moves
	}
	return r, nil
}

// tableGame is one table: its seats and watchers, each a connection whose
// reader delivers whole messages to msgs.
type tableGame struct {
	addr  string
	ws    string // the WebSocket gateway's URL to connect to instead of addr; "" TCP
	spec  rules.Spec
	seats int
	users []string // seats first, then watchers
	seed  uint64
	lat   *hdrhistogram.Histogram // when set, every Moved's latency goes here

	conns []net.Conn
	msgs  chan tableMsg
	wg    sync.WaitGroup
	table uint32
	moves int
	sent  []time.Time // when each Move was written, in order
	by    []int       // and from which connection
	stop  chan struct{}
	base  uint32 // seq of the first Moved
	based bool
}

type tableMsg struct {
	conn int // index in users
	t    segment.Type
	body []byte
	at   time.Time
	err  error
}

func (g *tableGame) close() {
	close(g.stop)
	for _, c := range g.conns {
		c.Close()
	}
	g.wg.Wait()
}

// wait takes messages until until returns true, ctx ends, or a connection fails.
func (g *tableGame) wait(ctx context.Context, what string, until func(m tableMsg) (bool, error)) error {
	for {
		select {
		case m := <-g.msgs:
			if m.err != nil {
				return fmt.Errorf("%s: waiting for %s: %w", g.users[m.conn], what, m.err)
			}
			done, err := until(m)
			if err != nil || done {
				return err
			}
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", what, ctx.Err())
		}
	}
}

// seat connects everyone, creates the table, seats the players and the
// watchers.
func (g *tableGame) seat(ctx context.Context) error {
	g.msgs = make(chan tableMsg, 4096)
	var dl net.Dialer
	for i, u := range g.users {
		var nc net.Conn
		var err error
		if g.ws != "" {
			nc, err = load.DialWS(ctx, g.ws, &dl)
		} else {
			nc, err = dl.DialContext(ctx, "tcp", g.addr)
		}
		if err != nil {
			return fmt.Errorf("dial: %w", err)
		}
		g.conns = append(g.conns, nc)
		g.wg.Add(1)
		go g.read(i, nc)
		var b []byte
		for _, s := range segment.AppendMessage(nil, segment.Hello, segment.HelloMsg{Version: 1, Features: segment.FeatureTables}.Append(nil)) {
			b = s.AppendTo(b)
		}
		b = segment.Name(segment.Info, u).AppendTo(b)
		b = segment.Name(segment.Passwd, "123").AppendTo(b)
		if _, err := nc.Write(b); err != nil {
			return fmt.Errorf("login: %w", err)
		}
	}
	if err := g.send(0, segment.Create, segment.CreateMsg{Game: g.spec.Name, Seats: uint8(g.seats)}.Append(nil)); err != nil {
		return err
	}
	err := g.wait(ctx, "the table", func(m tableMsg) (bool, error) {
		if m.t == segment.Joined && m.conn == 0 {
			j, err := segment.DecodeJoinedBody(m.body)
			g.table = j.Table
			return true, err
		}
		return false, nil
	})
	if err != nil {
		return err
	}
	for i := 1; i < len(g.users); i++ {
		var err error
		if i < g.seats {
			err = g.send(i, segment.Join, segment.JoinMsg{Table: g.table, Seat: uint8(i)}.Append(nil))
		} else {
			err = g.send(i, segment.Watch, segment.WatchMsg{Table: g.table}.Append(nil))
		}
		if err != nil {
			return err
		}
	}
	joined := 0
	return g.wait(ctx, "everyone seated", func(m tableMsg) (bool, error) {
		if m.t == segment.Joined && m.conn != 0 {
			joined++
		}
		return joined == len(g.users)-1, nil
	})
}

// play readies the seats and drives the game to its end at every connection.
func (g *tableGame) play(ctx context.Context) error {
	drv := tables.New(g.spec, rules.Options{}, g.seats, g.seed)
	drv.MaxMoves = tableMaxMoves
	for i := range g.seats {
		if err := g.send(i, segment.Ready, nil); err != nil {
			return err
		}
	}
	ends := 0
	err := g.wait(ctx, "the end of the game", func(m tableMsg) (bool, error) {
		switch m.t {
		case segment.GameEnd:
			ends++
		case segment.Moved:
			g.moved(m)
		}
		if m.conn < g.seats {
			if err := drv.Receive(m.conn, m.t, m.body); err != nil {
				return false, err
			}
			out, ok, err := drv.Next()
			if err != nil {
				return false, err
			}
			if ok {
				if out.Type == segment.Move || out.Type == segment.MoveText {
					g.sent = append(g.sent, time.Now())
					g.by = append(g.by, out.Seat)
				}
				if err := g.send(out.Seat, out.Type, out.Body); err != nil {
					return false, err
				}
			}
		}
		return ends == len(g.users), nil
	})
	if err != nil {
		return err
	}
	if len(drv.Errors) > 0 {
		return fmt.Errorf("moves refused: %v", drv.Errors)
	}
	g.moves = drv.Moves()
	return nil
}

// moved records a Moved's latency: moves go one at a time, so the Moved
// with the k-th sequence number since the first answers the k-th Move.
func (g *tableGame) moved(m tableMsg) {
	if g.lat == nil || len(m.body) < 4 {
		return
	}
	seq := binary.BigEndian.Uint32(m.body)
	if !g.based {
		g.base, g.based = seq, true
	}
	k := int(seq - g.base)
	if k < 0 || k >= len(g.sent) || g.by[k] == m.conn {
		return // not ours, or the mover's own copy
	}
	v := max(int64(m.at.Sub(g.sent[k])), 1000)
	g.lat.RecordValue(min(v, int64(time.Minute)))
}

func (g *tableGame) send(conn int, t segment.Type, body []byte) error {
	var b []byte
	for _, s := range segment.AppendMessage(nil, t, body) {
		b = s.AppendTo(b)
	}
	if _, err := g.conns[conn].Write(b); err != nil {
		return fmt.Errorf("%s: %w", g.users[conn], err)
	}
	return nil
}

// read delivers whole messages, each stamped with when its read returned.
func (g *tableGame) read(conn int, nc net.Conn) {
	defer g.wg.Done()
	var d segment.Decoder
	d.SetDialect(segment.DialectExtended)
	var a segment.Assembler
	deliver := func(m tableMsg) bool {
		select {
		case g.msgs <- m:
			return true
		case <-g.stop:
			return false
		}
	}
	for {
		n, err := nc.Read(d.Free())
		at := time.Now()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				deliver(tableMsg{conn: conn, err: err})
			}
			return
		}
		d.Commit(n)
		for {
			s, ok, err := d.Next()
			if err != nil {
				deliver(tableMsg{conn: conn, err: err})
				return
			}
			if !ok {
				break
			}
			if !s.Type.Extended() {
				continue // the lobby's reference segments (user list, notices)
			}
			t, body, done, err := a.Add(s)
			if err != nil {
				deliver(tableMsg{conn: conn, err: err})
				return
			}
			if done && !deliver(tableMsg{conn: conn, t: t, body: append([]byte(nil), body...), at: at}) {
				return
			}
		}
	}
}

// printTables writes the table-game rows, when the phase ran: each game
// through the TCP port, the fan-out floor with the same recipients per
// move (k: seats and watcher), and the same game through the WebSocket
// gateway.
func (res *results) printTables(w io.Writer) {
	if len(res.tables) == 0 {
		return
	}
	tr := res.opts.transports[0]
	fmt.Fprintf(w, "\n**Table games on the extended protocol** (bomberd %s; per game, %d tables at once, every seat a scripted player making random legal moves as fast as the server answers, %d watcher per table; a game not over after %d moves is resigned; each round followed by the same through the WebSocket gateway and a round of the fan-out floor (`bench/relay`, one read and k writes a move) with the same k recipients a move, the mover included, played alike; CPU per move over all the rounds with the range of the rounds' figures; the ratios are medians of each round's ratio to the round beside it, with their range):\n\n",
		tr, res.opts.tables, tableWatchers, tableMaxMoves)
	fmt.Fprintf(w, "| game | seats | moves (rounds) | play time | server CPU per move | moves/s | k | fan-out floor per move | ÷ floor (goal ≤ 1.3×) | WebSocket per move | WebSocket ÷ TCP (goal ≤ 1.5×) |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for i, r := range res.tables {
		k := r.seats + tableWatchers
		floor, fr := "—", "—"
		if f, ok := res.fanFloor[k]; ok && f.perMove() > 0 {
			floor = fmt.Sprintf("%.1f µs (%s)", f.perMove(), roundsRange(f.perRound))
		}
		if len(r.vs) > 0 {
			fr = fmt.Sprintf("%.2f× (%s)", median(r.vs), spreadOf(r.vs, times))
		}
		wsc, wsr := "—", "—"
		if i < len(res.wsTables) && res.wsTables[i].perMove() > 0 {
			x := res.wsTables[i]
			wsc = fmt.Sprintf("%.1f µs (%s)", x.perMove(), roundsRange(x.perRound))
			if len(x.vs) > 0 {
				wsr = fmt.Sprintf("%.2f× (%s)", median(x.vs), spreadOf(x.vs, times))
			}
		}
		fmt.Fprintf(w, "| %s | %d | %d (%d) | %v | %.1f µs (%s) | %.0f | %d | %s | %s | %s | %s |\n", r.game, r.seats, r.moves, r.rounds, r.took.Round(time.Millisecond),
			r.perMove(), roundsRange(r.perRound), float64(r.moves)/r.took.Seconds(), k, floor, fr, wsc, wsr)
	}
	if l := res.tableLat; l != nil {
		fmt.Fprintf(w, "\nRelay latency in %s games of 4 players and %d watchers, one table at a time (from the seat's write of Move to each of the 13 other connections reading its Moved, closed loop): p50 %s, p99 %s, p99.9 %s, max %s (n=%d).\n",
			latGame, latWatchers, us(l.P50), us(l.P99), us(l.P999), us(l.Max), l.Count)
	}
}

// roundsRange is the range of the rounds' figures: rounds are many and
// short (as many as it takes to fill the window), so not each is listed.
func roundsRange(xs []float64) string {
	if len(xs) == 0 {
		return "no round"
	}
	return fmt.Sprintf("%.1f–%.1f in %d rounds", slices.Min(xs), slices.Max(xs), len(xs))
}
