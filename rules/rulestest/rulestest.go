// Package rulestest checks that a rules.Game implementation keeps the
// contract of package rules. Every game package runs Conformance in its tests.
package rulestest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

// Config bounds a conformance run.
type Config struct {
	Players  int           // seats; 0 means spec.MinPlayers
	Options  rules.Options // passed to spec.New
	Games    int           // random games to play; 0 means 20
	MaxPlies int           // a game still running after this many moves is left unfinished; 0 means 2000
	Seed     uint64        // base seed; game i uses Seed+i
	// MoveFilter, when set, restricts the random player's choice (for
	// example to keep draw offers from ending every game at once).
	MoveFilter func(rules.Move) bool
}

// Conformance plays random games of spec and checks the rules contract:
// every legal move plays without error and round-trips through its notation;
// players not to move are refused with ErrNotYourTurn and the game is
// unchanged; a rejected move leaves the game unchanged; clones are
// independent; the same seed and moves replay to the same game; a finished
// game lists nobody to move and refuses moves with ErrGameOver.
func Conformance(t *testing.T, spec rules.Spec, cfg Config) {
	t.Helper()
	if cfg.Players == 0 {
		cfg.Players = spec.MinPlayers
	}
	if cfg.Games == 0 {
		cfg.Games = 20
	}
	if cfg.MaxPlies == 0 {
		cfg.MaxPlies = 2000
	}
	if _, err := spec.New(spec.MaxPlayers+1, cfg.Options, rand.New(rand.NewPCG(1, 2))); !errors.Is(err, rules.ErrPlayers) {
		t.Errorf("%s: New with %d players: err %v, want ErrPlayers", spec.Name, spec.MaxPlayers+1, err)
	}
	if _, err := spec.New(cfg.Players, rules.Options{"no-such-option": "1"}, rand.New(rand.NewPCG(1, 2))); !errors.Is(err, rules.ErrOption) {
		t.Errorf("%s: New with an unknown option: err %v, want ErrOption", spec.Name, err)
	}
	finished := 0
	for i := range cfg.Games {
		seed := cfg.Seed + uint64(i)
		moves, done := playRandom(t, spec, cfg, seed)
		if done {
			finished++
		}
		replay(t, spec, cfg, seed, moves)
		if t.Failed() {
			return
		}
	}
	if finished == 0 {
		t.Errorf("%s: none of %d random games finished within %d moves", spec.Name, cfg.Games, cfg.MaxPlies)
	}
}

type played struct {
	p rules.Player
	m rules.Move
}

func newGame(t *testing.T, spec rules.Spec, cfg Config, seed uint64) rules.Game {
	t.Helper()
	g, err := spec.New(cfg.Players, cfg.Options, rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)))
	if err != nil {
		t.Fatalf("%s: New(%d): %v", spec.Name, cfg.Players, err)
	}
	if g.Name() != spec.Name || g.Players() != cfg.Players {
		t.Fatalf("%s: game reports name %q and %d players", spec.Name, g.Name(), g.Players())
	}
	return g
}

func playRandom(t *testing.T, spec rules.Spec, cfg Config, seed uint64) ([]played, bool) {
	t.Helper()
	g := newGame(t, spec, cfg, seed)
	pick := rand.New(rand.NewPCG(seed, 7))
	var moves []played
	var toMove []rules.Player
	var legal []rules.Move
	for ply := 0; ply < cfg.MaxPlies; ply++ {
		toMove = g.ToMove(toMove[:0])
		out := g.Outcome()
		if len(toMove) == 0 {
			if out.Status == rules.Running {
				t.Fatalf("%s seed %d: nobody to move but the game is running", spec.Name, seed)
			}
			checkOver(t, spec, g, seed)
			return moves, true
		}
		if out.Status != rules.Running {
			t.Fatalf("%s seed %d: game ended (%v) but %v still to move", spec.Name, seed, out.Status, toMove)
		}
		p := toMove[pick.IntN(len(toMove))]
		legal = g.Legal(p, legal[:0])
		if cfg.MoveFilter != nil {
			legal = slices.DeleteFunc(legal, func(m rules.Move) bool { return !cfg.MoveFilter(m) })
		}
		if len(legal) == 0 {
			t.Fatalf("%s seed %d: player %d is to move but has no legal move", spec.Name, seed, p)
		}
		for q := rules.Player(0); int(q) < g.Players(); q++ {
			if slices.Contains(toMove, q) {
				continue
			}
			if extra := g.Legal(q, nil); len(extra) != 0 {
				t.Fatalf("%s seed %d: player %d is not to move but has %d legal moves", spec.Name, seed, q, len(extra))
			}
			before := g.View(rules.Spectator)
			if _, err := g.Play(q, legal[0], nil); !errors.Is(err, rules.ErrNotYourTurn) {
				t.Fatalf("%s seed %d: move by player %d out of turn: err %v, want ErrNotYourTurn", spec.Name, seed, q, err)
			}
			if after := g.View(rules.Spectator); after != before {
				t.Fatalf("%s seed %d: a refused move changed the game", spec.Name, seed)
			}
		}
		m := legal[pick.IntN(len(legal))]
		text := g.FormatMove(m)
		back, err := g.ParseMove(p, text)
		if err != nil || back != m {
			t.Fatalf("%s seed %d: move %+v formats as %q, which parses back as %+v (err %v)", spec.Name, seed, m, text, back, err)
		}
		if ply%17 == 0 {
			checkClone(t, spec, g, p, m, seed)
		}
		if _, err := g.Play(p, m, nil); err != nil {
			t.Fatalf("%s seed %d: legal move %q by player %d refused: %v", spec.Name, seed, text, p, err)
		}
		moves = append(moves, played{p, m})
	}
	return moves, false
}

func checkClone(t *testing.T, spec rules.Spec, g rules.Game, p rules.Player, m rules.Move, seed uint64) {
	t.Helper()
	before := viewAll(g)
	c := g.Clone()
	if got := viewAll(c); got != before {
		t.Fatalf("%s seed %d: clone differs from the original", spec.Name, seed)
	}
	if _, err := c.Play(p, m, nil); err != nil {
		t.Fatalf("%s seed %d: clone refused a legal move: %v", spec.Name, seed, err)
	}
	if got := viewAll(g); got != before {
		t.Fatalf("%s seed %d: playing on a clone changed the original", spec.Name, seed)
	}
}

func checkOver(t *testing.T, spec rules.Spec, g rules.Game, seed uint64) {
	t.Helper()
	out := g.Outcome()
	if out.Status == rules.Won && len(out.Winners) == 0 {
		t.Fatalf("%s seed %d: won with no winner", spec.Name, seed)
	}
	if out.Reason == "" {
		t.Errorf("%s seed %d: outcome has no reason", spec.Name, seed)
	}
	for p := rules.Player(0); int(p) < g.Players(); p++ {
		if n := len(g.Legal(p, nil)); n != 0 {
			t.Fatalf("%s seed %d: game over but player %d has %d legal moves", spec.Name, seed, p, n)
		}
		if _, err := g.Play(p, rules.Move{}, nil); !errors.Is(err, rules.ErrGameOver) {
			t.Fatalf("%s seed %d: move after the end: err %v, want ErrGameOver", spec.Name, seed, err)
		}
	}
	if n := len(g.Scores(nil)); n != g.Players() {
		t.Errorf("%s seed %d: %d scores for %d players", spec.Name, seed, n, g.Players())
	}
}

// replay plays the recorded moves on a fresh game from the same seed and
// checks that it arrives at the same state.
func replay(t *testing.T, spec rules.Spec, cfg Config, seed uint64, moves []played) {
	t.Helper()
	a := newGame(t, spec, cfg, seed)
	b := newGame(t, spec, cfg, seed)
	for i, mv := range moves {
		sa, errA := a.Play(mv.p, mv.m, nil)
		sb, errB := b.Play(mv.p, mv.m, nil)
		if errA != nil || errB != nil {
			t.Fatalf("%s seed %d: replayed move %d refused: %v / %v", spec.Name, seed, i, errA, errB)
		}
		if !slices.Equal(sa, sb) {
			t.Fatalf("%s seed %d: replayed move %d gave different steps", spec.Name, seed, i)
		}
	}
	if viewAll(a) != viewAll(b) {
		t.Fatalf("%s seed %d: two replays of the same seed and moves differ", spec.Name, seed)
	}
}

func viewAll(g rules.Game) string {
	s := g.View(rules.Spectator)
	for p := rules.Player(0); int(p) < g.Players(); p++ {
		s += fmt.Sprintf("\n--- seat %d\n%s", p, g.View(p))
	}
	return s + fmt.Sprintf("\n%+v %v", g.Outcome(), g.Scores(nil))
}
