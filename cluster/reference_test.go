package cluster

import (
	"bytes"
	"context"
	"math/rand/v2"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/bomber-game/bomber/client"
	"github.com/bomber-game/bomber/client/clientbot"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server"
)

// refPlayer is the reference client (package client, the protocol the
// Electron client speaks) played by clientbot over a real connection.
type refPlayer struct {
	b       *clientbot.Bot
	nc      net.Conn
	notices []client.Notice
	closed  bool
}

type refMsg struct {
	p   *refPlayer
	seg segment.Segment
	err error
}

func dialRef(t *testing.T, addr string, b *clientbot.Bot, in chan refMsg) *refPlayer {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	p := &refPlayer{b: b, nc: nc}
	go func() {
		var d segment.Decoder
		for {
			n, err := nc.Read(d.Free())
			if err != nil {
				in <- refMsg{p: p, err: err}
				return
			}
			d.Commit(n)
			for {
				s, ok, err := d.Next()
				if err != nil {
					in <- refMsg{p: p, err: err}
					return
				}
				if !ok {
					break
				}
				in <- refMsg{p: p, seg: s}
			}
		}
	}()
	p.write(b.Connected())
	return p
}

func (p *refPlayer) write(o client.Out) {
	p.notices = append(p.notices, o.Notices...)
	var b []byte
	for _, s := range o.Send {
		b = s.AppendTo(b)
	}
	if len(b) > 0 {
		p.nc.Write(b)
	}
}

func pumpRef(t *testing.T, in chan refMsg, what string, cond func() bool) {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for !cond() {
		select {
		case m := <-in:
			if m.err != nil {
				m.p.closed = true
				m.p.write(m.p.b.Disconnected())
				continue
			}
			m.p.write(m.p.b.Receive(m.seg))
		case <-timeout:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func online(p *refPlayer, name string) bool { return slices.Contains(p.b.C.Online(), name) }

// TestReferenceClientsAcrossNodes: two reference clients on two nodes see
// each other in the user list and in online and offline notices, one
// invites the other, and they play a whole Bomber game to the end.
func TestReferenceClientsAcrossNodes(t *testing.T) {
	backends(t, func(t *testing.T, nb func(t *testing.T) *natsBackend) {
		w := newWorld(t, nb(t), 2)
		refGameAcross(t, w.nodes[0].addr, w.nodes[1].addr, "Albert", "Beth", "123")
	})
}

// refGameAcross: reference clients inviter, on addr0, and invitee, on
// addr1, both with password, see each other in the user list (invitee
// told that inviter came online), play a whole Bomber game with one
// winner, and inviter sees invitee go offline (told so).
func refGameAcross(t *testing.T, addr0, addr1, inviter, invitee, password string) {
	t.Helper()
	in := make(chan refMsg, 1024)
	b := dialRef(t, addr1, clientbot.NewBot(invitee, password, rand.New(rand.NewPCG(1, 2))), in)
	b.b.Games = 1
	pumpRef(t, in, invitee+"'s login", func() bool { return b.b.C.State() == client.ClientWaiting })
	bot := clientbot.NewBot(inviter, password, rand.New(rand.NewPCG(3, 4)))
	bot.Invite, bot.Games = invitee, 1
	a := dialRef(t, addr0, bot, in)
	pumpRef(t, in, "each in the other's user list", func() bool { return online(a, invitee) && online(b, inviter) })
	if !slices.ContainsFunc(b.notices, func(n client.Notice) bool { return n.Kind == client.NoticeOnline && n.Name == inviter }) {
		t.Errorf("%s was not told that %s came online", invitee, inviter)
	}
	pumpRef(t, in, "the game's end", func() bool { return bot.Played() == 1 && b.b.Played() == 1 })
	if bot.Won()+b.b.Won() != 1 {
		t.Fatalf("wins: %s %d, %s %d; want one winner", inviter, bot.Won(), invitee, b.b.Won())
	}
	b.nc.Close()
	pumpRef(t, in, invitee+" offline for "+inviter, func() bool { return !online(a, invitee) })
	if !slices.ContainsFunc(a.notices, func(n client.Notice) bool { return n.Kind == client.NoticeOffline && n.Name == invitee }) {
		t.Errorf("%s was not told that %s went offline", inviter, invitee)
	}
}

// TestDuplicateLoginAcrossNodes: logging in as Albert on one node kicks
// Albert's older session on another.
func TestDuplicateLoginAcrossNodes(t *testing.T) {
	backends(t, func(t *testing.T, nb func(t *testing.T) *natsBackend) {
		w := newWorld(t, nb(t), 2)
		in := make(chan refMsg, 1024)
		old := dialRef(t, w.nodes[0].addr, clientbot.NewBot("Albert", "123", rand.New(rand.NewPCG(1, 2))), in)
		pumpRef(t, in, "the first login", func() bool { return old.b.C.State() == client.ClientWaiting })
		fresh := dialRef(t, w.nodes[1].addr, clientbot.NewBot("Albert", "123", rand.New(rand.NewPCG(3, 4))), in)
		kicked := func(p *refPlayer, k client.NoticeKind) bool {
			return slices.ContainsFunc(p.notices, func(n client.Notice) bool { return n.Kind == k })
		}
		pumpRef(t, in, "the older session kicked", func() bool {
			return kicked(old, client.NoticeKicked) && kicked(fresh, client.NoticeKickedOther)
		})
	})
}

// TestLoginThrottlingAcrossNodes: failed logins count for the whole
// cluster: three wrong passwords from one address, on two nodes, lock
// that address out on a third.
func TestLoginThrottlingAcrossNodes(t *testing.T) {
	backends(t, func(t *testing.T, nb func(t *testing.T) *natsBackend) {
		w := newWorld(t, nb(t), 3)
		for i, node := range []int{0, 1, 0} {
			if code := login(t, w.nodes[node].addr, "wrong"); code != 3 {
				t.Fatalf("wrong password %d: code %d, want 3", i+1, code)
			}
		}
		if code := login(t, w.nodes[2].addr, "123"); code != 4 {
			t.Fatalf("the right password after three failures elsewhere: code %d, want 4 (locked out)", code)
		}
	})
}

// login logs Albert in on addr with a reference client's segments and
// returns the PasswdResp code.
func login(t *testing.T, addr, password string) byte {
	t.Helper()
	return loginAs(t, addr, "Albert", password)
}

// loginAs logs user in on addr and returns the PasswdResp code.
func loginAs(t *testing.T, addr, user, password string) byte {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(20 * time.Second))
	nc.Write(segment.Name(segment.Info, user).AppendTo(nil))
	nc.Write(segment.Name(segment.Passwd, password).AppendTo(nil))
	var d segment.Decoder
	for {
		n, err := nc.Read(d.Free())
		if err != nil {
			t.Fatalf("no password answer: %v", err)
		}
		d.Commit(n)
		for {
			s, ok, err := d.Next()
			if err != nil || !ok {
				break
			}
			if s.Type == segment.PasswdResp {
				code, _ := s.Code()
				return code
			}
		}
	}
}

// TestReloadReachesTheWorld: settings reloaded on one node (SIGHUP) apply
// on every node: login throttling set to one failure there locks out an
// address after one failure on another node, seen on a third.
func TestReloadReachesTheWorld(t *testing.T) {
	backends(t, func(t *testing.T, nb func(t *testing.T) *natsBackend) {
		w := newWorld(t, nb(t), 3)
		// each node puts its settings in the log as it joins: a login on each
		// (appended after its settings) makes sure all three are in
		for _, n := range w.nodes {
			if code := login(t, n.addr, "123"); code != 1 {
				t.Fatalf("login: code %d", code)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := w.nodes[0].tr.Reconfigure(ctx, func(c *server.Config) { c.Hub.LoginFailures = 1 }); err != nil {
			t.Fatal(err)
		}
		// the reload is in the log before anything appended after it: a
		// login on node0 (answered after the reload was applied) proves it
		if code := login(t, w.nodes[0].addr, "123"); code != 1 {
			t.Fatalf("login: code %d", code)
		}
		if code := login(t, w.nodes[1].addr, "wrong"); code != 3 {
			t.Fatalf("wrong password: code %d, want 3", code)
		}
		if code := login(t, w.nodes[2].addr, "123"); code != 4 {
			t.Fatalf("the right password after one failure with login_failures 1: code %d, want 4 (locked out)", code)
		}
	})
}

// TestPasswordsStayOffTheLog: the shared log (kept on disk, readable by
// anyone with NATS access) never holds a password, right or wrong, while
// the logins still work on every node.
func TestPasswordsStayOffTheLog(t *testing.T) {
	backends(t, func(t *testing.T, nb func(t *testing.T) *natsBackend) {
		ns := nb(t)
		w := newWorld(t, ns, 2)
		if code := loginAs(t, w.nodes[0].addr, "Horatio", secretPassword[:20]); code != 3 {
			t.Fatalf("a wrong password: code %d, want 3", code)
		}
		if code := loginAs(t, w.nodes[1].addr, "Horatio", secretPassword); code != 1 {
			t.Fatalf("the right password: code %d, want 1", code)
		}
		nc, err := nats.Connect(ns.url)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		js, _ := jetstream.New(nc)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		st, err := js.Stream(ctx, StreamName(w.name))
		if err != nil {
			t.Fatal(err)
		}
		info, err := st.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		names := 0
		for seq := uint64(1); seq <= info.State.LastSeq; seq++ {
			m, err := st.GetMsg(ctx, seq)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(m.Data, []byte(secretPassword[:20])) {
				t.Fatalf("log entry %d holds the password: %q", seq, m.Data)
			}
			if bytes.Contains(m.Data, []byte("Horatio")) {
				names++
			}
		}
		if names < 2 {
			t.Fatalf("the user name is in %d log entries: not the log the logins went through", names)
		}
	})
}
