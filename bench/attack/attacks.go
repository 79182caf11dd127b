//go:build linux

package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bomber-game/bomber/client/ext"
	"github.com/bomber-game/bomber/segment"
)

// attackEnv is what every attack gets: the daemon and how long to run.
type attackEnv struct {
	d    *daemon
	dur  time.Duration
	ws   string // the WebSocket gateway's URL
	base int    // bomberd's descriptors before the first attack
}

// attack is one item of the set: run attacks until ctx ends, then says
// in r whether the attack's aim was defeated.
type attack struct {
	key, name string
	users     []string // accounts it logs in as
	// atLeast is its shortest run: a never-reader at the segment rate
	// needs a few seconds to pass the output bound
	atLeast time.Duration
	run     func(ctx context.Context, env *attackEnv, r *result)
}

// attacks is the set, in the order run.
var attacks = []attack{
	{key: "webfd", name: "descriptor exhaustion: idle keep-alive web connections", run: webDescriptors},
	{key: "rebind", name: "DNS-rebinding Host on the web listener", run: rebinding},
	{key: "chat", name: "chat control characters", users: []string{"chatter", "listener"}, run: chatControls},
	{key: "lockout", name: "lock-out: 8 rotating addresses against one user", run: lockOut},
	{key: "noread", name: "never-reading clients (TCP and WebSocket)", users: names("nr", 8), run: neverReaders, atLeast: 6 * time.Second},
	{key: "bots", name: "computer seats: one user's 200 tables, 32 users at computer tables", users: append(names("hog", 33), "honest"), run: botTables},
	{key: "admin", name: "admin listener: unauthenticated GETs, 16 pipelining /metrics", run: adminListener},
	{key: "frozen", name: "frozen peers: 32 clients stop reading and pinging", users: append(names("fz", 32), "pinger"), run: frozenPeers},
}

// names is prefix00 .. prefix(n-1).
func names(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%02d", prefix, i)
	}
	return out
}

// fdCount is pid's open descriptors.
func fdCount(pid int) int {
	ents, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	return len(ents)
}

// settle waits (at most 20 s) until bomberd has closed what the last
// attack left, so that the next one starts from the same place.
func (env *attackEnv) settle(ctx context.Context) {
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end) && ctx.Err() == nil; {
		if fdCount(env.d.pid()) <= env.base+8 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// webDescriptors opens 63 keep-alive HTTP connections to the web port from
// each of 16 addresses (just under the per-address cap), each served once
// and then idle, and holds them: its aim is to take the descriptors the
// game port needs, so that the witness's logins go unanswered.
func webDescriptors(ctx context.Context, env *attackEnv, r *result) {
	const addrs, each = 16, 63
	var (
		mu     sync.Mutex
		conns  []net.Conn
		served atomic.Int32
		wg     sync.WaitGroup
	)
	for _, src := range sources(2, addrs) {
		for range each {
			wg.Add(1)
			go func() {
				defer wg.Done()
				nc, err := dialer(src).DialContext(ctx, "tcp", env.d.web)
				if err != nil {
					return
				}
				mu.Lock()
				conns = append(conns, nc)
				mu.Unlock()
				fmt.Fprintf(nc, "GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
				nc.SetReadDeadline(time.Now().Add(2 * time.Second)) // those left in the backlog stay unanswered
				if resp, err := http.ReadResponse(bufio.NewReader(nc), nil); err == nil {
					resp.Body.Close()
					served.Add(1) // now an idle keep-alive connection
				}
				nc.SetReadDeadline(time.Time{})
			}()
		}
	}
	wg.Wait()
	<-ctx.Done()
	// one more login while every connection is still held
	_, lastErr := loginOnce(context.Background(), env.d.game, witnessSource, witnessName, password)
	mu.Lock()
	for _, nc := range conns {
		nc.Close()
	}
	opened := len(conns)
	mu.Unlock()
	r.defeated = lastErr == nil && r.witness.ok() > 0 && r.witness.ok() == r.witness.total()
	r.aim = fmt.Sprintf("%d web connections held (%d served, the rest in the backlog); game-port logins answered", opened, served.Load())
	if lastErr != nil {
		r.aim += "; a login with all held failed: " + lastErr.Error()
	}
}

// rebinding sends the web listener requests naming a foreign Host (a page
// and a WebSocket upgrade with a matching foreign Origin), as a browser
// does after DNS rebinding: its aim is an answer other than a refusal.
func rebinding(ctx context.Context, env *attackEnv, r *result) {
	const evil = "rebind.attacker.example"
	do := func(ctx context.Context, path, host string, hdr map[string]string) (int, error) {
		nc, err := dialer("127.0.0.2").DialContext(ctx, "tcp", env.d.web)
		if err != nil {
			return 0, err
		}
		defer nc.Close()
		nc.SetDeadline(time.Now().Add(5 * time.Second))
		req := "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n"
		for k, v := range hdr {
			req += k + ": " + v + "\r\n"
		}
		if _, err := io.WriteString(nc, req+"\r\n"); err != nil {
			return 0, err
		}
		resp, err := http.ReadResponse(bufio.NewReader(nc), nil)
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	upgrade := map[string]string{"Origin": "http://" + evil, "Upgrade": "websocket", "Connection": "Upgrade",
		"Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
	refused, answered := 0, map[int]int{}
	var errs int
	for i := 0; ctx.Err() == nil; i++ {
		path, hdr := "/", map[string]string(nil)
		if i%2 == 1 {
			path, hdr = "/ws", upgrade
		}
		code, err := do(ctx, path, evil, hdr)
		switch {
		case ctx.Err() != nil:
		case err != nil:
			errs++
		case code == http.StatusForbidden || code == http.StatusMisdirectedRequest:
			refused++
		default:
			answered[code]++
		}
		time.Sleep(50 * time.Millisecond) // a steady trickle; the point is the answer, not the rate
	}
	// the same page with the listener's own Host is served: the refusals
	// are the Host check's, not a broken listener's
	own, err := do(context.Background(), "/", env.d.web, nil)
	r.defeated = refused > 0 && len(answered) == 0 && err == nil && own == http.StatusOK
	other := ""
	if len(answered) > 0 {
		other = fmt.Sprintf(" %v", answered) // status → count
	}
	r.aim = fmt.Sprintf("%d foreign-Host requests (page and upgrade) refused with 403/421, %d answered otherwise%s, %d failed; own Host: %d", refused, sum(answered), other, errs, own)
}

func sum(m map[int]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// hostileLines are chat lines whose control or bidi characters would let
// one user forge or hide what another sees.
var hostileLines = []string{
	"x\r Beth: type your password", "\x1b]0;owned\x07title", "\x1b[2J\x1b[Hcleared", "nul\x00byte",
	"\u202Eevil reversed", "c1 \u009b31m csi", "del\x7f", "\u2066isolate\u2069",
}

// forged reports whether s holds a C0 or C1 control, DEL, or a bidi
// formatting character.
func forged(s string) bool {
	for _, r := range s {
		switch {
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
			return true
		case r == 0x200e, r == 0x200f, r == 0x061c, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return true
		}
	}
	return false
}

// chatControls has one user say hostile lines in the lobby among clean
// ones; its aim is a line with control characters on another user's
// screen.
func chatControls(ctx context.Context, env *attackEnv, r *result) {
	chatter, err := dialExt(ctx, env.d.game, "", "127.0.0.3", "chatter")
	if err != nil {
		r.aim = err.Error()
		return
	}
	listener, err := dialExt(ctx, env.d.game, "", witnessSource, "listener")
	if err != nil {
		chatter.close()
		r.aim = err.Error()
		return
	}
	var (
		mu                  sync.Mutex
		clean, bad, refused int
		wg                  sync.WaitGroup
	)
	wg.Add(2)
	go func() {
		defer wg.Done()
		listener.pump(env.dur+time.Minute, func(ev ext.Event) (bool, error) {
			if ev.Kind == ext.EvChat && ev.Chat.From == "chatter" {
				mu.Lock()
				if forged(ev.Chat.Text) || forged(ev.Chat.From) {
					bad++
				} else {
					clean++
				}
				mu.Unlock()
			}
			return false, nil
		})
	}()
	go func() {
		defer wg.Done()
		chatter.pump(env.dur+time.Minute, func(ev ext.Event) (bool, error) {
			if ev.Kind == ext.EvError && ev.Err.Req == segment.Chat {
				mu.Lock()
				refused++
				mu.Unlock()
			}
			return false, nil
		})
	}()
	say := func(text string) { chatter.sendMsg(segment.ChatBody{Scope: segment.ScopeLobby, Text: text}) }
	// the burst chat allows at once, then a line a second (chat_rate)
	say("hello, a clean line")
	for _, l := range hostileLines[:4] {
		say(l)
	}
	sent := 5
	for i := 4; ; i++ {
		select {
		case <-ctx.Done():
		case <-time.After(1100 * time.Millisecond):
			if i%2 == 0 {
				say(hostileLines[i/2%len(hostileLines)])
			} else {
				say(fmt.Sprintf("clean line %d", i))
			}
			sent++
			continue
		}
		break
	}
	// the lines sent last have had time to arrive
	time.Sleep(500 * time.Millisecond)
	chatter.close()
	listener.close()
	wg.Wait()
	r.defeated = bad == 0 && clean > 0
	r.aim = fmt.Sprintf("%d lines sent: %d clean ones seen by another user, %d with controls seen, %d refused to the sender", sent, clean, bad, refused)
}

// sendMsg writes one message, bypassing the client's state machine (so it
// may be called while another goroutine pumps).
func (e *extConn) sendMsg(m segment.Message) error {
	segs, _, err := segment.Segments(nil, nil, m)
	if err != nil {
		return err
	}
	return e.send(ext.Out{Send: segs})
}

// lockOut tries wrong passwords for the owner from 8 rotating addresses
// (at least one a second, faster in short runs so that the name comes
// under attack), half of them closing before the answer, while the owner
// logs in with the right password every second from the address it used
// before: the attack's aim is to keep the owner out.
func lockOut(ctx context.Context, env *attackEnv, r *result) {
	r.owner = &logins{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); loginEvery(ctx, env.d.game, witnessSource, ownerName, time.Second, r.owner) }()
	rate := max(1, 8/env.dur.Seconds())
	srcs := sources(2, 8)
	var tried, answered atomic.Int32
	t := time.NewTicker(time.Duration(float64(time.Second) / rate))
	for i := 0; ; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			nc, err := dialer(srcs[i%len(srcs)]).DialContext(ctx, "tcp", env.d.game)
			if err != nil {
				return
			}
			defer nc.Close()
			b := segment.Name(segment.Info, ownerName).AppendTo(nil)
			b = segment.Name(segment.Passwd, fmt.Sprintf("guess%d", i)).AppendTo(b)
			nc.Write(b)
			tried.Add(1)
			if i%2 == 1 {
				return // hung up before the answer: still counted as a failure
			}
			nc.SetReadDeadline(time.Now().Add(5 * time.Second))
			if n, _ := nc.Read(make([]byte, 64)); n > 0 {
				answered.Add(1)
			}
		}()
		select {
		case <-ctx.Done():
		case <-t.C:
			continue
		}
		break
	}
	t.Stop()
	wg.Wait()
	r.defeated = r.owner.ok() > 0 && r.owner.ok() == r.owner.total()
	r.aim = fmt.Sprintf("%d wrong passwords from 8 addresses (%.1f/s, half hung up first); the owner logged in %d of %d times", tried.Load(), rate, r.owner.ok(), r.owner.total())
}

// neverReaders logs in 4 TCP and 4 WebSocket clients that then never read
// and ask for the catalogue over and over (under the segment rate): the
// aim is to make bomberd and the kernel hold their output without bound.
// Each must be closed, and what was left in the kernels for it is read
// afterwards.
func neverReaders(ctx context.Context, env *attackEnv, r *result) {
	const n = 8
	users := names("nr", n)
	type reader struct {
		e        *extConn
		ws       bool
		closedAt time.Duration
		held     int64
	}
	rs := make([]*reader, 0, n)
	for i, u := range users {
		ws := ""
		if i >= n/2 {
			ws = env.ws
		}
		e, err := dialExt(ctx, env.d.game, ws, "127.0.0.4", u)
		if err != nil {
			r.aim = err.Error()
			for _, x := range rs {
				x.e.close()
			}
			return
		}
		rs = append(rs, &reader{e: e, ws: ws != "", closedAt: -1})
	}
	start := time.Now()
	var wg sync.WaitGroup
	for _, x := range rs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// 150 at once (the burst is 200), then 40 a second (the rate is 50)
			for i := 0; ctx.Err() == nil; i++ {
				if x.e.sendMsg(segment.EmptyMsg{T: segment.CatalogReq}) != nil {
					return
				}
				if i >= 150 {
					time.Sleep(25 * time.Millisecond)
				}
			}
		}()
	}
	// bomberd's own view: a client it closed is no longer online
	t := time.NewTicker(250 * time.Millisecond)
	for open := n; open > 0 && ctx.Err() == nil; {
		select {
		case <-ctx.Done():
			continue
		case <-t.C:
		}
		on, err := env.d.online(ctx)
		if err != nil {
			continue
		}
		for i, x := range rs {
			if x.closedAt < 0 && !on[users[i]] {
				x.closedAt, open = time.Since(start), open-1
			}
		}
	}
	t.Stop()
	wg.Wait()
	// what the kernels held for each (its receive buffer, the daemon's send buffer)
	var worst time.Duration
	var most int64
	closed := 0
	for _, x := range rs {
		x.e.nc.SetReadDeadline(time.Now().Add(3 * time.Second))
		x.held, _ = io.Copy(io.Discard, x.e.nc)
		x.e.close()
		if x.closedAt >= 0 {
			closed++
			worst = max(worst, x.closedAt)
		}
		most = max(most, x.held)
	}
	const maxOutput = 256 << 10 // limits.max_output_bytes' default
	r.defeated = closed == n && most <= 3*maxOutput
	r.aim = fmt.Sprintf("%d of %d never-readers (4 TCP, 4 WS) closed, the last %.1f s in; at most %d KiB (%.1fx max_output_bytes) left in the kernels for one",
		closed, n, worst.Seconds(), most>>10, float64(most)/maxOutput)
}

// player plays seat games against computer players on e until ctx ends:
// on its turn a random legal move, a finished game followed by a rematch.
// Each answer of a computer player (the first move of another seat after
// one of ours) is timed into lat, when given.
func player(ctx context.Context, e *extConn, seed uint64, lat *[]time.Duration, onEv func(ext.Event)) error {
	go func() { <-ctx.Done(); e.close() }()
	rng := rand.New(rand.NewPCG(seed, 3))
	var sentAt time.Time
	moved := -1
	act := func() {
		g := e.c.Game()
		if g == nil || !e.c.MyTurn() || moved == g.Played() {
			return
		}
		legal := g.Legal(e.c.Seat())
		if len(legal) == 0 {
			return
		}
		if e.call(func() (ext.Out, error) { return e.c.Move(legal[rng.IntN(len(legal))]) }) == nil {
			moved, sentAt = g.Played(), time.Now()
		}
	}
	return e.pump(24*time.Hour, func(ev ext.Event) (bool, error) {
		if onEv != nil {
			onEv(ev)
		}
		switch ev.Kind {
		case ext.EvMoved:
			if ev.Seat != e.c.Seat() && !sentAt.IsZero() {
				if lat != nil {
					*lat = append(*lat, time.Since(sentAt))
				}
				sentAt = time.Time{}
			}
		case ext.EvGameEnd:
			e.call(e.c.Ready)
			moved = -1
		}
		act()
		return false, nil
	})
}

// botTable logs name in, opens a four-seat Aeroplane Chess table and
// gives its three other seats to the computer.
func botTable(ctx context.Context, env *attackEnv, src, name string) (*extConn, error) {
	e, err := dialExt(ctx, env.d.game, "", src, name)
	if err != nil {
		return nil, err
	}
	if err := e.call(func() (ext.Out, error) { return e.c.Create("aeroplane", 4, 0, nil) }); err != nil {
		e.close()
		return nil, err
	}
	err = e.pump(10*time.Second, func(ev ext.Event) (bool, error) {
		switch ev.Kind {
		case ext.EvJoined:
			return true, nil
		case ext.EvError:
			return true, fmt.Errorf("%s: create: %s", name, ev.Text)
		}
		return false, nil
	})
	if err == nil {
		err = e.call(func() (ext.Out, error) { return e.c.Bot(segment.SeatAny) })
	}
	if err != nil {
		e.close()
		return nil, err
	}
	return e, nil
}

// botTables has one user ask for 200 tables with computer seats, and 32
// users play Aeroplane Chess against three computer players each as fast
// as the server answers, while an honest user does the same at its own
// table: the aim is to make the honest table's computer players slow.
func botTables(ctx context.Context, env *attackEnv, r *result) {
	// one user, 200 Create and Bot requests on one session
	hog, err := dialExt(ctx, env.d.game, "", "127.0.0.5", "hog00")
	if err != nil {
		r.aim = err.Error()
		return
	}
	for range 200 {
		hog.sendMsg(segment.CreateMsg{Game: "aeroplane", Seats: 4})
		hog.sendMsg(segment.BotMsg{Seat: segment.SeatAny})
	}
	var (
		wg               sync.WaitGroup
		tables, refusals atomic.Int32
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		player(ctx, hog, 0, nil, func(ev ext.Event) {
			switch {
			case ev.Kind == ext.EvJoined:
				tables.Add(1)
			case ev.Kind == ext.EvError && ev.Err.Req == segment.Create:
				refusals.Add(1)
			}
		})
	}()
	var failed atomic.Int32
	for i, u := range names("hog", 33)[1:] {
		e, err := botTable(ctx, env, "127.0.0.5", u)
		if err != nil {
			failed.Add(1)
			continue
		}
		wg.Add(1)
		go func() { defer wg.Done(); player(ctx, e, uint64(i+1), nil, nil) }()
	}
	var lat []time.Duration
	honest, err := botTable(ctx, env, witnessSource, "honest")
	if err == nil {
		player(ctx, honest, 99, &lat, nil)
	}
	wg.Wait()
	p50, p99, mx := quantiles(lat)
	const bound = time.Second
	r.defeated = err == nil && len(lat) > 0 && p99 <= bound
	r.aim = fmt.Sprintf("the honest table's computer answered %d times, p50 %s, p99 %s, max %s (bound %s); the one user got %d of 200 tables (%d refused, the rest unanswered); %d other attacking tables failed to start",
		len(lat), ms(p50), ms(p99), ms(mx), bound, tables.Load(), refusals.Load(), failed.Load())
	if err != nil {
		r.aim += "; the honest table: " + err.Error()
	}
}

// adminListener sends the admin listener unauthenticated GETs of every
// path that tells something, and has 16 clients pipeline GET /metrics
// without ever reading the answers, while /healthz is asked every 250 ms:
// the aim is an answer without the token, or health checks that fail.
func adminListener(ctx context.Context, env *attackEnv, r *result) {
	var (
		wg      sync.WaitGroup
		redials atomic.Int32
	)
	req := []byte(strings.Repeat("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 64))
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				nc, err := dialer("127.0.0.6").DialContext(ctx, "tcp", env.d.admin)
				if err != nil {
					return
				}
				for ctx.Err() == nil {
					nc.SetWriteDeadline(time.Now().Add(250 * time.Millisecond))
					if _, err := nc.Write(req); err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
						break // the listener closed it: come back, as an attacker would
					}
				}
				nc.Close()
				redials.Add(1)
				select {
				case <-ctx.Done():
				case <-time.After(100 * time.Millisecond):
				}
			}
		}()
	}
	hc := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	get := func(path string) (int, time.Duration, error) {
		t0 := time.Now()
		resp, err := hc.Get("http://" + env.d.admin + path)
		if err != nil {
			return 0, 0, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, time.Since(t0), nil
	}
	paths := []string{"/users", "/metrics", "/debug/pprof/", "/debug/pprof/cmdline", "/debug/pprof/heap", "/kick"}
	var (
		unauth, leaked int
		health         []time.Duration
		sick           []string
	)
	t := time.NewTicker(250 * time.Millisecond)
	for i := 0; ctx.Err() == nil; i++ {
		code, d, err := get("/healthz")
		switch {
		case ctx.Err() != nil:
		case err != nil:
			sick = append(sick, err.Error())
		case code != http.StatusOK:
			sick = append(sick, fmt.Sprint(code))
		default:
			health = append(health, d)
		}
		if code, _, err := get(paths[i%len(paths)]); err == nil {
			if code == http.StatusUnauthorized || code == http.StatusMethodNotAllowed && paths[i%len(paths)] == "/kick" {
				unauth++
			} else {
				leaked++
			}
		}
		select {
		case <-ctx.Done():
		case <-t.C:
		}
	}
	t.Stop()
	wg.Wait()
	p50, p99, mx := quantiles(health)
	r.defeated = leaked == 0 && unauth > 0 && len(sick) == 0 && len(health) > 0 && mx < 2*time.Second
	r.aim = fmt.Sprintf("%d unauthenticated GETs refused, %d answered; /healthz %d/%d answered, p50 %s, p99 %s, max %s; the pipeliners were closed and came back %d times",
		unauth, leaked, len(health), len(health)+len(sick), ms(p50), ms(p99), ms(mx), redials.Load()-16)
}

// frozenPeers logs in 32 extended clients that then stop reading and never
// ping, as a stopped process would (its kernel still answers, so TCP
// keepalive does not end them), while the lobby's presence changes reach
// them; a client that asked for Ping pings every 250 ms. The aim is to stall
// the server's answers to everyone else.
func frozenPeers(ctx context.Context, env *attackEnv, r *result) {
	var frozen []*extConn
	defer func() {
		for _, e := range frozen {
			e.close()
		}
	}()
	for _, u := range names("fz", 32) {
		e, err := dialExt(ctx, env.d.game, "", "127.0.0.7", u)
		if err != nil {
			r.aim = err.Error()
			return
		}
		frozen = append(frozen, e) // and never read again
	}
	pinger, err := dialExt(ctx, env.d.game, "", witnessSource, "pinger")
	if err != nil {
		r.aim = err.Error()
		return
	}
	if !pinger.c.Pingable() {
		pinger.close()
		r.aim = "the server did not grant Ping"
		return
	}
	var (
		mu   sync.Mutex
		sent = map[uint32]time.Time{}
		rtt  []time.Duration
	)
	pinger.onSeg = func(s segment.Segment) {
		if s.Type != segment.Pong {
			return
		}
		if m, err := segment.DecodePongBody(s.Payload()); err == nil {
			mu.Lock()
			if t0, ok := sent[m.Nonce]; ok {
				rtt = append(rtt, time.Since(t0))
				delete(sent, m.Nonce)
			}
			mu.Unlock()
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		pinger.pump(env.dur+time.Minute, func(ext.Event) (bool, error) { return false, nil })
	}()
	t := time.NewTicker(250 * time.Millisecond)
	for nonce := uint32(1); ctx.Err() == nil; nonce++ {
		mu.Lock()
		sent[nonce] = time.Now()
		mu.Unlock()
		pinger.sendMsg(segment.PingMsg{Nonce: nonce})
		select {
		case <-ctx.Done():
		case <-t.C:
		}
	}
	t.Stop()
	time.Sleep(300 * time.Millisecond) // the last Ping's Pong
	pinger.close()
	<-done
	on, _ := env.d.online(context.Background())
	held := 0
	for _, u := range names("fz", 32) {
		if on[u] {
			held++
		}
	}
	mu.Lock()
	defer mu.Unlock()
	p50, p99, mx := quantiles(rtt)
	late := len(sent) // Pings never answered (the last may be in flight)
	r.defeated = len(rtt) > 0 && late <= 1 && mx < segment.PingTimeout*time.Second
	r.aim = fmt.Sprintf("Ping answered %d times (%d unanswered), p50 %s, p99 %s, max %s (a client gives up after %d s); %d of 32 frozen clients still held (not promised: their kernel answers)",
		len(rtt), late, ms(p50), ms(p99), ms(mx), segment.PingTimeout, held)
}
