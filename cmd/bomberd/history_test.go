package main

import (
	"bytes"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
)

// extConn is an extended-protocol connection of a test: it sends messages
// and reads whole ones.
type extConn struct {
	t   *testing.T
	nc  net.Conn
	d   segment.Decoder
	asm segment.Assembler
}

func dialExt(t *testing.T, addr string, features uint32) *extConn {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	c := &extConn{t: t, nc: nc}
	c.d.SetDialect(segment.DialectExtended)
	c.send(segment.HelloMsg{Version: 1, Features: features})
	c.next(segment.Welcome)
	return c
}

func (c *extConn) send(m segment.Message) {
	c.t.Helper()
	var b []byte
	segs, _, err := segment.Segments(nil, nil, m)
	if err != nil {
		c.t.Fatal(err)
	}
	for _, s := range segs {
		b = s.AppendTo(b)
	}
	if _, err := c.nc.Write(b); err != nil {
		c.t.Fatal(err)
	}
}

func (c *extConn) raw(s segment.Segment) {
	c.t.Helper()
	if _, err := c.nc.Write(s.AppendTo(nil)); err != nil {
		c.t.Fatal(err)
	}
}

// read returns the next whole message (a reference segment is one), or
// ok false when the connection closed.
func (c *extConn) read() (segment.Type, []byte, bool) {
	c.t.Helper()
	c.nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		s, ok, err := c.d.Next()
		if err != nil {
			c.t.Fatal(err)
		}
		if !ok {
			n, err := c.nc.Read(c.d.Free())
			if err != nil {
				if ne, ok := err.(net.Error); ok && ne.Timeout() {
					c.t.Fatal("no message within 10s")
				}
				return 0, nil, false
			}
			c.d.Commit(n)
			continue
		}
		ty, body, done, err := c.asm.Add(s)
		if err != nil {
			c.t.Fatal(err)
		}
		if done {
			return ty, bytes.Clone(body), true
		}
	}
}

// next skips to the next message of type want and returns its body; an
// Error on the way fails the test.
func (c *extConn) next(want segment.Type) []byte {
	c.t.Helper()
	for {
		ty, body, ok := c.read()
		if !ok {
			c.t.Fatalf("connection closed waiting for %v", want)
		}
		if ty == want {
			return body
		}
		if ty == segment.ErrorMsg && want != segment.ErrorMsg {
			e, _ := segment.DecodeErrorBody(body)
			c.t.Fatalf("waiting for %v: Error %s %q", want, segment.ErrCodeName(e.Code), e.Text)
		}
	}
}

func (c *extConn) login(name, password string) {
	c.t.Helper()
	c.raw(segment.Name(segment.Info, name))
	c.raw(segment.Name(segment.Passwd, password))
	if b := c.next(segment.PasswdResp); len(b) != 1 || b[0] != segment.CodeOK {
		c.t.Fatalf("login of %s: %v", name, b)
	}
}

// history sends a HistoryReq and returns the rows before its Ack.
func (c *extConn) history(m segment.HistoryReqMsg) (ratings []segment.RatingRowBody, games []segment.GameRowBody) {
	c.t.Helper()
	c.send(m)
	for {
		ty, body, ok := c.read()
		if !ok {
			c.t.Fatal("closed during a HistoryReq")
		}
		switch ty {
		case segment.RatingRow:
			r, err := segment.DecodeRatingRowBody(body)
			if err != nil {
				c.t.Fatal(err)
			}
			ratings = append(ratings, r)
		case segment.GameRow:
			g, err := segment.DecodeGameRowBody(body)
			if err != nil {
				c.t.Fatal(err)
			}
			games = append(games, g)
		case segment.ErrorMsg:
			e, _ := segment.DecodeErrorBody(body)
			c.t.Fatalf("HistoryReq %+v: Error %s %q", m, segment.ErrCodeName(e.Code), e.Text)
		case segment.Ack:
			if a, _ := segment.DecodeAckBody(body); a.Req == segment.HistoryReq {
				return ratings, games
			}
		}
	}
}

// errorCode reads up to the answer of request req: 0 for its Ack, else the
// code of its Error.
func (c *extConn) errorCode(req segment.Type) uint8 {
	c.t.Helper()
	for {
		ty, body, ok := c.read()
		if !ok {
			c.t.Fatalf("closed waiting for the answer to %v", req)
		}
		switch ty {
		case segment.Ack:
			if a, _ := segment.DecodeAckBody(body); a.Req == req {
				return 0
			}
		case segment.ErrorMsg:
			if e, _ := segment.DecodeErrorBody(body); e.Req == req {
				return e.Code
			}
		}
	}
}

// TestHistoryThroughBomberd: two people sign up, play a rated game of
// Checkers to its end (one resigns) on the real daemon with its SQLite
// store; both see their ratings move and the game in their histories, step
// through it move by move, and change a password; then one deletes their
// account: the other's history names the placeholder, the name is free,
// and no password of any of it is in the journal.
func TestHistoryThroughBomberd(t *testing.T) {
	d := startDaemon(t, "BOMBER_ACCOUNTS_REGISTRATION=open")
	for _, n := range []string{"Ada_h", "Bo_hist"} {
		if code := signUp(t, d.addr, n, "secret-pw1"); code != 0 {
			t.Fatalf("sign-up of %s: Error %s", n, segment.ErrCodeName(code))
		}
	}
	const features = segment.FeatureTables | segment.FeatureHistory | segment.FeatureAccount
	a, b := dialExt(t, d.addr, features), dialExt(t, d.addr, features)
	a.login("Ada_h", "secret-pw1")
	b.login("Bo_hist", "secret-pw1")

	a.send(segment.CreateMsg{Game: "checkers", Seats: 2, Options: []segment.KV{{Key: "rated", Value: "true"}}})
	tb, _ := segment.DecodeJoinedBody(a.next(segment.Joined))
	b.send(segment.JoinMsg{Table: tb.Table, Seat: segment.SeatAny})
	b.next(segment.Joined)
	a.send(segment.EmptyMsg{T: segment.Ready})
	b.send(segment.EmptyMsg{T: segment.Ready})
	a.next(segment.Started)
	a.send(segment.MoveTextMsg{Notation: "11-15"})
	b.next(segment.Moved)
	b.send(segment.MoveTextMsg{Notation: "22-18"})
	a.next(segment.Moved)
	a.next(segment.Moved) // the move comes back to its player too
	a.send(segment.EmptyMsg{T: segment.Resign})
	b.next(segment.GameEnd)

	// The recorder stores the game a moment after it ends: ask until it is there.
	var games []segment.GameRowBody
	for deadline := time.Now().Add(10 * time.Second); len(games) == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the game never showed in Bo_hist's history")
		}
		_, games = b.history(segment.HistoryReqMsg{What: segment.HistGames})
	}
	g := games[0]
	if g.Game != "checkers" || g.Result != segment.GameWon || g.Flags&segment.RowRated == 0 || g.Change <= 0 ||
		len(g.Opponents) != 1 || g.Opponents[0] != "Ada_h" || g.Moves != 3 {
		t.Fatalf("Bo_hist's game: %+v", g)
	}
	_, ag := a.history(segment.HistoryReqMsg{What: segment.HistGames, User: "Ada_h"})
	if len(ag) != 1 || ag[0].ID != g.ID || ag[0].Result != segment.GameLost || ag[0].Change >= 0 {
		t.Fatalf("Ada_h's games: %+v", ag)
	}
	for who, up := range map[string]bool{"Ada_h": false, "Bo_hist": true} {
		rs, _ := a.history(segment.HistoryReqMsg{What: segment.HistProfile, User: who})
		if len(rs) != 1 || rs[0].Game != "checkers" || rs[0].Games != 1 || rs[0].Flags&segment.RowProvisional == 0 ||
			(rs[0].Rating > 1500) != up || rs[0].Rating == 1500 {
			t.Errorf("%s's profile: %+v (want the rating %s 1500, provisional)", who, rs, map[bool]string{true: "above", false: "below"}[up])
		}
		hist, _ := a.history(segment.HistoryReqMsg{What: segment.HistRatings, User: who, Game: "checkers"})
		if len(hist) != 1 || hist[0].GameID != g.ID || hist[0].Before != 1500 || hist[0].Rating != rs[0].Rating {
			t.Errorf("%s's rating history: %+v", who, hist)
		}
	}
	// Provisional ratings stay off the leaderboard.
	if rs, _ := a.history(segment.HistoryReqMsg{What: segment.HistLeaders, Game: "checkers"}); len(rs) != 0 {
		t.Errorf("leaderboard of two provisional players: %+v", rs)
	}

	// Replay, move by move: the positions come from the server's rules.
	var cells [][]byte
	for ply := range 5 {
		b.send(segment.ReplayReqMsg{ID: g.ID, Ply: uint16(ply)})
		rp, err := segment.DecodeReplayBody(b.next(segment.Replay))
		if err != nil {
			t.Fatal(err)
		}
		v, err := segment.DecodeViewBody(b.next(segment.ViewMsg))
		if err != nil {
			t.Fatal(err)
		}
		want := min(ply, 3)
		if int(rp.Ply) != want || rp.Plies != 3 || int(v.Seq) != want || v.Viewer != -1 {
			t.Fatalf("replay of ply %d: %+v, view seq %d viewer %d", ply, rp, v.Seq, v.Viewer)
		}
		cells = append(cells, v.Cells)
	}
	if bytes.Equal(cells[0], cells[1]) || bytes.Equal(cells[1], cells[2]) || !bytes.Equal(cells[3], cells[4]) {
		t.Error("the replayed boards do not follow the moves")
	}

	// A wrong password is refused, a good change works.
	a.send(segment.AccountMsg{What: segment.AccountPassword, Password: "wrong-pw-9", New: "secret-pw2"})
	if code := a.errorCode(segment.Account); code != segment.ErrCodeWrongPassword {
		t.Fatalf("wrong current password: code %s", segment.ErrCodeName(code))
	}
	a.send(segment.AccountMsg{What: segment.AccountPassword, Password: "secret-pw1", New: "secret-pw2"})
	if code := a.errorCode(segment.Account); code != 0 {
		t.Fatalf("password change: Error %s", segment.ErrCodeName(code))
	}
	if got := dial(t, d.addr).login("Ada_h", "secret-pw2"); got != segment.CodeOK {
		t.Fatalf("login with the new password: code %d", got)
	}

	// Deleting: the connection closes, the game stays, anonymised.
	a2 := dialExt(t, d.addr, features)
	a2.login("Ada_h", "secret-pw2")
	a2.send(segment.AccountMsg{What: segment.AccountDelete, Password: "secret-pw2"})
	if code := a2.errorCode(segment.Account); code != 0 {
		t.Fatalf("delete: Error %s", segment.ErrCodeName(code))
	}
	for {
		if _, _, ok := a2.read(); !ok {
			break
		}
	}
	_, games = b.history(segment.HistoryReqMsg{What: segment.HistGames})
	if len(games) != 1 || games[0].Opponents[0] != record.DeletedPlayer {
		t.Fatalf("Bo_hist's history after Ada_h left: %+v", games)
	}
	if code := signUp(t, d.addr, "Ada_h", "another-pw1"); code != 0 {
		t.Fatalf("the deleted name is not free: Error %s", segment.ErrCodeName(code))
	}

	var journal []byte
	filepath.WalkDir(filepath.Join(d.cmd.Dir, "var", "journal"), func(path string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			b, _ := os.ReadFile(path)
			journal = append(journal, b...)
		}
		return nil
	})
	if !bytes.Contains(journal, []byte("Ada_h")) {
		t.Errorf("the journal (%d bytes) lacks the account", len(journal))
	}
	for _, pw := range []string{"wrong-pw-9", "secret-pw2"} {
		if bytes.Contains(journal, []byte(pw)) {
			t.Errorf("password %q of an Account message is in the journal", pw)
		}
	}
}
