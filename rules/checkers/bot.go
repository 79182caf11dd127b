package checkers

import (
	"fmt"
	"math/rand/v2"

	"github.com/bomber-game/bomber/rules"
)

// Default bot bounds: deep enough to punish loose play, small enough to
// answer within milliseconds.
const (
	DefaultBotDepth = 12
	DefaultBotNodes = 20000
)

const (
	scoreWin = 1_000_000 // a won position, less the plies needed to reach it
	maxPly   = 128       // search depth plus the longest chain of forced captures
)

// drawThreshold: the bot accepts a draw offer when its search says it is
// worse by at least this much.
const drawThreshold = -50

// Bot chooses moves by iterative-deepening alpha-beta search, bounded by
// depth and by the number of positions visited, so its choice depends only
// on the game and its seed, never on the machine's speed.
type Bot struct {
	MaxDepth int // plies searched at most (captures are searched beyond it)
	MaxNodes int // positions visited per move at most; 0 means no bound
	rng      *rand.Rand
}

// NewBot returns a bot with the default bounds; equal seeds give equal play.
func NewBot(seed uint64) *Bot {
	return &Bot{MaxDepth: DefaultBotDepth, MaxNodes: DefaultBotNodes, rng: rand.New(rand.NewPCG(seed, 0x636865636b657273))}
}

// Choose returns the move of seat s in its game, which must be a *Game.
// Offered a draw, the bot accepts only when it judges itself clearly worse.
// It never offers a draw or resigns.
func (b *Bot) Choose(s rules.Seat) (rules.Move, error) {
	p := s.Player()
	g, ok := s.Game().(*Game)
	if !ok {
		return rules.Move{}, fmt.Errorf("%w: the checkers bot needs a *checkers.Game, not %T", rules.ErrIllegal, s.Game())
	}
	if g.outcome.Status != rules.Running {
		return rules.Move{}, fmt.Errorf("%w: %s", rules.ErrGameOver, g.outcome.Reason)
	}
	if p != g.actor() {
		return rules.Move{}, fmt.Errorf("%w: %s is to move", rules.ErrNotYourTurn, colourName[g.actor()])
	}
	if g.offer != rules.Spectator {
		// The offerer is the side to move on the board, so its score is
		// the negation of ours.
		_, score := b.search(g)
		if -score <= drawThreshold {
			return rules.Move{Kind: rules.KindAcceptDraw}, nil
		}
		return rules.Move{Kind: rules.KindDeclineDraw}, nil
	}
	m, _ := b.search(g)
	return m, nil
}

// search returns the best board move for the side to move and its score.
func (b *Bot) search(g *Game) (rules.Move, int) {
	root := generate(g.pos, g.cfg.compulsory, nil)
	// A seeded shuffle decides among equally good moves.
	for i := len(root) - 1; i > 0; i-- {
		j := b.rng.IntN(i + 1)
		root[i], root[j] = root[j], root[i]
	}
	if len(root) == 1 {
		return root[0].m, evaluate(g.pos)
	}
	s := searcher{
		compulsory: g.cfg.compulsory,
		hist:       append(make([]pos, 0, len(g.history)+maxPly), g.history...),
		bufs:       make([][]move, maxPly+1),
	}
	best, bestScore := root[0], evaluate(g.pos)
	for depth := 1; depth <= max(1, b.MaxDepth); depth++ {
		alpha := -scoreWin - 1
		iterBest, complete := root[0], true
		for i, mv := range root {
			v := -s.visit(g.pos, mv, depth-1, 1, -scoreWin-1, -alpha, 0)
			if s.aborted {
				complete = false
				break
			}
			if i == 0 || v > alpha {
				alpha, iterBest = v, mv
			}
		}
		if !complete {
			break
		}
		// The node bound applies from the second iteration on, so there is
		// always a fully searched move to fall back on.
		s.limit = b.MaxNodes
		best, bestScore = iterBest, alpha
		// Search the best move first next time: it tightens the window soonest.
		for i := range root {
			if root[i] == best {
				copy(root[1:i+1], root[:i])
				root[0] = best
				break
			}
		}
		if alpha >= scoreWin-maxPly || alpha <= -scoreWin+maxPly {
			break
		}
	}
	return best.m, bestScore
}

// searcher holds one search's state: its node count and bound, the
// positions on the path (for repetition) and one move buffer per ply.
type searcher struct {
	compulsory bool
	nodes      int
	limit      int
	aborted    bool
	hist       []pos
	bufs       [][]move
}

// visit plays mv from p and returns the negamax score of the position
// reached, for the side to move there. base indexes the first position of
// hist that a repetition could match (nothing before an irreversible move).
func (s *searcher) visit(p pos, mv move, depth, ply, alpha, beta, base int) int {
	next := apply(p, mv)
	if irreversible(p, mv) {
		base = len(s.hist)
	} else {
		for _, h := range s.hist[base:] {
			if h == next {
				return 0
			}
		}
	}
	s.hist = append(s.hist, next)
	v := s.negamax(next, depth, ply, alpha, beta, base)
	s.hist = s.hist[:len(s.hist)-1]
	return v
}

func (s *searcher) negamax(p pos, depth, ply, alpha, beta, base int) int {
	s.nodes++
	if s.limit > 0 && s.nodes > s.limit {
		s.aborted = true
		return 0
	}
	moves := generate(p, s.compulsory, s.bufs[ply][:0])
	s.bufs[ply] = moves
	if len(moves) == 0 {
		return -scoreWin + ply
	}
	forced := moves[0].m.Kind == KindJump && s.compulsory
	if ply >= maxPly || (depth <= 0 && !forced) {
		// Quiet or out of room: with optional captures, the side to move may
		// still stand pat on the static score or take a capture.
		stand := evaluate(p)
		if ply >= maxPly || s.compulsory || stand >= beta {
			return stand
		}
		alpha = max(alpha, stand)
		for _, mv := range moves {
			if mv.capt == 0 {
				continue
			}
			v := -s.visit(p, mv, 0, ply+1, -beta, -alpha, base)
			if s.aborted {
				return 0
			}
			if v >= beta {
				return v
			}
			alpha = max(alpha, v)
		}
		return alpha
	}
	for _, mv := range moves {
		// Forced captures do not use up depth, so exchanges are seen through.
		d := depth - 1
		if forced {
			d = depth
		}
		v := -s.visit(p, mv, d, ply+1, -beta, -alpha, base)
		if s.aborted {
			return 0
		}
		if v >= beta {
			return v
		}
		alpha = max(alpha, v)
	}
	return alpha
}
