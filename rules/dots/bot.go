package dots

import (
	"fmt"

	"github.com/bomber-game/bomber/rules"
)

// Bot plays Dots and Boxes. In two-player games it plays perfectly once
// the position can be solved within its search budget (from the first move
// on small boards); before that, and in games of three or four players
// (where the solver's two-player values do not apply), it follows the
// chain-aware strategy (the solver serves again once all but two seats
// have resigned, since the two left then alternate). It keeps its transposition tables between moves
// and games, so it is not safe for concurrent use, and it is deterministic
// for a given Rand and sequence of calls.
type Bot struct {
	rng    rules.Rand
	budget int64
	grid   map[[2]int]*Solver // whole-board solvers, by dot rows and columns
	loose  *Solver            // scratch solver for endgames of large boards
}

var _ rules.Bot = (*Bot)(nil)

// DefaultBotBudget is the number of positions the bot may search per move.
const DefaultBotBudget = 200_000

// Sizes of the bot's transposition tables: 16 MiB for each whole board it
// has played on, 4 MiB for endgames of boards too large for that (cleared
// every move, since its strings are renumbered).
const (
	botTableBits   = 20
	looseTableBits = 18
)

// NewBot returns a bot drawing its tie-breaks from rng with the default
// search budget.
func NewBot(rng rules.Rand) *Bot { return NewBotBudget(rng, DefaultBotBudget) }

// NewBotBudget returns a bot that searches at most budget positions per
// move; a budget of 0 never solves and plays the strategy alone.
func NewBotBudget(rng rules.Rand, budget int64) *Bot {
	return &Bot{rng: rng, budget: budget, grid: map[[2]int]*Solver{}}
}

// Choose picks the seat's move; its game must be a *Game with the seat to
// move.
func (bt *Bot) Choose(s rules.Seat) (rules.Move, error) {
	g, p := s.Game(), s.Player()
	gm, ok := g.(*Game)
	if !ok {
		return rules.Move{}, fmt.Errorf("dots: bot given a %T, not a dots game", g)
	}
	if gm.Over() {
		return rules.Move{}, fmt.Errorf("dots: %w", rules.ErrGameOver)
	}
	if p != gm.turn {
		return rules.Move{}, fmt.Errorf("dots: %w: seat %d is to move, not %d", rules.ErrNotYourTurn, gm.turn, p)
	}
	plan := strategyMove(gm, bt.rng)
	if gm.active == 2 && bt.budget > 0 && worthSolving(gm) {
		if l, ok := bt.solve(gm, plan); ok {
			return gm.b.lineMove(l), nil
		}
	}
	return gm.b.lineMove(plan), nil
}

// worthSolving guesses whether an exact search is likely to fit the budget,
// so the bot does not spend its budget in vain every move of the opening:
// the search grows with the number of undrawn lines and, above all, with
// the number of lines that can still be drawn without giving a box away.
func worthSolving(gm *Game) bool {
	if gm.left <= solveLeft {
		return true
	}
	p := position{b: gm.b, drawn: gm.drawn}
	safe := 0
	for l := range gm.b.nLines {
		if !gm.drawn.has(l) && p.safe(l) {
			safe++
		}
	}
	return safe <= solveSafe && gm.left <= solveSafeLeft
}

// Thresholds of worthSolving, from measured search sizes: positions with
// at most 20 undrawn lines, or at most 6 safe lines among at most 30,
// mostly solve in well under 200,000 nodes.
const (
	solveLeft     = 20
	solveSafe     = 6
	solveSafeLeft = 30
)

// solve returns an optimal line, preferring the strategy's plan among
// equals, or false when the position does not fit the budget.
func (bt *Bot) solve(gm *Game, plan int) (int, bool) {
	var s *Solver
	var drawn uint64
	lineOf := func(str int) int { return str }
	if gm.b.nLines <= maxStrings {
		key := [2]int{gm.b.rows, gm.b.cols}
		if s = bt.grid[key]; s == nil {
			s = newSolver(gridGraph(gm.b), botTableBits)
			bt.grid[key] = s
		}
		drawn = gm.drawn[0]
	} else {
		pg, lines, ok := positionGraph(gm)
		if !ok {
			return 0, false
		}
		if bt.loose == nil {
			bt.loose = newSolver(pg, looseTableBits)
		} else {
			bt.loose.g = pg
			clear(bt.loose.tt)
		}
		s = bt.loose
		lineOf = func(str int) int { return lines[str] }
	}
	best, ok := s.bestMoves(drawn, bt.budget)
	if !ok {
		return 0, false
	}
	for _, m := range best {
		if lineOf(m) == plan {
			return plan, true
		}
	}
	return lineOf(best[bt.rng.IntN(len(best))]), true
}
