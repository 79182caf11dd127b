package aeroplane

import (
	"fmt"
	"math/rand/v2"

	"github.com/bomber-game/bomber/rules"
)

// Bot picks moves by fixed priorities: finish a piece, capture, fly or
// jump, launch, keep pieces off spaces opponents can reach next turn, and
// otherwise advance the piece that gains most. Equal choices are broken by
// its own seeded generator, so a bot is deterministic for its seed.
type Bot struct {
	rng *rand.Rand
}

// NewBot returns a bot whose tie-breaks follow seed.
func NewBot(seed uint64) *Bot {
	return &Bot{rng: rand.New(rand.NewPCG(seed, 0xae40))}
}

// Weights of the bot's priorities, in score points.
const (
	wFinish      = 1000
	wCapture     = 400 // per captured piece, plus its progress
	wFlight      = 120
	wJump        = 60
	wLaunch      = 250
	wBridge      = 100 // reaching the bridge, where nobody can capture
	wThreat      = 180 // per sixth of a chance an opponent piece lands on us
	wAdvance     = 2   // per step gained
	wTieBreakers = 4   // random points added to break ties
)

// Choose returns the move the bot makes for its seat, whose game must be an
// *aeroplane.Game: "roll" while a roll is expected, else the best piece to
// move. The hub's timeout action for a seat is the same: Choose and play
// until the seat has rolled and moved.
func (b *Bot) Choose(s rules.Seat) (rules.Move, error) {
	g, p := s.Game(), s.Player()
	a, ok := g.(*Game)
	if !ok {
		return rules.Move{}, fmt.Errorf("%w: the aeroplane bot cannot play %T", rules.ErrIllegal, g)
	}
	legal := a.Legal(p, nil)
	switch {
	case a.winner >= 0:
		return rules.Move{}, fmt.Errorf("%w: %s has won", rules.ErrGameOver, ColourName(a.winner))
	case len(legal) == 0:
		return rules.Move{}, fmt.Errorf("%w: %s is to play", rules.ErrNotYourTurn, ColourName(a.turn))
	case len(legal) == 1:
		return legal[0], nil
	}
	best, bestScore := legal[0], -1<<30
	for _, m := range legal {
		s := a.score(p, int(m.Arg[0]))*wTieBreakers + b.rng.IntN(wTieBreakers)
		if s > bestScore {
			best, bestScore = m, s
		}
	}
	return best, nil
}

// score rates moving piece i of p with the current die.
func (g *Game) score(p rules.Player, i int) int {
	t := plan(int(g.pos[p][i]), int(g.die), g.set)
	s := 0
	if t.final == Centre {
		s += wFinish
	}
	if t.from == Camp {
		s += wLaunch
	}
	if t.flight != 0 {
		s += wFlight
	}
	if t.jump != 0 {
		s += wJump
	}
	if t.from <= LastTrack && t.final > LastTrack {
		s += wBridge
	}
	if t.from >= Start && t.final != Centre {
		s += (t.final - t.from) * wAdvance
	}
	if ti := TrackIndex(p, t.final); ti >= 0 {
		for q := range rules.Player(g.players) {
			if q == p {
				continue
			}
			for _, a := range g.pos[q] {
				if TrackIndex(q, int(a)) == ti {
					s += wCapture + int(a)*wAdvance
				}
			}
		}
		s -= g.threat(p, ti) * wThreat
	}
	if ti := TrackIndex(p, t.from); ti >= 0 {
		s += g.threat(p, ti) * wThreat // moving away from danger is worth the danger avoided
	}
	return s
}

// threat counts the (piece, face) pairs with which an opponent of p would
// come to rest on track space ti on its next roll.
func (g *Game) threat(p rules.Player, ti int) int {
	n := 0
	for q := range rules.Player(g.players) {
		if q == p {
			continue
		}
		for _, a := range g.pos[q] {
			if a < Start || a > LastTrack {
				continue
			}
			for face := 1; face <= 6; face++ {
				if TrackIndex(q, plan(int(a), face, g.set).final) == ti {
					n++
				}
			}
		}
	}
	return n
}
