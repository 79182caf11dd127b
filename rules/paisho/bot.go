package paisho

import (
	"fmt"

	"github.com/bomber-game/bomber/rules"
)

// Bot plays one ply deep with a static evaluation that looks one reply
// further: it takes the enemy White Lotus whenever it can, never leaves its
// own Lotus where the opponent can capture it next move, guards its Lotus
// with a Badgermole, weighs material and threats, and steers its capturing
// tiles (and its Fire Lily, which carries the White Dragon) towards the
// enemy Lotus. Equal choices are broken with the injected Rand, so a bot is
// deterministic for a seed. It never offers draws or resigns, and answers a
// draw offer by moving on.
type Bot struct {
	rng rules.Rand
}

// NewBot returns a bot drawing its tie-breaks from rng.
func NewBot(rng rules.Rand) *Bot { return &Bot{rng: rng} }

var _ rules.Bot = (*Bot)(nil)

// Choose picks the seat's move; its game must be a *Game with the seat to
// move.
func (b *Bot) Choose(s rules.Seat) (rules.Move, error) {
	g, p := s.Game(), s.Player()
	pg, ok := g.(*Game)
	if !ok {
		return rules.Move{}, fmt.Errorf("%w: the Pai Sho bot needs a *paisho.Game, not %T", rules.ErrIllegal, g)
	}
	if pg.out.Status != rules.Running {
		return rules.Move{}, fmt.Errorf("%w: %s", rules.ErrGameOver, pg.out.Reason)
	}
	if p != pg.pos.turn {
		return rules.Move{}, fmt.Errorf("%w: seat %d is not to move", rules.ErrNotYourTurn, p)
	}
	moves := b.candidates(&pg.pos, p)
	if len(moves) == 0 {
		// Unreachable: a game with no board move has ended. Bots never resign.
		return rules.Move{}, fmt.Errorf("%w: seat %d has no board move", rules.ErrIllegal, p)
	}
	best, ties := 0, 0
	bestScore := 0
	for i, m := range moves {
		next := pg.pos
		_, captured := next.applyBoard(m, nil)
		if captured == Lotus {
			return m, nil
		}
		s := evaluate(&next, p)
		switch {
		case i == 0 || s > bestScore:
			best, bestScore, ties = i, s, 1
		case s == bestScore:
			// Reservoir sampling keeps every tied move equally likely.
			ties++
			if b.rng.IntN(ties) == 0 {
				best = i
			}
		}
	}
	return moves[best], nil
}

// deploySample is how many far-away points the bot tries for each deploy of
// an ordinary tile; points near tiles on the board are always tried.
const deploySample = 12

// candidates lists p's board moves, thinning out deploys on the many empty
// points far from any tile, where one point is much like another.
func (b *Bot) candidates(ps *position, p rules.Player) []rules.Move {
	all := ps.appendBoardMoves(p, nil)
	var near [cells]bool
	for _, i := range geo.points {
		if ps.board[i] != 0 {
			for _, j := range appendWithin(ps, int(i), 2, nil, func(int) bool { return true }) {
				near[j] = true
			}
		}
	}
	out := all[:0]
	var far [tileKinds][]rules.Move
	for _, m := range all {
		t, at, ok := DeployOf(m)
		if !ok || t == SkyBison || t == WhiteDragon || near[at.index()] {
			out = append(out, m)
			continue
		}
		far[t] = append(far[t], m)
	}
	for _, ms := range far {
		for k := 0; k < deploySample && len(ms) > 0; k++ {
			j := b.rng.IntN(len(ms))
			out = append(out, ms[j])
			ms[j] = ms[len(ms)-1]
			ms = ms[:len(ms)-1]
		}
	}
	return out
}

// tileValue is what a tile is worth to its owner in the evaluation.
var tileValue = [tileKinds]int{0, 0, 60, 30, 50, 20, 30, 60}

const (
	lotusLost     = -1_000_000 // the opponent can take our Lotus next move
	lotusThreat   = 4000       // we can take the enemy Lotus next move
	lotusOutBonus = 100        // our Lotus is deployed, so we may capture
	lotusGuarded  = 300        // a Badgermole keeps our Lotus from capture
	dragonAnchor  = 150        // our Fire Lily lies within the Dragon's reach of the enemy Lotus
)

// evaluate scores the position for me, with the opponent to move.
func evaluate(ps *position, me rules.Player) int {
	opp := 1 - me
	score := 0
	for p := host; p <= guest; p++ {
		sign := 1
		if p != me {
			sign = -1
		}
		for t := Lotus; t < tileKinds; t++ {
			score += sign * tileValue[t] * int(ps.lib[p][t])
		}
	}
	myLotus, oppLotus, myLily := -1, -1, -1
	for _, i := range geo.points {
		c := ps.board[i]
		if c == 0 {
			continue
		}
		t, o := tileOf(c), ownerOf(c)
		if o == me {
			score += tileValue[t]
		} else {
			score -= tileValue[t]
		}
		switch {
		case t == Lotus && o == me:
			myLotus = int(i)
		case t == Lotus:
			oppLotus = int(i)
		case t == FireLily && o == me:
			myLily = int(i)
		}
	}
	// The opponent's best capture next move.
	if worst := bestCapture(ps, opp); worst == Lotus {
		return lotusLost
	} else if worst != NoTile {
		score -= tileValue[worst]
	}
	// Our own threats, should the opponent ignore them.
	if mine := bestCapture(ps, me); mine == Lotus {
		score += lotusThreat
	} else if mine != NoTile {
		score += tileValue[mine] / 4
	}
	if myLotus >= 0 {
		score += lotusOutBonus
		if ps.protected(myLotus) {
			score += lotusGuarded
		}
	}
	if oppLotus >= 0 {
		if myLily >= 0 && distance(myLily, oppLotus) <= 5 {
			score += dragonAnchor
		}
		for _, i := range geo.points {
			c := ps.board[i]
			if c != 0 && ownerOf(c) == me && tileOf(c).Captures() {
				score -= 2 * distance(int(i), oppLotus)
			}
		}
	}
	return score
}

// bestCapture returns the most valuable tile p could capture with one move
// (the White Lotus above all), or NoTile.
func bestCapture(ps *position, p rules.Player) Tile {
	var tmp [cells]int16
	best := NoTile
	for _, i := range geo.points {
		c := ps.board[i]
		if c == 0 || ownerOf(c) != p || !tileOf(c).Captures() {
			continue
		}
		for _, d := range ps.destinations(int(i), tmp[:0]) {
			t := tileOf(ps.board[d])
			if t == Lotus {
				return Lotus
			}
			if t != NoTile && (best == NoTile || tileValue[t] > tileValue[best]) {
				best = t
			}
		}
	}
	return best
}
