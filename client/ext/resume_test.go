package ext

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bomber-game/bomber/rules/aeroplane"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// drop closes c's connection on both sides.
func (n *hubNet) drop(c *Client) {
	id := n.id(c)
	delete(n.clients, id)
	n.hub.Step(n.now, statemachine.Input{Kind: statemachine.InClosed, Conn: id})
	n.toHub(id, c.Disconnected())
	n.pump()
}

// reconnect gives c a new connection; it logs in again by itself.
func (n *hubNet) reconnect(c *Client) {
	id := statemachine.ConnID(1000 + len(n.events))
	n.clients[id] = c
	n.hub.Step(n.now, statemachine.Input{Kind: statemachine.InOpen, Conn: id})
	n.toHub(id, c.Connected())
	n.pump()
}

// TestResumeKeepsTheSeat: a seat's connection drops mid-game while the
// other seat plays on; the client reconnects, logs in with the credentials
// it kept, resumes with its token and plays the game to the end from its
// own replica, in Aeroplane Chess too: the seat missed a roll, and the
// server sends the moves it missed with their steps, the roll's face
// among them.
func TestResumeKeepsTheSeat(t *testing.T) {
	for _, game := range []string{"checkers", "dots", "aeroplane"} {
		t.Run(game, func(t *testing.T) {
			n := newHubNet(t, 3)
			a, b := n.login("Albert"), n.login("Beth")
			n.do(a)(a.Create(game, 2, 0, nil))
			n.do(b)(b.Join(a.Table().ID, segment.SeatAny, ""))
			if !b.Resumable() {
				t.Fatal("no resume token after sitting down")
			}
			n.do(a)(a.Ready())
			n.do(b)(b.Ready())
			rng := rand.New(rand.NewPCG(1, 2))
			play := func(c *Client) {
				t.Helper()
				if legal := c.Game().Legal(c.Seat()); len(legal) > 0 {
					n.do(c)(c.Move(legal[rng.IntN(len(legal))]))
				} else {
					t.Fatalf("seat %d to move without legal moves (replica %v)", c.Seat(), c.Game().Replica() != nil)
				}
			}
			before := 6
			if game == "aeroplane" {
				before = 40 // pieces out of their camps: a missed roll's face decides a move
			}
			for range before {
				if len(a.Errors)+len(b.Errors) > 0 {
					t.Fatalf("moves refused: %v %v", a.Errors, b.Errors)
				}
				if a.MyTurn() {
					play(a)
				} else {
					play(b)
				}
			}
			// Beth drops when Albert is to play (in Aeroplane Chess, to
			// roll: she misses the roll's face)
			toRoll := func() bool { return game != "aeroplane" || a.Game().Current().Extra[2] == aeroplane.PhaseRoll }
			for i := 0; !a.MyTurn() || !toRoll(); i++ {
				if i == 100 || len(a.Errors)+len(b.Errors) > 0 {
					t.Fatalf("moves: errors %v %v", a.Errors, b.Errors)
				}
				if a.MyTurn() {
					play(a)
				} else {
					play(b)
				}
			}
			n.drop(b)
			for i := 0; a.MyTurn(); i++ {
				if i == 100 || len(a.Errors) > 0 {
					t.Fatalf("Albert's moves: errors %v", a.Errors)
				}
				play(a)
			}
			seen := len(a.Game().Moves)
			missed := a.Game().Moves[len(b.Game().Moves):]
			if game == "aeroplane" && !slices.ContainsFunc(missed, func(m segment.MovedBody) bool { return m.Notation != "roll" }) {
				t.Fatalf("Beth missed %v: no move that the face of a roll decided", missed)
			}
			n.reconnect(b)
			if b.State() != Lobby || b.Seat() != 1 || b.Table() == nil {
				t.Fatalf("after the reconnect: state %v seat %d", b.State(), b.Seat())
			}
			if got := len(b.Game().Moves); got != seen {
				t.Fatalf("Beth knows %d moves, Albert %d", got, seen)
			}
			if b.Game().Replica() == nil {
				t.Fatal("the replica was dropped")
			}
			if !sameView(b.Game().Current(), b.Game().View) {
				t.Fatalf("Beth's picture differs from the server's View after resuming")
			}
			if !b.MyTurn() {
				t.Fatal("Beth's turn after the resume is not hers")
			}
			if len(kinds(n.take(b), EvResumed)) != 1 {
				t.Fatal("no resumed event")
			}
			for i := 0; i < 2000 && !a.Game().Over(); i++ {
				for _, c := range []*Client{a, b} {
					if !c.MyTurn() {
						continue
					}
					play(c)
				}
			}
			if !a.Game().Over() || !b.Game().Over() {
				t.Fatal("the game did not end")
			}
			if len(b.Errors) > 0 || len(a.Errors) > 0 {
				t.Fatalf("errors: %v %v", a.Errors, b.Errors)
			}
		})
	}
}

// TestResumeAfterALostFace: a seat's connection drops between an
// Aeroplane Chess roll and its face (the roll's Moved came, its Step did
// not). Resuming, the client asks for the moves from before that roll, so
// the server sends the roll again with its face, and the client's copy of
// the game plays on.
func TestResumeAfterALostFace(t *testing.T) {
	n := newHubNet(t, 5)
	a, b := n.login("Albert"), n.login("Beth")
	n.do(a)(a.Create("aeroplane", 2, 0, nil))
	n.do(b)(b.Join(a.Table().ID, segment.SeatAny, ""))
	n.do(a)(a.Ready())
	n.do(b)(b.Ready())
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; !b.MyTurn() || b.Game().Current().Extra[2] != aeroplane.PhaseRoll; i++ {
		c := a
		if b.MyTurn() {
			c = b
		}
		legal := c.Game().Legal(c.Seat())
		if i == 100 || len(legal) == 0 {
			t.Fatalf("no roll for Beth: errors %v %v", a.Errors, b.Errors)
		}
		n.do(c)(c.Move(legal[rng.IntN(len(legal))]))
	}
	// Beth rolls; her connection delivers the roll and drops before its face
	n.toHub(n.id(b), must(b.MoveText("roll")))
	for {
		r := n.hub.Ready()
		if r.Empty() {
			break
		}
		sends := append([]statemachine.Send(nil), r.Sends...)
		n.hub.Advance()
		for _, s := range sends {
			switch c := n.clients[s.Conn]; {
			case c == a:
				n.toHub(s.Conn, c.Receive(s.Seg))
			case c == b && !b.Game().Replica().Waiting():
				b.Receive(s.Seg) // until the roll waits for its face
			}
		}
	}
	if !b.Game().Replica().Waiting() {
		t.Fatal("Beth's copy of the game got the face")
	}
	n.drop(b)
	n.reconnect(b)
	if b.Seat() != 1 || b.Game() == nil || b.Game().Replica() == nil {
		t.Fatalf("after the resume: seat %d, copy of the game %v", b.Seat(), b.Game() != nil && b.Game().Replica() != nil)
	}
	if got, want := len(b.Game().Moves), len(a.Game().Moves); got != want {
		t.Fatalf("Beth knows %d moves, Albert %d", got, want)
	}
	if !sameView(b.Game().Current(), b.Game().View) || b.Game().Replica().Waiting() {
		t.Fatal("Beth's copy of the game differs from the server's View after resuming")
	}
	if b.MyTurn() && len(b.Game().Legal(b.Seat())) == 0 {
		t.Fatal("Beth to move with no legal move")
	}
}

func must(o Out, err error) Out {
	if err != nil {
		panic(err)
	}
	return o
}
