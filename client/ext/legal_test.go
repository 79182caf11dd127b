package ext

import (
	"slices"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

// TestLegalMovesAreTheServers: the moves a client offers its player are
// the ones the server listed for the game's latest update (Legal): after
// each Legal they are the rules' legal moves of our seat in that position,
// and once a move is played they are none until the server lists the next
// position's, never the last position's.
func TestLegalMovesAreTheServers(t *testing.T) {
	c := New()
	c.Login("Albert", "123")
	lists, gaps := 0, 0
	for i, s := range received(t, "59_legal.txt", "a") {
		for _, ev := range c.Receive(s).Events {
			g := c.Game()
			switch ev.Kind {
			case EvLegal:
				if g.Replica() == nil {
					continue // a game of secret moves: nothing here to hold the list against
				}
				lists++
				var want []rules.Move
				for _, m := range g.Replica().Game().Legal(rules.Player(c.Seat()), nil) {
					if m.Kind < rules.KindOfferDraw {
						want = append(want, m)
					}
				}
				got := g.Legal(c.Seat())
				if len(got) == 0 || len(got) != len(want) || slices.ContainsFunc(want, func(m rules.Move) bool { return !slices.Contains(got, m) }) {
					t.Fatalf("segment %d: the client offers %v, the position allows %v", i+1, got, want)
				}
			case EvMoved:
				if got := g.Legal(c.Seat()); got != nil {
					t.Fatalf("segment %d: after a move the client still offers %v", i+1, got)
				}
				gaps++
			}
		}
	}
	if lists < 2 || gaps < 2 {
		t.Fatalf("%d legal lists and %d moves in the transcript: it no longer shows what this test is about", lists, gaps)
	}
}
