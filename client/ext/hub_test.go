package ext

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// hubNet connects ext clients to the real server state machine in-process:
// every segment a client sends goes to the hub and every segment the hub
// sends goes to its client; logins are answered from the demo accounts
// (password 123).
type hubNet struct {
	t       testing.TB
	hub     *statemachine.Hub
	clients map[statemachine.ConnID]*Client
	events  map[statemachine.ConnID][]Event
	now     int64
}

func newHubNet(t testing.TB, seed uint64) *hubNet {
	cfg := statemachine.Config{Games: statemachine.Catalogue(), ChatBurst: 1000, ChatRate: 1000}
	hub := statemachine.New(cfg)
	hub.Step(0, statemachine.SeedInput(seed))
	return &hubNet{t: t, hub: hub, clients: map[statemachine.ConnID]*Client{}, events: map[statemachine.ConnID][]Event{}}
}

// login connects a new client as user and logs it in.
func (n *hubNet) login(user string) *Client {
	n.t.Helper()
	c := New()
	id := statemachine.ConnID(len(n.clients) + 1)
	n.clients[id] = c
	n.hub.Step(n.now, statemachine.Input{Kind: statemachine.InOpen, Conn: id})
	if _, err := c.Login(user, "123"); err != nil {
		n.t.Fatal(err)
	}
	n.do(c)(c.Connected(), nil)
	if c.State() != Lobby {
		n.t.Fatalf("%s is %v after logging in", user, c.State())
	}
	return c
}

func (n *hubNet) id(c *Client) statemachine.ConnID {
	for id, x := range n.clients {
		if x == c {
			return id
		}
	}
	n.t.Fatal("unknown client")
	return 0
}

// do sends what a request built and delivers everything that follows.
func (n *hubNet) do(c *Client) func(Out, error) {
	return func(o Out, err error) {
		n.t.Helper()
		if err != nil {
			n.t.Fatal(err)
		}
		n.toHub(n.id(c), o)
		n.pump()
	}
}

func (n *hubNet) toHub(id statemachine.ConnID, o Out) {
	n.events[id] = append(n.events[id], o.Events...)
	for _, s := range o.Send {
		n.now++
		n.hub.Step(n.now, statemachine.Input{Kind: statemachine.InReceive, Conn: id, Seg: s})
	}
}

func (n *hubNet) pump() {
	accounts := replay.DemoAccounts()
	for range 1000000 {
		r := n.hub.Ready()
		if r.Empty() {
			return
		}
		sends := append([]statemachine.Send(nil), r.Sends...)
		checks := append([]statemachine.Check(nil), r.Checks...)
		n.hub.Advance()
		for _, s := range sends {
			if c := n.clients[s.Conn]; c != nil {
				n.toHub(s.Conn, c.Receive(s.Seg))
			}
		}
		for _, c := range checks {
			n.hub.Step(n.now, statemachine.Input{Kind: statemachine.InAnswer, Check: c.ID, Answer: accounts.Answer(c)})
		}
	}
	n.t.Fatal("the hub and the clients never went quiet")
}

// take returns and forgets the events c produced.
func (n *hubNet) take(c *Client) []Event {
	id := n.id(c)
	e := n.events[id]
	n.events[id] = nil
	return e
}

func kinds(evs []Event, k EventKind) []Event {
	var out []Event
	for _, e := range evs {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// TestEveryGameThroughTheHub: for each of the five games, clients built on
// this package create a table, join, get a watcher, play to the end
// choosing only among the legal moves their replica lists (Bomber, which
// keeps no replica, in notation), and at the end every seat's and the
// watcher's picture of the game equals a fresh View from the server.
func TestEveryGameThroughTheHub(t *testing.T) {
	users := []string{"Albert", "Beth", "Larry", "Novate"}
	small := map[string][]segment.KV{"dots": {{Key: "rows", Value: "3"}, {Key: "cols", Value: "4"}}, "paisho": {{Key: "move-limit", Value: "30"}}}
	for gi, entry := range statemachine.Catalogue() {
		spec := entry.Spec
		for _, seats := range []int{spec.MinPlayers, spec.MaxPlayers} {
			t.Run(fmt.Sprintf("%s/%d", spec.Name, seats), func(t *testing.T) {
				n := newHubNet(t, uint64(gi))
				var cs []*Client
				for _, u := range users[:seats] {
					cs = append(cs, n.login(u))
				}
				w := n.login("Twofyw")
				n.do(cs[0])(cs[0].Create(spec.Name, seats, 0, small[spec.Name]))
				tb := cs[0].Table()
				if tb == nil || tb.Game != spec.Name || cs[0].Seat() != 0 {
					t.Fatalf("creator's table %+v seat %d", tb, cs[0].Seat())
				}
				n.do(w)(w.RequestList())
				if len(w.Tables()) != 1 || w.Tables()[0].ID != tb.ID {
					t.Fatalf("the list shows %+v", w.Tables())
				}
				for _, c := range cs[1:] {
					n.do(c)(c.Join(tb.ID, segment.SeatAny, ""))
				}
				n.do(w)(w.Watch(tb.ID, ""))
				if w.Seat() != Watcher {
					t.Fatalf("watcher's seat %d", w.Seat())
				}
				for _, c := range cs {
					n.do(c)(c.Ready())
				}
				rng := rand.New(rand.NewPCG(uint64(gi), uint64(seats)))
				secret := spec.Name == "bomber"
				for i, c := range append(cs, w) {
					g := c.Game()
					if g == nil {
						t.Fatalf("client %d has no game after the start", i)
					}
					if (g.Replica() == nil) != secret {
						t.Fatalf("client %d: replica %v for %s", i, g.Replica() != nil, spec.Name)
					}
				}
				playOut(t, n, cs, rng, secret)
				for i, c := range append(cs, w) {
					g := c.Game()
					if !g.Over() {
						t.Fatalf("client %d: the game is not over", i)
					}
					if len(kinds(n.take(c), EvGameEnd)) != 1 {
						t.Fatalf("client %d: not one GameEnd event", i)
					}
					if len(g.Moves) != len(cs[0].Game().Moves) {
						t.Fatalf("client %d saw %d moves, seat 0 %d", i, len(g.Moves), len(cs[0].Game().Moves))
					}
					before := g.Current()
					n.do(c)(c.RequestView())
					if !sameView(before, g.View) {
						t.Fatalf("client %d: its picture\n%+v\nthe server's View\n%+v", i, before, g.View)
					}
					if !secret && g.Replica() == nil {
						t.Fatalf("client %d dropped its replica", i)
					}
				}
			})
		}
	}
}

// playOut has the seats to move play until the game ends.
func playOut(t *testing.T, n *hubNet, cs []*Client, rng *rand.Rand, secret bool) {
	t.Helper()
	guess := make([]int, len(cs))
	for ply := 0; ply < 3000; ply++ {
		g := cs[0].Game()
		if g.Over() {
			return
		}
		moved := false
		for i, c := range cs {
			if !c.MyTurn() {
				continue
			}
			moved = true
			if secret {
				if c.Game().Current().Extra[0] == 0 {
					n.do(c)(c.MoveText("02-32 07-37 52-82"))
				} else {
					n.do(c)(c.MoveText(fmt.Sprintf("%02d", guess[i])))
					guess[i]++
				}
			} else {
				legal := c.Game().Legal(c.Seat())
				if len(legal) == 0 {
					t.Fatalf("seat %d to move with no legal move in its replica", i)
				}
				if ply > 400 {
					n.do(c)(c.Resign())
				} else {
					n.do(c)(c.Move(legal[rng.IntN(len(legal))]))
				}
			}
			if len(c.Errors) > 0 {
				t.Fatalf("seat %d: the server refused a move: %+v", i, c.Errors[0])
			}
			break
		}
		if !moved {
			t.Fatalf("nobody may move in a running game (ply %d)", ply)
		}
	}
	t.Fatal("the game did not end")
}

func sameView(a, b rules.View) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

// TestPrivateTableByCode: a private table is not listed to others, its
// creator sees its join code, a join without the code is refused and one
// with it is seated; chat reaches the table.
func TestPrivateTableByCode(t *testing.T) {
	n := newHubNet(t, 5)
	a, b := n.login("Albert"), n.login("Beth")
	n.do(a)(a.Create("dots", 2, segment.FlagPrivate, nil))
	code := a.Table().Code
	if len(code) != 6 {
		t.Fatalf("join code %q", code)
	}
	n.do(b)(b.RequestList())
	if len(b.Tables()) != 0 {
		t.Fatalf("a private table is listed: %+v", b.Tables())
	}
	n.do(b)(b.Join(a.Table().ID, segment.SeatAny, ""))
	if b.Table() != nil || len(b.Errors) != 1 || b.Errors[0].Code != segment.ErrCodeNotAllowed {
		t.Fatalf("joined without the code: table %+v errors %+v", b.Table(), b.Errors)
	}
	n.do(b)(b.Join(a.Table().ID, segment.SeatAny, code))
	if b.Seat() != 1 {
		t.Fatalf("not seated with the code: seat %d", b.Seat())
	}
	n.do(b)(b.Chat(segment.ScopeTable, "hi"))
	if len(a.TableChat) != 1 || a.TableChat[0] != (ChatLine{Scope: segment.ScopeTable, From: "Beth", Text: "hi"}) {
		t.Fatalf("table chat %+v", a.TableChat)
	}
	n.do(b)(b.Leave())
	if b.Table() != nil || b.Seat() != NoSeat || b.Resumable() {
		t.Fatalf("after leaving: table %+v seat %d", b.Table(), b.Seat())
	}
}
