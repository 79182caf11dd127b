package client

import (
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/segment"
)

// seg parses a segment written as the transcripts write it: "0b 00 01 01".
func seg(t testing.TB, h string) segment.Segment {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(h, " ", ""))
	if err != nil {
		t.Fatalf("bad hex %q: %v", h, err)
	}
	s, err := segment.Parse(b)
	if err != nil {
		t.Fatalf("bad segment %q: %v", h, err)
	}
	return s
}

func wire(segs []segment.Segment) []string {
	out := []string{}
	for _, s := range segs {
		b := s.AppendTo(nil)
		parts := make([]string, len(b))
		for i, x := range b {
			parts[i] = hex.EncodeToString([]byte{x})
		}
		out = append(out, strings.Join(parts, " "))
	}
	return out
}

func kinds(ns []Notice) []NoticeKind {
	out := []NoticeKind{}
	for _, n := range ns {
		out = append(out, n.Kind)
	}
	return out
}

// step is one line of a scripted session: either an intent (do) or a
// segment from the server (recv), with what the client must send, the
// notices it must raise and the state it must end in.
type step struct {
	name  string
	do    func(c *Client) (Out, error)
	recv  string
	send  []string
	note  []NoticeKind
	state State
	err   error // the intent must fail with this
}

func run(t *testing.T, c *Client, script []step) {
	t.Helper()
	for i, s := range script {
		var o Out
		var err error
		if s.do != nil {
			o, err = s.do(c)
		} else {
			o = c.Receive(seg(t, s.recv))
		}
		if s.err != nil {
			if !errors.Is(err, s.err) {
				t.Fatalf("step %d %s: error %v, want %v", i, s.name, err, s.err)
			}
		} else if err != nil {
			t.Fatalf("step %d %s: %v", i, s.name, err)
		}
		want := s.send
		if want == nil {
			want = []string{}
		}
		if got := wire(o.Send); !slices.Equal(got, want) {
			t.Fatalf("step %d %s: sent %q, want %q", i, s.name, got, want)
		}
		wantN := s.note
		if wantN == nil {
			wantN = []NoticeKind{}
		}
		if got := kinds(o.Notices); !slices.Equal(got, wantN) {
			t.Fatalf("step %d %s: notices %v (%v), want %v", i, s.name, got, o.Notices, wantN)
		}
		if c.State() != s.state {
			t.Fatalf("step %d %s: state %v, want %v", i, s.name, c.State(), s.state)
		}
	}
}

func connect(c *Client) (Out, error) { return c.Connected(), nil }

func login(user, pw string) func(*Client) (Out, error) {
	return func(c *Client) (Out, error) { return c.Login(user, pw) }
}

func invite(name string) func(*Client) (Out, error) {
	return func(c *Client) (Out, error) { return c.Invite(name) }
}

func answer(yes bool) func(*Client) (Out, error) {
	return func(c *Client) (Out, error) { return c.Answer(yes) }
}

func place(b bomber.Board) func(*Client) (Out, error) {
	return func(c *Client) (Out, error) { return c.PlaceBoard(b) }
}

func single(x, y int) func(*Client) (Out, error) {
	return func(c *Client) (Out, error) { return c.GuessSingle(bomber.CellAt(x, y)) }
}

func double(hx, hy, tx, ty int) func(*Client) (Out, error) {
	return func(c *Client) (Out, error) {
		return c.GuessDouble(bomber.Plane{Head: bomber.CellAt(hx, hy), Tail: bomber.CellAt(tx, ty)})
	}
}

// loginSteps logs Novate in with Larry already online.
var loginSteps = []step{
	{name: "connect", do: connect, state: GatherUserInfo},
	{name: "Info", do: login("Novate", "123"), send: []string{"00 00 06 4e 6f 76 61 74 65"}, state: WaitForUsernameResponse},
	{name: "InfoResp OK", recv: "01 00 01 01", send: []string{"02 00 03 31 32 33"}, state: WaitForPasswordResponse},
	{name: "PasswdResp OK", recv: "03 00 01 01", state: UserSync},
	{name: "SyncBegin Larry", recv: "06 00 05 4c 61 72 72 79", state: UserSync},
	{name: "SyncEnd", recv: "08 00 00", note: []NoticeKind{NoticeLoggedIn}, state: ClientWaiting},
}

// Boards of 04_invite_accept_game.txt.
var (
	novateBoard = bomber.Board{
		{Head: bomber.CellAt(0, 2), Tail: bomber.CellAt(3, 2)},
		{Head: bomber.CellAt(0, 7), Tail: bomber.CellAt(3, 7)},
		{Head: bomber.CellAt(5, 2), Tail: bomber.CellAt(8, 2)},
	}
	larryBoardHex = "0c 00 0c 30 32 33 32 30 37 33 37 35 37 38 37"
)

func TestLoginRetry(t *testing.T) {
	run(t, New(), []step{
		{name: "connect", do: connect, state: GatherUserInfo},
		{name: "unknown name", do: login("Nobody", "123"), send: []string{"00 00 06 4e 6f 62 6f 64 79"}, state: WaitForUsernameResponse},
		{name: "InfoResp 0", recv: "01 00 01 00", note: []NoticeKind{NoticeWrongUser}, state: GatherUserInfo},
		{name: "retry on the same connection", do: login("Novate", "999"), send: []string{"00 00 06 4e 6f 76 61 74 65"}, state: WaitForUsernameResponse},
		{name: "name known: password follows", recv: "01 00 01 01", send: []string{"02 00 03 39 39 39"}, state: WaitForPasswordResponse},
		{name: "PasswdResp 3", recv: "03 00 01 03", note: []NoticeKind{NoticeWrongPassword}, state: GatherUserInfo},
		{name: "store down", do: login("Novate", "123"), send: []string{"00 00 06 4e 6f 76 61 74 65"}, state: WaitForUsernameResponse},
		{name: "InfoResp 4", recv: "01 00 01 04", note: []NoticeKind{NoticeLoginError}, state: GatherUserInfo},
		{name: "again", do: login("Novate", "123"), send: []string{"00 00 06 4e 6f 76 61 74 65"}, state: WaitForUsernameResponse},
		{name: "code outside the table", recv: "01 00 01 09", note: []NoticeKind{NoticeProtocol}, state: GatherUserInfo},
		{name: "invite before login", do: invite("Larry"), err: ErrState, state: GatherUserInfo},
	})
}

func TestUserList(t *testing.T) {
	c := New()
	run(t, c, loginSteps)
	run(t, c, []step{
		{name: "own name is harmless", recv: "07 00 06 4e 6f 76 61 74 65", state: ClientWaiting},
		{name: "Beth online", recv: "07 00 04 42 65 74 68", note: []NoticeKind{NoticeOnline}, state: ClientWaiting},
		{name: "Beth again: no duplicate", recv: "07 00 04 42 65 74 68", state: ClientWaiting},
		{name: "Larry offline", recv: "10 00 05 4c 61 72 72 79", note: []NoticeKind{NoticeOffline}, state: ClientWaiting},
		{name: "unknown offline", recv: "10 00 05 4c 61 72 72 79", state: ClientWaiting},
	})
	if got := c.Online(); !slices.Equal(got, []string{"Beth"}) {
		t.Fatalf("online %q, want [Beth]", got)
	}
}

func TestInvitations(t *testing.T) {
	tests := []struct {
		name  string
		code  string
		note  NoticeKind
		state State
	}{
		{"accepted", "0b 00 01 01", NoticeAccepted, Game},
		{"refused", "0b 00 01 02", NoticeRefused, ClientWaiting},
		{"busy", "0b 00 01 06", NoticeBusy, ClientWaiting},
		{"not online", "0b 00 01 00", NoticeNotOnline, ClientWaiting},
		{"error", "0b 00 01 04", NoticeInviteError, ClientWaiting},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New()
			run(t, c, loginSteps)
			run(t, c, []step{
				{name: "invite", do: invite("Larry"), send: []string{"09 00 05 4c 61 72 72 79"}, state: ClientInviting},
				{name: "invite again while inviting", do: invite("Larry"), err: ErrState, state: ClientInviting},
				{name: "RecvInvit while inviting is dropped", recv: "0a 00 04 42 65 74 68", state: ClientInviting},
				{name: "answer", recv: tt.code, note: []NoticeKind{tt.note}, state: tt.state},
			})
			if tt.state == Game && (!c.Inviter() || c.Phase() != Drawing || c.Peer() != "Larry") {
				t.Fatalf("after acceptance: inviter %v phase %v peer %q", c.Inviter(), c.Phase(), c.Peer())
			}
		})
	}
}

func TestBeingInvited(t *testing.T) {
	for _, accept := range []bool{true, false} {
		c := New()
		run(t, c, loginSteps)
		want, state := "0b 00 01 02", ClientWaiting
		if accept {
			want, state = "0b 00 01 01", Game
		}
		run(t, c, []step{
			{name: "RecvInvit", recv: "0a 00 05 4c 61 72 72 79", note: []NoticeKind{NoticeInvited}, state: ClientInvited},
			{name: "a second RecvInvit is dropped", recv: "0a 00 04 42 65 74 68", state: ClientInvited},
			{name: "cannot invite while answering", do: invite("Beth"), err: ErrState, state: ClientInvited},
			{name: "answer", do: answer(accept), send: []string{want}, state: state},
			{name: "answer twice", do: answer(accept), err: ErrState, state: state},
		})
		if accept {
			run(t, c, []step{{name: "RecvInvit while drawing is dropped", recv: "0a 00 04 42 65 74 68", state: Game}})
		}
	}
}

func TestKicks(t *testing.T) {
	c := New()
	run(t, c, loginSteps)
	run(t, c, []step{
		{name: "Refuse 5: we kicked an older session", recv: "04 00 01 05", note: []NoticeKind{NoticeKickedOther}, state: ClientWaiting},
		{name: "RecvInvit", recv: "0a 00 05 4c 61 72 72 79", note: []NoticeKind{NoticeInvited}, state: ClientInvited},
		{name: "accept", do: answer(true), send: []string{"0b 00 01 01"}, state: Game},
		{name: "Refuse 4 in a game: kicked", recv: "04 00 01 04", note: []NoticeKind{NoticeGameOver, NoticeKicked}, state: Kicked},
		{name: "everything after is ignored", recv: "0a 00 05 4c 61 72 72 79", state: Kicked},
		{name: "no login on a kicked session", do: login("Novate", "123"), err: ErrState, state: Kicked},
		{name: "disconnect", do: func(c *Client) (Out, error) { return c.Disconnected(), nil }, note: []NoticeKind{NoticeDisconnected}, state: Init},
		{name: "reconnect logs in again with the saved password", do: connect, send: []string{"00 00 06 4e 6f 76 61 74 65"}, state: WaitForUsernameResponse},
		{name: "password follows", recv: "01 00 01 01", send: []string{"02 00 03 31 32 33"}, state: WaitForPasswordResponse},
	})
	if c.Outcome() != Disconnected {
		t.Fatalf("outcome after a kick in game: %v", c.Outcome())
	}
}

func TestReconnectAfterPasswordChangeAsksAgain(t *testing.T) {
	c := New()
	run(t, c, loginSteps)
	run(t, c, []step{
		{name: "drop", do: func(c *Client) (Out, error) { return c.Disconnected(), nil }, note: []NoticeKind{NoticeDisconnected}, state: Init},
		{name: "reconnect", do: connect, send: []string{"00 00 06 4e 6f 76 61 74 65"}, state: WaitForUsernameResponse},
		{name: "InfoResp OK", recv: "01 00 01 01", send: []string{"02 00 03 31 32 33"}, state: WaitForPasswordResponse},
		{name: "password no longer accepted", recv: "03 00 01 03", note: []NoticeKind{NoticeWrongPassword}, state: GatherUserInfo},
		{name: "drop again", do: func(c *Client) (Out, error) { return c.Disconnected(), nil }, note: []NoticeKind{NoticeDisconnected}, state: Init},
		{name: "next connection asks the user", do: connect, state: GatherUserInfo},
	})
}

// TestWholeGameAsInviter replays Novate's side of 04_invite_accept_game.txt
// and ends it with three right doubles.
func TestWholeGameAsInviter(t *testing.T) {
	c := New()
	run(t, c, loginSteps)
	run(t, c, []step{
		{name: "invite", do: invite("Larry"), send: []string{"09 00 05 4c 61 72 72 79"}, state: ClientInviting},
		{name: "accepted", recv: "0b 00 01 01", note: []NoticeKind{NoticeAccepted}, state: Game},
		{name: "no guess while drawing", do: single(0, 0), err: ErrState, state: Game},
		{name: "overlapping board is not sent", do: place(bomber.Board{novateBoard[0], novateBoard[0], novateBoard[2]}), err: rules.ErrIllegal, state: Game},
		{name: "board in ASCII", do: place(novateBoard), send: []string{"0c 00 0c 30 32 33 32 30 37 33 37 35 32 38 32"}, state: Game},
		{name: "opponent's board starts play", recv: larryBoardHex, note: []NoticeKind{NoticeGameStarted}, state: Game},
		{name: "the inviter guesses first: ASCII single", do: single(9, 9), send: []string{"0d 00 02 39 39"}, note: []NoticeKind{NoticeYourSingle}, state: Game},
		{name: "not again before the opponent", do: single(0, 0), err: rules.ErrNotYourTurn, state: Game},
		{name: "opponent's binary single", recv: "0d 00 02 00 02", note: []NoticeKind{NoticeTheirSingle}, state: Game},
		{name: "wrong double: well-formed 4 bytes", do: double(0, 3, 3, 3), send: []string{"0e 00 04 30 33 33 33"}, note: []NoticeKind{NoticeYourDouble}, state: Game},
		{name: "opponent's right double (ASCII accepted too)", recv: "0e 00 04 30 37 33 37", note: []NoticeKind{NoticeTheirDouble}, state: Game},
		{name: "the same double twice is refused", do: double(0, 3, 3, 3), err: rules.ErrIllegal, state: Game},
		{name: "a shape that is no plane is refused", do: double(0, 0, 1, 1), err: rules.ErrIllegal, state: Game},
		{name: "right double", do: double(0, 2, 3, 2), send: []string{"0e 00 04 30 32 33 32"}, note: []NoticeKind{NoticeYourDouble}, state: Game},
		{name: "opponent's malformed-turned-miss", recv: "0e 00 04 08 07 08 07", note: []NoticeKind{NoticeTheirDouble}, state: Game},
		{name: "known cell cannot be guessed", do: single(0, 2), err: rules.ErrIllegal, state: Game},
		{name: "right double", do: double(0, 7, 3, 7), send: []string{"0e 00 04 30 37 33 37"}, note: []NoticeKind{NoticeYourDouble}, state: Game},
		{name: "opponent misses", recv: "0d 00 02 09 09", note: []NoticeKind{NoticeTheirSingle}, state: Game},
		{name: "last plane wins: GameOver with length 0", do: double(5, 7, 8, 7), send: []string{"0e 00 04 35 37 38 37", "0f 00 00"}, note: []NoticeKind{NoticeYourDouble, NoticeGameOver}, state: ClientWaiting},
		{name: "a GameOver after the win is ignored", recv: "0f 00 00", state: ClientWaiting},
	})
	if c.Outcome() != Won || c.Guesses() != 5 || c.Revealed() != 30 {
		t.Fatalf("outcome %v guesses %d revealed %d", c.Outcome(), c.Guesses(), c.Revealed())
	}
	if c.Mark(bomber.CellAt(9, 9)) != Miss || c.Mark(bomber.CellAt(0, 2)) != HeadHit || c.Mark(bomber.CellAt(1, 2)) != Hit {
		t.Fatal("marks of the opponent's board do not show the results")
	}
	_, hit := c.TheirGuesses()
	if hit.Len() != 11 { // (0,2) singly and the plane (0,7)-(3,7)
		t.Fatalf("opponent revealed %d of our cells, want 11", hit.Len())
	}
}

func TestSingleResults(t *testing.T) {
	tests := []struct {
		x, y int
		want bomber.Result
		mark Mark
	}{
		{0, 2, bomber.Head, HeadHit}, // Larry's board: heads (0,2) (0,7) (5,7)
		{1, 0, bomber.Body, Hit},     // wing of (0,2)-(3,2)
		{3, 3, bomber.Body, Hit},     // tail
		{4, 4, bomber.Wrong, Miss},
		{9, 0, bomber.Wrong, Miss},
	}
	for _, tt := range tests {
		c := New()
		run(t, c, loginSteps)
		run(t, c, []step{
			{name: "invite", do: invite("Larry"), send: []string{"09 00 05 4c 61 72 72 79"}, state: ClientInviting},
			{name: "accepted", recv: "0b 00 01 01", note: []NoticeKind{NoticeAccepted}, state: Game},
			{name: "board", do: place(novateBoard), send: []string{"0c 00 0c 30 32 33 32 30 37 33 37 35 32 38 32"}, state: Game},
			{name: "their board", recv: larryBoardHex, note: []NoticeKind{NoticeGameStarted}, state: Game},
		})
		o, err := c.GuessSingle(bomber.CellAt(tt.x, tt.y))
		if err != nil || len(o.Notices) != 1 || o.Notices[0].Result != tt.want || c.Mark(bomber.CellAt(tt.x, tt.y)) != tt.mark {
			t.Fatalf("(%d,%d): %v %+v mark %v, want %v", tt.x, tt.y, err, o.Notices, c.Mark(bomber.CellAt(tt.x, tt.y)), tt.want)
		}
	}
}

func TestGameOverReceived(t *testing.T) {
	// The invitee (guessing second) either loses to three right doubles or
	// sees the opponent leave.
	setup := []step{
		{name: "RecvInvit", recv: "0a 00 05 4c 61 72 72 79", note: []NoticeKind{NoticeInvited}, state: ClientInvited},
		{name: "accept", do: answer(true), send: []string{"0b 00 01 01"}, state: Game},
		{name: "board", do: place(novateBoard), send: []string{"0c 00 0c 30 32 33 32 30 37 33 37 35 32 38 32"}, state: Game},
		{name: "their board", recv: larryBoardHex, note: []NoticeKind{NoticeGameStarted}, state: Game},
		{name: "the invitee waits for the inviter", do: single(0, 0), err: rules.ErrNotYourTurn, state: Game},
	}
	t.Run("lost", func(t *testing.T) {
		c := New()
		run(t, c, loginSteps)
		run(t, c, setup)
		script := []step{}
		for i, d := range []string{"00 02 03 02", "00 07 03 07", "05 02 08 02"} {
			script = append(script, step{name: "their double", recv: "0e 00 04 " + d, note: []NoticeKind{NoticeTheirDouble}, state: Game})
			if i < 2 {
				script = append(script, step{name: "our miss", do: single(9, i), send: []string{"0d 00 02 39 3" + string(rune('0'+i))}, note: []NoticeKind{NoticeYourSingle}, state: Game})
			}
		}
		script = append(script, step{name: "all our cells are gone: no more guessing", do: single(9, 9), err: rules.ErrNotYourTurn, state: Game})
		script = append(script, step{name: "GameOver: lost", recv: "0f 00 00", note: []NoticeKind{NoticeGameOver}, state: ClientWaiting})
		run(t, c, script)
		if c.Outcome() != Lost {
			t.Fatalf("outcome %v, want lost", c.Outcome())
		}
	})
	t.Run("opponent left", func(t *testing.T) {
		c := New()
		run(t, c, loginSteps)
		run(t, c, setup)
		run(t, c, []step{
			{name: "Larry offline", recv: "10 00 05 4c 61 72 72 79", note: []NoticeKind{NoticeOffline}, state: Game},
			{name: "GameOver", recv: "0f 00 00", note: []NoticeKind{NoticeGameOver}, state: ClientWaiting},
		})
		if c.Outcome() != OpponentLeft {
			t.Fatalf("outcome %v, want opponent left", c.Outcome())
		}
		c.Acknowledge()
		if c.Outcome() != NoOutcome {
			t.Fatal("Acknowledge did not clear the outcome")
		}
	})
	t.Run("orphaned acceptance", func(t *testing.T) {
		c := New()
		run(t, c, loginSteps)
		run(t, c, setup[:2])
		run(t, c, []step{{name: "GameOver while drawing", recv: "0f 00 00", note: []NoticeKind{NoticeGameOver}, state: ClientWaiting}})
		if c.Outcome() != OpponentLeft {
			t.Fatalf("outcome %v, want opponent left", c.Outcome())
		}
	})
}

func TestBadBoardFromServer(t *testing.T) {
	c := New()
	run(t, c, loginSteps)
	run(t, c, []step{
		{name: "invite", do: invite("Larry"), send: []string{"09 00 05 4c 61 72 72 79"}, state: ClientInviting},
		{name: "accepted", recv: "0b 00 01 01", note: []NoticeKind{NoticeAccepted}, state: Game},
		{name: "board", do: place(novateBoard), send: []string{"0c 00 0c 30 32 33 32 30 37 33 37 35 32 38 32"}, state: Game},
		{name: "overlapping board", recv: "0c 00 0c 30 32 33 32 30 32 33 32 35 37 38 37", note: []NoticeKind{NoticeProtocol}, state: Game},
		{name: "still waiting", do: single(0, 0), err: ErrState, state: Game},
	})
}
