package server_test

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/bomber-game/bomber/netreplay"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/segment/transcript"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/server/servertest"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// demoStore answers checks from the demo accounts and can be switched off.
type demoStore struct {
	down     atomic.Bool
	accounts replay.Accounts
	mu       sync.Mutex
	records  []record.Game
	delay    time.Duration
}

func (s *demoStore) check(ctx context.Context, c statemachine.Check) statemachine.Answer {
	if s.delay > 0 {
		select {
		case <-time.After(s.delay):
		case <-ctx.Done():
			return statemachine.Unavailable
		}
	}
	if s.down.Load() {
		return statemachine.Unavailable
	}
	return s.accounts.Answer(c)
}

func (s *demoStore) record(_ context.Context, fs []server.FinishedGame) (int, error) {
	s.mu.Lock()
	for _, f := range fs {
		s.records = append(s.records, f.Record)
	}
	s.mu.Unlock()
	return len(fs), nil
}

type transportKind string

const (
	reactor transportKind = "reactor"
	// reactorKeepP is the reactor as bomberd runs it: its loop keeps its P
	// while traffic flows (Config.KeepP), the test's goroutines sharing
	// what Ps are left
	reactorKeepP transportKind = "reactor-keepp"
	netpkg       transportKind = "net"
)

// open makes a transport of this kind.
func (k transportKind) open(cfg server.Config) (server.Transport, error) {
	switch k {
	case reactor:
		return server.NewReactor(cfg)
	case reactorKeepP:
		cfg.KeepP = true
		return server.NewReactor(cfg)
	}
	return server.NewNetTransport(cfg), nil
}

type fixture struct {
	addr  string
	tr    server.Transport
	clock *servertest.Clock
	store *demoStore
}

func start(t *testing.T, kind transportKind, hub statemachine.Config, tweak func(*server.Config)) *fixture {
	t.Helper()
	return startWith(t, kind, hub, replay.DemoAccounts(), tweak)
}

// startWith starts a transport whose store knows accounts.
func startWith(t *testing.T, kind transportKind, hub statemachine.Config, accounts replay.Accounts, tweak func(*server.Config)) *fixture {
	t.Helper()
	f := &fixture{clock: servertest.NewClock(time.Unix(1_700_000_000, 0)), store: &demoStore{accounts: accounts}}
	cfg := server.Config{Hub: hub, Check: f.store.check, Record: f.store.record, Clock: f.clock, TickEvery: 2 * time.Millisecond}
	if tweak != nil {
		tweak(&cfg)
	}
	tr, err := kind.open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f.addr, f.tr = l.Addr().String(), tr
	served := make(chan struct{})
	go func() { tr.Serve(l); close(served) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := tr.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		<-served
	})
	return f
}

var kinds = []transportKind{reactor, reactorKeepP, netpkg}

// TestGoldenOverSockets plays every golden transcript (the test checklist
// of seed 003 and the bad-input cases) against both transports over real
// loopback sockets.
func TestGoldenOverSockets(t *testing.T) {
	files, _ := filepath.Glob("../testdata/transcripts/*.txt")
	if len(files) == 0 {
		t.Fatal("no transcripts")
	}
	for _, kind := range kinds {
		for _, file := range files {
			t.Run(string(kind)+"/"+filepath.Base(file), func(t *testing.T) {
				raw, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				entries, err := transcript.Parse(bytes.NewReader(raw))
				if err != nil {
					t.Fatal(err)
				}
				hub, err := replay.ConfigFromNotes(entries)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range entries {
					if e.Op == transcript.Open && replay.SourceOf(e) != "" {
						t.Skip("the transcript's connections come from several addresses; loopback has one")
					}
					if asksTheStore(e) {
						// the answers come from the games a server records
						// on a goroutine of its own, after the game ends:
						// TestGolden holds the hub to them in process, and
						// cmd/bomberd's TestHistoryThroughBomberd the real store
						t.Skip("the transcript asks account queries about recorded games")
					}
				}
				// the computer players play the transcript's bot lines
				f := start(t, kind, hub, func(c *server.Config) {
					c.Bot, c.BotBudget = replay.BotOracle(entries), time.Minute
					c.Entropy = replay.Seeds(replay.SeedOf(entries))
				})
				diffs, err := netreplay.Run(context.Background(), entries, netreplay.Options{
					Addr:  f.addr,
					Clock: func(d time.Duration) { f.clock.Advance(d) },
					Store: func(up bool) { f.store.down.Store(!up) },
				})
				if err != nil {
					t.Fatal(err)
				}
				if len(diffs) > 0 {
					t.Fatalf("%d differences:\n%s", len(diffs), netreplay.Format(diffs))
				}
			})
		}
	}
}

// dialLogin connects and logs in as name, returning the connection after
// the user list.
func dialLogin(t *testing.T, addr, name string) net.Conn {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	write(t, nc, segment.Name(segment.Info, name), segment.Name(segment.Passwd, "123"))
	readUntil(t, nc, segment.SyncEnd)
	return nc
}

// readUntil reads segments until one of type want arrives.
func readUntil(t *testing.T, nc net.Conn, want segment.Type) []segment.Segment {
	t.Helper()
	return readSegs(t, nc, func(s segment.Segment) bool { return s.Type == want })
}

func TestByteAtATime(t *testing.T) {
	for _, kind := range kinds {
		t.Run(string(kind), func(t *testing.T) {
			f := start(t, kind, statemachine.Config{}, nil)
			nc, err := net.Dial("tcp", f.addr)
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			info := segment.Name(segment.Info, "Cindy")
			pw := segment.Name(segment.Passwd, "123")
			stream := pw.AppendTo(info.AppendTo(nil))
			for _, b := range stream {
				if _, err := nc.Write([]byte{b}); err != nil {
					t.Fatal(err)
				}
				time.Sleep(time.Millisecond)
			}
			got := readUntil(t, nc, segment.SyncEnd)
			if len(got) != 3 || got[1].Type != segment.PasswdResp {
				t.Fatalf("got %v", got)
			}
		})
	}
}

func TestSegmentTimeoutAndConnLimits(t *testing.T) {
	for _, kind := range kinds {
		t.Run(string(kind), func(t *testing.T) {
			f := start(t, kind, statemachine.Config{}, func(c *server.Config) {
				c.SegmentTimeout = 10 * time.Second
				c.MaxConns = 3
				c.MaxConnsPerIP = 2
			})
			half, _ := net.Dial("tcp", f.addr)
			defer half.Close()
			half.Write([]byte{0x00, 0x00}) // half a header
			// the server times the half header from when it reads it, which
			// a busy machine may delay past any one advance of the clock:
			// advance it until the server closes the connection
			for end := time.Now().Add(5 * time.Second); ; {
				f.clock.Advance(11 * time.Second)
				half.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
				n, err := half.Read(make([]byte, 8))
				if err == nil {
					t.Fatalf("incomplete segment answered instead of timed out (read %d bytes)", n)
				}
				if ne, ok := err.(net.Error); !ok || !ne.Timeout() {
					break // closed by the server
				}
				if time.Now().After(end) {
					t.Fatal("incomplete segment not timed out")
				}
			}
			// per-IP limit: two stay, the third is closed at once
			a := dialLogin(t, f.addr, "Albert")
			b := dialLogin(t, f.addr, "Beth")
			c, err := net.Dial("tcp", f.addr)
			if err == nil {
				c.SetReadDeadline(time.Now().Add(3 * time.Second))
				if _, err := c.Read(make([]byte, 1)); err == nil {
					t.Fatal("third connection from one address was served")
				}
				c.Close()
			}
			a.Close()
			_ = b
		})
	}
}

// TestClientThatNeverReads: output to a client that never reads is bounded;
// the client is disconnected and nobody else is affected.
func TestClientThatNeverReads(t *testing.T) {
	for _, kind := range kinds {
		t.Run(string(kind), func(t *testing.T) {
			f := start(t, kind, statemachine.Config{}, func(c *server.Config) {
				c.MaxOutput = 2048
				c.SendBuffer = 4096
			})
			lazy := dialLogin(t, f.addr, "Larry")
			if tc, ok := lazy.(*net.TCPConn); ok {
				tc.SetReadBuffer(4096)
			}
			a := dialLogin(t, f.addr, "Albert")
			go io.Copy(io.Discard, a) // Albert reads everything
			// every login and logout of Beth sends Larry a segment he never
			// reads; on the net transport output past the bound is refused
			// once Larry's writer has been stuck for a second (stallAfter),
			// so how many logins that takes depends on how fast they go
			for i := 0; i < 20000; i++ {
				b, err := net.Dial("tcp", f.addr)
				if err != nil {
					t.Fatal(err)
				}
				b.Write(append(segment.Name(segment.Info, "Beth").AppendTo(nil), segment.Name(segment.Passwd, "123").AppendTo(nil)...))
				readUntil(t, b, segment.SyncEnd)
				b.Close()
				if i%50 == 49 {
					if ss, _ := f.tr.Sessions(context.Background()); !online(ss, "Larry") {
						// Larry's backlog passed the bound and Larry was dropped
						if !online(ss, "Albert") {
							t.Fatal("Albert was affected")
						}
						return
					}
				}
			}
			t.Fatal("a client that never reads was never disconnected")
		})
	}
}

func online(ss []statemachine.SessionInfo, user string) bool {
	for _, s := range ss {
		if s.User == user && s.State.LoggedIn() {
			return true
		}
	}
	return false
}

func TestManyConnections(t *testing.T) {
	const n = 300
	for _, kind := range kinds {
		t.Run(string(kind), func(t *testing.T) {
			accounts := replay.Accounts{}
			for i := range n {
				accounts[name(i)] = "123"
			}
			f := startWith(t, kind, statemachine.Config{}, accounts, nil)
			conns := make([]net.Conn, n)
			var wg sync.WaitGroup
			for i := range n {
				nc, err := net.Dial("tcp", f.addr)
				if err != nil {
					t.Fatal(err)
				}
				conns[i] = nc
				defer nc.Close()
				wg.Add(1)
				go func() {
					defer wg.Done()
					nc.Write(append(segment.Name(segment.Info, name(i)).AppendTo(nil), segment.Name(segment.Passwd, "123").AppendTo(nil)...))
				}()
			}
			wg.Wait()
			for _, nc := range conns { // every client gets its answer
				readUntil(t, nc, segment.PasswdResp)
			}
			ss, err := f.tr.Sessions(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			loggedIn := 0
			for _, s := range ss {
				if s.State.LoggedIn() {
					loggedIn++
				}
			}
			if loggedIn != n {
				t.Fatalf("%d of %d logged in", loggedIn, n)
			}
		})
	}
}

// albertAmong is the accounts Albert and name(0) .. name(n-1), each with
// the password 123.
func albertAmong(n int) replay.Accounts {
	accounts := replay.Accounts{"Albert": "123"}
	for i := range n {
		accounts[name(i)] = "123"
	}
	return accounts
}

func name(i int) string {
	return "user" + string(rune('a'+i/26%26)) + string(rune('a'+i%26)) + string(rune('a'+i/676))
}

// TestUserListKeptWhileMembersLeave: the reactor writes a login's user
// list from the engine's own copy of the list, which changes when a member
// leaves. A client that is slow to read its list still receives the names
// online when it logged in, in order, and then the leavers' offline
// notices.
func TestUserListKeptWhileMembersLeave(t *testing.T) {
	const n, leaving = 2500, 200 // a 25 KB list: over what the small buffers below take
	f := startWith(t, reactor, statemachine.Config{}, albertAmong(n), func(c *server.Config) { c.SendBuffer = 4096 })
	online := make([]net.Conn, n)
	for i := range n {
		online[i] = dialLogin(t, f.addr, name(i))
	}
	// Albert's client reads nothing until the end, through a small buffer
	d := net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		return rc.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	albert, err := d.Dial("tcp", f.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer albert.Close()
	write(t, albert, segment.Name(segment.Info, "Albert"), segment.Name(segment.Passwd, "123"))
	last := online[n-1] // hears of Albert's login, then of every leave
	readSegs(t, last, func(s segment.Segment) bool { return s.Type == segment.NewOnline })
	for _, nc := range online[:leaving] {
		nc.Close()
	}
	var heard []string // the leaves in the order the server took them (not always the order of the closes)
	readSegs(t, last, func(s segment.Segment) bool {
		if s.Type == segment.NewOffline {
			heard = append(heard, string(s.Payload()))
		}
		return len(heard) == leaving
	})

	var names, gone []string
	readSegs(t, albert, func(s segment.Segment) bool {
		switch s.Type {
		case segment.SyncBegin:
			names = append(names, string(s.Payload()))
		case segment.NewOffline:
			gone = append(gone, string(s.Payload()))
		}
		return len(gone) == leaving
	})
	if len(names) != n {
		t.Fatalf("Albert's user list has %d names, want %d", len(names), n)
	}
	for i, got := range names {
		if got != name(i) {
			t.Fatalf("name %d of the list is %q, want %q (login order)", i, got, name(i))
		}
	}
	if !slices.Equal(gone, heard) {
		t.Fatalf("Albert's offline notices %v differ from another user's %v", gone, heard)
	}
	slices.Sort(heard)
	for i := range leaving {
		if _, found := slices.BinarySearch(heard, name(i)); !found {
			t.Fatalf("no offline notice for %q, who left", name(i))
		}
	}
}

// readSegs reads nc's segments until done says so (at most 5 seconds) and
// returns them.
func readSegs(t *testing.T, nc net.Conn, done func(segment.Segment) bool) []segment.Segment {
	t.Helper()
	var d segment.Decoder
	var got []segment.Segment
	nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	defer nc.SetReadDeadline(time.Time{})
	for {
		n, err := nc.Read(d.Free())
		if err != nil {
			t.Fatalf("reading: %v (got %v)", err, got)
		}
		d.Commit(n)
		for {
			s, ok, err := d.Next()
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				break
			}
			if got = append(got, s); done(s) {
				return got
			}
		}
	}
}

func TestKickAndShutdownRecordsAborted(t *testing.T) {
	for _, kind := range kinds {
		t.Run(string(kind), func(t *testing.T) {
			f := start(t, kind, statemachine.Config{}, nil)
			a := dialLogin(t, f.addr, "Albert")
			b := dialLogin(t, f.addr, "Beth")
			readUntil(t, a, segment.NewOnline)
			a.Write(segment.Name(segment.SendInvit, "Beth").AppendTo(nil))
			readUntil(t, b, segment.RecvInvit)
			b.Write(segment.Code(segment.InvitResponse, 1).AppendTo(nil))
			readUntil(t, a, segment.InvitResponse)
			if ok, err := f.tr.Kick(context.Background(), "Nobody"); ok || err != nil {
				t.Fatalf("kick of nobody: %v %v", ok, err)
			}
			c := dialLogin(t, f.addr, "Cindy")
			if ok, err := f.tr.Kick(context.Background(), "Cindy"); !ok || err != nil {
				t.Fatalf("kick: %v %v", ok, err)
			}
			c.SetReadDeadline(time.Now().Add(3 * time.Second))
			buf := make([]byte, 64)
			for {
				if _, err := c.Read(buf); err != nil {
					break
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := f.tr.Shutdown(ctx); err != nil {
				t.Fatal(err)
			}
			f.store.mu.Lock()
			defer f.store.mu.Unlock()
			if len(f.store.records) != 1 || f.store.records[0].Reason != "aborted" {
				t.Fatalf("records %+v", f.store.records)
			}
		})
	}
}

// TestMaxConnections: past the overall limit new connections are closed at
// once and the ones already open carry on.
func TestMaxConnections(t *testing.T) {
	for _, kind := range kinds {
		t.Run(string(kind), func(t *testing.T) {
			f := start(t, kind, statemachine.Config{}, func(c *server.Config) { c.MaxConns = 2 })
			a := dialLogin(t, f.addr, "Albert")
			b := dialLogin(t, f.addr, "Beth")
			c, err := net.Dial("tcp", f.addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.SetReadDeadline(time.Now().Add(3 * time.Second))
			if _, err := c.Read(make([]byte, 1)); err == nil {
				t.Fatal("a connection past the limit was served")
			}
			a.Write(segment.Name(segment.SendInvit, "Beth").AppendTo(nil))
			readUntil(t, b, segment.RecvInvit)
			a.Close()
			readUntil(t, b, segment.NewOffline) // the server has let Albert go
			dialLogin(t, f.addr, "Cindy")       // room again
		})
	}
}

// TestBigUserListUnderASmallBound: a login among many online users gets the
// whole user list even when it is larger than the unread-output bound
// (the client reads it as it comes).
func TestBigUserListUnderASmallBound(t *testing.T) {
	const n = 700
	for _, kind := range kinds {
		t.Run(string(kind), func(t *testing.T) {
			accounts := albertAmong(n)
			f := startWith(t, kind, statemachine.Config{}, accounts, func(c *server.Config) { c.MaxOutput = 4096 })
			for i := range n {
				c := dialLogin(t, f.addr, name(i))
				go io.Copy(io.Discard, c)
			}
			a := dialLogin(t, f.addr, "Albert") // its user list is n × ~9 bytes > 4096
			_ = a
			ss, _ := f.tr.Sessions(context.Background())
			if !online(ss, "Albert") {
				t.Fatal("Albert was dropped for the size of the user list")
			}
		})
	}
}

// TestUserListLargerThanOneFlush: a user list longer than what the reactor
// writes for a connection in one flush (writeCap, about 11 KB: some 1,100
// names here) still arrives whole and in order; its rest goes out in later
// iterations' presence shares while the loop serves everyone else. Albert
// is on a path of small packets (an MSS of 1,000): on loopback's own a
// write holds 32 KB, and the list would leave in one.
func TestUserListLargerThanOneFlush(t *testing.T) {
	const n = 1500
	for _, kind := range kinds {
		t.Run(string(kind), func(t *testing.T) {
			accounts := albertAmong(n)
			f := startWith(t, kind, statemachine.Config{}, accounts, nil)
			for i := range n {
				dialLogin(t, f.addr, name(i)) // the last ones' lists are over the cap too
			}
			d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
				var err error
				c.Control(func(fd uintptr) { err = unix.SetsockoptInt(int(fd), unix.IPPROTO_TCP, unix.TCP_MAXSEG, 1000) })
				return err
			}}
			nc, err := d.Dial("tcp", f.addr)
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			write(t, nc, segment.Name(segment.Info, "Albert"), segment.Name(segment.Passwd, "123"))
			var names []string
			for _, s := range readUntil(t, nc, segment.SyncEnd) {
				if s.Type == segment.SyncBegin {
					names = append(names, string(s.Payload()))
				}
			}
			if len(names) != n {
				t.Fatalf("Albert's user list has %d names, want %d", len(names), n)
			}
			for i, got := range names {
				if got != name(i) {
					t.Fatalf("name %d of the list is %q, want %q (login order)", i, got, name(i))
				}
			}
		})
	}
}

// asksTheStore reports whether e sends a history, replay or account-care
// request (an account query).
func asksTheStore(e transcript.Entry) bool {
	if e.Op != transcript.Send || len(e.Data) == 0 {
		return false
	}
	switch segment.Type(e.Data[0]).Base() {
	case segment.HistoryReq, segment.ReplayReq, segment.Account:
		return true
	}
	return false
}
