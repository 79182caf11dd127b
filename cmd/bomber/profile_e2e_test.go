package main

import (
	"bytes"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
)

// rawSeat is a scripted extended-protocol player for setting up a game.
type rawSeat struct {
	t   *testing.T
	nc  net.Conn
	d   segment.Decoder
	asm segment.Assembler
}

func dialSeat(t *testing.T, addr, user string) *rawSeat {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	s := &rawSeat{t: t, nc: nc}
	s.d.SetDialect(segment.DialectExtended)
	s.send(segment.HelloMsg{Version: 1, Features: segment.FeatureTables})
	s.raw(segment.Name(segment.Info, user))
	s.raw(segment.Name(segment.Passwd, "123"))
	s.next(segment.PasswdResp)
	return s
}

// checkersTwoMovesIn logs Albert and Beth in over TCP, seats them at a
// table of checkers created with opts and plays 11-15 and 22-18: Albert is
// to move.
func checkersTwoMovesIn(t *testing.T, addr string, opts []segment.KV) (albert, beth *rawSeat) {
	t.Helper()
	a, b := dialSeat(t, addr, "Albert"), dialSeat(t, addr, "Beth")
	a.send(segment.CreateMsg{Game: "checkers", Seats: 2, Options: opts})
	j, _ := segment.DecodeJoinedBody(a.next(segment.Joined))
	b.send(segment.JoinMsg{Table: j.Table, Seat: segment.SeatAny})
	b.next(segment.Joined)
	a.send(segment.EmptyMsg{T: segment.Ready})
	b.send(segment.EmptyMsg{T: segment.Ready})
	b.next(segment.Started)
	a.send(segment.MoveTextMsg{Notation: "11-15"})
	b.next(segment.Moved)
	b.send(segment.MoveTextMsg{Notation: "22-18"})
	a.next(segment.Moved)
	a.next(segment.Moved)
	return a, b
}

func (s *rawSeat) raw(seg segment.Segment) {
	if _, err := s.nc.Write(seg.AppendTo(nil)); err != nil {
		s.t.Fatal(err)
	}
}

func (s *rawSeat) send(m segment.Message) {
	segs, _, err := segment.Segments(nil, nil, m)
	if err != nil {
		s.t.Fatal(err)
	}
	for _, seg := range segs {
		s.raw(seg)
	}
}

// next reads up to the next message of type want and returns its body.
func (s *rawSeat) next(want segment.Type) []byte {
	s.t.Helper()
	s.nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		seg, ok, err := s.d.Next()
		if err != nil {
			s.t.Fatal(err)
		}
		if !ok {
			n, err := s.nc.Read(s.d.Free())
			if err != nil {
				s.t.Fatalf("waiting for %v: %v", want, err)
			}
			s.d.Commit(n)
			continue
		}
		ty, body, done, err := s.asm.Add(seg)
		if err != nil {
			s.t.Fatal(err)
		}
		if done && ty == want {
			return bytes.Clone(body)
		}
	}
}

// TestTmuxProfileReplay: after a rated game of Checkers between two
// scripted players, Beth opens her profile in bomber --tables in tmux (p),
// sees the game won and her provisional rating, and replays it with the
// keys: each position comes from the server.
func TestTmuxProfileReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	tmux := needTmux(t)
	dir, bomberd, bomber := buildBoth(t)
	addr := startBomberd(t, bomberd, dir)

	a, b := checkersTwoMovesIn(t, addr, []segment.KV{{Key: "rated", Value: "true"}})
	a.send(segment.EmptyMsg{T: segment.Resign})
	b.next(segment.GameEnd)

	c := &tmuxClient{t: t, tmux: tmux, sock: filepath.Join(t.TempDir(), "tmux.sock"), deadline: time.Now().Add(60 * time.Second)}
	c.run("new-session", "-d", "-s", "play", "-x", "80", "-y", "24", bomber+" --tables --mono --addr "+addr+" --user Beth --password 123")
	t.Cleanup(func() { exec.Command(tmux, "-S", c.sock, "kill-server").Run() })
	c.waitFor("Open tables")
	// the recorder stores the game a moment after it ends: open the profile until it shows
	for {
		c.keys("i")
		c.waitFor("profile of Beth")
		s := c.waitFor("no games", "v Albert")
		if strings.Contains(s, "v Albert") {
			break
		}
		c.keys("q")
		c.waitFor("Open tables")
		time.Sleep(100 * time.Millisecond)
	}
	s := c.waitFor("Rating history")
	if !strings.Contains(s, "won") || !strings.Contains(s, "v Albert") || !strings.Contains(s, "provisional") {
		t.Fatalf("the profile lacks the game or the rating:\n%s", s)
	}
	c.keys("Enter")
	c.waitFor("replay of game 1")
	s = c.waitFor("move 0 of 3")
	c.keys("Right")
	if s2 := c.waitFor("move 1 of 3"); !strings.Contains(s2, "11-15") || s2 == s {
		t.Fatalf("one step into the replay:\n%s", s2)
	}
	c.keys("Right")
	c.waitFor("move 2 of 3")
	c.keys("End")
	if s := c.waitFor("move 3 of 3"); !strings.Contains(s, "final position") {
		t.Fatalf("the end of the replay:\n%s", s)
	}
	t.Logf("the replay's last screen:\n%s", c.screen())
	c.keys("q")
	c.waitFor("Ratings")
	c.keys("q")
	c.waitFor("Open tables")
}
