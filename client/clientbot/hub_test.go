package clientbot

import (
	"github.com/bomber-game/bomber/client"
	"math/rand/v2"
	"testing"

	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// hubNet connects clients to the real server state machine in-process:
// every segment a client sends goes to the hub, every segment the hub sends
// goes to the client, and account checks are answered from the demo
// accounts (password 123).
type hubNet struct {
	t     testing.TB
	hub   *statemachine.Hub
	bots  map[statemachine.ConnID]*Bot
	now   int64
	trace []string // what crossed the wire, for failure messages
}

func newHubNet(t testing.TB, cfg statemachine.Config) *hubNet {
	return &hubNet{t: t, hub: statemachine.New(cfg), bots: map[statemachine.ConnID]*Bot{}}
}

func (n *hubNet) connect(id statemachine.ConnID, b *Bot) {
	n.bots[id] = b
	n.hub.Step(n.now, statemachine.Input{Kind: statemachine.InOpen, Conn: id})
	n.toHub(id, b.Connected())
	n.pump()
}

func (n *hubNet) toHub(id statemachine.ConnID, o client.Out) {
	for _, s := range o.Send {
		n.now++
		n.hub.Step(n.now, statemachine.Input{Kind: statemachine.InReceive, Conn: id, Seg: s})
	}
}

// pump delivers everything until the hub and the clients are quiet.
func (n *hubNet) pump() {
	accounts := replay.DemoAccounts()
	for range 100000 {
		r := n.hub.Ready()
		if r.Empty() {
			return
		}
		sends := append([]statemachine.Send(nil), r.Sends...)
		checks := append([]statemachine.Check(nil), r.Checks...)
		closes := append([]statemachine.ConnID(nil), r.Closes...)
		n.hub.Advance()
		for _, s := range sends {
			b := n.bots[s.Conn]
			if b == nil {
				continue
			}
			n.trace = append(n.trace, b.User+" < "+s.Seg.String())
			n.toHub(s.Conn, b.Receive(s.Seg))
		}
		for _, c := range checks {
			a := statemachine.Found
			pw, ok := accounts[c.User]
			switch {
			case !ok:
				a = statemachine.NotFound
			case c.Kind == statemachine.Verify && pw != c.Password:
				a = statemachine.WrongPassword
			}
			n.hub.Step(n.now, statemachine.Input{Kind: statemachine.InAnswer, Check: c.ID, Answer: a})
		}
		for _, c := range closes {
			if b := n.bots[c]; b != nil {
				delete(n.bots, c)
				n.toHub(c, b.Disconnected())
			}
		}
	}
	n.t.Fatal("the hub and the clients never went quiet")
}

// retry gives every bot that asked for a pause its retry.
func (n *hubNet) retry() bool {
	any := false
	for id, b := range n.bots {
		if b.WantsRetry() {
			any = true
			n.toHub(id, b.Retry())
		}
	}
	n.pump()
	return any
}

func TestBotsPlayWholeGamesAgainstTheServer(t *testing.T) {
	n := newHubNet(t, statemachine.Config{})
	beth := NewBot("Beth", "123", rand.New(rand.NewPCG(1, 2)))
	albert := NewBot("Albert", "123", rand.New(rand.NewPCG(3, 4)))
	albert.Invite, albert.Games, beth.Games = "Beth", 5, 5
	n.connect(1, beth)
	n.connect(2, albert) // logs in, sees Beth, invites her
	for i := 0; i < 20 && !albert.Done(); i++ {
		n.retry()
	}
	if albert.Played() != 5 || beth.Played() != 5 {
		t.Fatalf("played %d and %d games, want 5 each\n%v", albert.Played(), beth.Played(), n.trace)
	}
	if albert.Won()+beth.Won() != 5 {
		t.Fatalf("wins %d + %d, want one winner per game", albert.Won(), beth.Won())
	}
	if beth.C.State() != client.ClientWaiting || albert.C.State() != client.ClientWaiting {
		t.Fatalf("states after the games: %v %v", beth.C.State(), albert.C.State())
	}
	// Every game was won outright (the loser saw a loss, not a departure).
	if o := beth.C.Outcome(); o != client.Won && o != client.Lost {
		t.Fatalf("last outcome %v", o)
	}
}

func TestGuessesAreJudgedFromTheForwardedBoard(t *testing.T) {
	// Two bots play one game; afterwards each one's marks on the enemy board
	// agree with the enemy's real planes.
	n := newHubNet(t, statemachine.Config{})
	beth := NewBot("Beth", "123", rand.New(rand.NewPCG(9, 10)))
	albert := NewBot("Albert", "123", rand.New(rand.NewPCG(11, 12)))
	albert.Invite, albert.Games, beth.Games = "Beth", 1, 1
	n.connect(1, beth)
	n.connect(2, albert)
	if albert.Played() != 1 {
		t.Fatalf("the game did not finish\n%v", n.trace)
	}
	for _, pair := range [][2]*Bot{{albert, beth}, {beth, albert}} {
		me, them := pair[0].C, pair[1].C
		cells, heads := them.MyCells()
		for x := bomber.Cell(0); x < bomber.Size*bomber.Size; x++ {
			want := client.Miss
			switch {
			case heads.Has(x):
				want = client.HeadHit
			case cells.Has(x):
				want = client.Hit
			}
			if m := me.Mark(x); m != client.Unknown && m != want {
				t.Fatalf("%s marks %v as %v, the board says %v", me.User(), x, m, want)
			}
		}
	}
}

// BenchmarkBotGames plays whole games between two bots through the real
// server state machine; it reports the winner's guesses per game.
func BenchmarkBotGames(b *testing.B) {
	n := newHubNet(b, statemachine.Config{})
	beth := NewBot("Beth", "123", rand.New(rand.NewPCG(1, 2)))
	albert := NewBot("Albert", "123", rand.New(rand.NewPCG(3, 4)))
	albert.Invite = "Beth"
	n.connect(1, beth)
	b.ResetTimer()
	n.connect(2, albert)
	for albert.Played() < b.N {
		if !n.retry() {
			b.Fatal("the bots stopped playing")
		}
	}
	b.ReportMetric(float64(albert.WinGuesses()+beth.WinGuesses())/float64(albert.Played()), "guesses/win")
	b.ReportMetric(float64(albert.Won())/float64(albert.Played()), "inviter-winrate")
}
