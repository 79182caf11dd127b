package paisho

import (
	"errors"
	"slices"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

func TestNewRefusesBadSettings(t *testing.T) {
	tests := []struct {
		players int
		opts    rules.Options
		want    error
	}{
		{1, nil, rules.ErrPlayers},
		{3, nil, rules.ErrPlayers},
		{2, rules.Options{"colour": "red"}, rules.ErrOption},
		{2, rules.Options{OptMoveLimit: "-1"}, rules.ErrOption},
		{2, rules.Options{OptMoveLimit: "many"}, rules.ErrOption},
	}
	for _, tt := range tests {
		if _, err := Spec().New(tt.players, tt.opts, nil); !errors.Is(err, tt.want) {
			t.Errorf("New(%d, %v): err %v, want %v", tt.players, tt.opts, err, tt.want)
		}
	}
}

func TestHostMovesFirst(t *testing.T) {
	g, _ := New(2, nil)
	if got := g.ToMove(nil); !slices.Equal(got, []rules.Player{host}) {
		t.Errorf("ToMove %v, want the host", got)
	}
	if len(g.Legal(guest, nil)) != 0 {
		t.Error("the guest has moves before the host has played")
	}
	if _, err := g.Play(guest, Deploy(Lotus, Point{0, 0}), nil); !errors.Is(err, rules.ErrNotYourTurn) {
		t.Errorf("guest first: err %v, want ErrNotYourTurn", err)
	}
}

func legalKinds(g *Game, p rules.Player) []uint8 {
	var kinds []uint8
	for _, m := range g.Legal(p, nil) {
		if !isBoardKind(m.Kind) {
			kinds = append(kinds, m.Kind)
		}
	}
	return kinds
}

func TestDrawOfferAccepted(t *testing.T) {
	g, _ := New(2, nil)
	if got := legalKinds(g, host); !slices.Equal(got, []uint8{rules.KindOfferDraw, rules.KindResign}) {
		t.Fatalf("host's extra actions %v", got)
	}
	steps, err := g.Play(host, OfferDraw(), nil)
	if err != nil || len(steps) != 1 || steps[0].Kind != StepDrawOffered {
		t.Fatalf("offer: steps %+v err %v", steps, err)
	}
	// The offer goes with the host's move: the host is still to move and
	// may not offer twice.
	if got := g.ToMove(nil); !slices.Equal(got, []rules.Player{host}) {
		t.Fatalf("after the offer ToMove is %v", got)
	}
	if _, err := g.Play(host, OfferDraw(), nil); !errors.Is(err, rules.ErrIllegal) {
		t.Errorf("second offer: err %v, want ErrIllegal", err)
	}
	if _, err := g.Play(host, AcceptDraw(), nil); !errors.Is(err, rules.ErrIllegal) {
		t.Errorf("accepting one's own offer: err %v, want ErrIllegal", err)
	}
	if _, err := g.Play(host, Deploy(Lotus, Point{0, 0}), nil); err != nil {
		t.Fatal(err)
	}
	if got := legalKinds(g, guest); !slices.Equal(got, []uint8{rules.KindAcceptDraw, rules.KindDeclineDraw, rules.KindResign}) {
		t.Fatalf("guest's extra actions %v", got)
	}
	if _, err := g.Play(guest, AcceptDraw(), nil); err != nil {
		t.Fatal(err)
	}
	if out := g.Outcome(); out.Status != rules.Drawn || len(out.Winners) != 0 {
		t.Errorf("outcome %+v, want a draw", out)
	}
}

func TestDrawOfferDeclined(t *testing.T) {
	for _, explicit := range []bool{true, false} {
		g, _ := New(2, nil)
		mustPlay(t, g, host, OfferDraw())
		mustPlay(t, g, host, Deploy(Lotus, Point{0, 0}))
		var steps []rules.Step
		if explicit {
			steps = mustPlay(t, g, guest, DeclineDraw())
			if len(steps) != 1 || steps[0].Kind != StepDrawDeclined {
				t.Errorf("decline steps %+v", steps)
			}
			if _, err := g.Play(guest, DeclineDraw(), nil); !errors.Is(err, rules.ErrIllegal) {
				t.Errorf("declining twice: err %v, want ErrIllegal", err)
			}
			mustPlay(t, g, guest, Deploy(Lotus, Point{1, 1}))
		} else {
			steps = mustPlay(t, g, guest, Deploy(Lotus, Point{1, 1}))
			if steps[0].Kind != StepDrawDeclined {
				t.Errorf("moving on did not decline: steps %+v", steps)
			}
		}
		if _, ok := g.DrawOffered(); ok {
			t.Error("the offer is still pending")
		}
		if g.Outcome().Status != rules.Running {
			t.Error("a declined draw ended the game")
		}
		if _, err := g.Play(host, AcceptDraw(), nil); !errors.Is(err, rules.ErrIllegal) {
			t.Errorf("accepting a declined offer: err %v, want ErrIllegal", err)
		}
	}
}

func TestResign(t *testing.T) {
	g, _ := New(2, nil)
	mustPlay(t, g, host, Deploy(Wheel, Point{0, 0}))
	mustPlay(t, g, guest, Resign())
	if out := g.Outcome(); out.Status != rules.Won || !slices.Equal(out.Winners, []rules.Player{host}) {
		t.Errorf("outcome %+v, want the host to win", out)
	}
}

func TestMoveLimitDraw(t *testing.T) {
	g, err := New(2, rules.Options{OptMoveLimit: "3"})
	if err != nil {
		t.Fatal(err)
	}
	mustPlay(t, g, host, Deploy(Wheel, Point{0, 0}))
	mustPlay(t, g, guest, OfferDraw()) // not a board move: does not count
	mustPlay(t, g, guest, Deploy(Wheel, Point{1, 0}))
	if g.Outcome().Status != rules.Running {
		t.Fatal("the game ended before the limit")
	}
	mustPlay(t, g, host, Deploy(Wheel, Point{2, 0}))
	if out := g.Outcome(); out.Status != rules.Drawn {
		t.Errorf("outcome %+v after 3 board moves, want a draw", out)
	}
}

func TestNoLegalMoveDraws(t *testing.T) {
	// The host's last tiles: a Lotus walled in below its temple and two
	// Chrysanthemums, which never move; the host library is empty.
	g := build(t, guest,
		H(Lotus, 0, 7), H(Chrysanthemum, 5, 5), H(Chrysanthemum, -5, -5),
		G(Badgermole, 1, 7), G(Badgermole, -1, 7), G(Chrysanthemum, 0, 6), G(Wheel, 0, 0))
	g.pos.lib[host] = [tileKinds]uint8{}
	mustPlay(t, g, guest, MoveTile(Point{0, 0}, Point{1, 1}))
	if out := g.Outcome(); out.Status != rules.Drawn || out.Reason != "no legal move" {
		t.Errorf("outcome %+v, want a draw for want of moves", out)
	}
}

func TestCloneIsIndependent(t *testing.T) {
	g, _ := New(2, nil)
	mustPlay(t, g, host, Deploy(Lotus, Point{0, 0}))
	c := g.Clone().(*Game)
	mustPlay(t, c, guest, Deploy(Lotus, Point{3, 3}))
	if tile, _ := g.TileAt(Point{3, 3}); tile != NoTile || len(g.History()) != 1 {
		t.Error("playing on a clone changed the original")
	}
}

func mustPlay(t *testing.T, g *Game, p rules.Player, m rules.Move) []rules.Step {
	t.Helper()
	steps, err := g.Play(p, m, nil)
	if err != nil {
		t.Fatalf("%s by seat %d: %v", MoveText(m), p, err)
	}
	return steps
}
