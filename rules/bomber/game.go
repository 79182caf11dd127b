package bomber

import (
	"fmt"

	"github.com/bomber-game/bomber/rules"
)

// Phase is where a game stands.
type Phase uint8

// Game phases.
const (
	Drawing  Phase = iota // both players place their planes, in any order
	Guessing              // players guess in turn
	Over                  // somebody found all three enemy planes
)

// Result is what a single guess reveals.
type Result uint8

// Single-guess results, as the reference client names them.
const (
	Wrong Result = iota // no plane there
	Body                // a plane cell other than a head
	Head                // a plane's head
)

func (r Result) String() string {
	switch r {
	case Wrong:
		return "wrong"
	case Body:
		return "body"
	case Head:
		return "head"
	}
	return "unknown"
}

// WinCells is how many cells a player must reveal to win: all three planes.
const WinCells = 3 * PlaneCells

type seat struct {
	board    Board
	cells    Set // cells covered by this seat's planes
	heads    Set
	placed   bool
	revealed Set // this seat's cells the opponent has revealed
	guessed  Set // cells this seat has guessed singly
	guesses  int
}

// Game is one Bomber match between seat 0 and seat 1. Its methods never
// allocate, so the hub can relay guesses with no garbage.
type Game struct {
	seats  [2]seat
	phase  Phase
	turn   rules.Player
	winner rules.Player
	first  rules.Player
	// doubles tried per seat, and those that were right, as bitsets of
	// placement indexes (for Legal, the views and bots)
	tried, right [2][3]uint64
	resigned     bool // the loser resigned rather than lost its planes
}

// New starts a game in the drawing phase; first is the seat that guesses first.
func New(first rules.Player) *Game {
	if first != 0 && first != 1 {
		panic("bomber: first must be seat 0 or 1")
	}
	return &Game{first: first, turn: first, winner: rules.Spectator}
}

// Phase reports where the game stands.
func (g *Game) Phase() Phase { return g.phase }

// Turn is the seat to guess (meaningful while Guessing).
func (g *Game) Turn() rules.Player { return g.turn }

// Winner returns the winning seat once the game is over.
func (g *Game) Winner() (rules.Player, bool) { return g.winner, g.phase == Over }

// Guesses is the number of guesses seat p has made.
func (g *Game) Guesses(p rules.Player) int { return g.seats[p].guesses }

// Board returns seat p's board, once placed.
func (g *Game) Board(p rules.Player) (Board, bool) { return g.seats[p].board, g.seats[p].placed }

// Placed reports whether seat p has placed its board.
func (g *Game) Placed(p rules.Player) bool { return g.seats[p].placed }

// Revealed returns the cells of seat p's planes that the opponent has revealed.
func (g *Game) Revealed(p rules.Player) Set { return g.seats[p].revealed }

// RevealedHeads returns the revealed cells of seat p's planes that are heads.
func (g *Game) RevealedHeads(p rules.Player) Set { return g.seats[p].heads.Inter(g.seats[p].revealed) }

// Guessed returns the cells seat p has guessed singly.
func (g *Game) Guessed(p rules.Player) Set { return g.seats[p].guessed }

// Doubles reports seat p's double guesses as bitsets over Placements():
// bit i of tried is set when p guessed Placements()[i], and of right when
// that guess was one of the enemy planes.
func (g *Game) Doubles(p rules.Player) (tried, right [3]uint64) { return g.tried[p], g.right[p] }

// Resign is seat p giving the game up, in any phase: the other seat wins.
func (g *Game) Resign(p rules.Player) error {
	if err := seatOK(p); err != nil {
		return err
	}
	if g.phase == Over {
		return rules.ErrGameOver
	}
	g.phase, g.winner, g.resigned = Over, 1-p, true
	return nil
}

func seatOK(p rules.Player) error {
	if p != 0 && p != 1 {
		return fmt.Errorf("%w: seat %d", rules.ErrNotYourTurn, p)
	}
	return nil
}

// SetBoard places seat p's planes. Once both boards are in, guessing starts.
func (g *Game) SetBoard(p rules.Player, b Board) error {
	if err := seatOK(p); err != nil {
		return err
	}
	if g.phase == Over {
		return rules.ErrGameOver
	}
	if g.phase != Drawing || g.seats[p].placed {
		return fmt.Errorf("%w: board already placed", rules.ErrNotYourTurn)
	}
	cells, err := b.Cells()
	if err != nil {
		return fmt.Errorf("%w: %w", rules.ErrIllegal, err)
	}
	s := &g.seats[p]
	s.board, s.cells, s.placed = b, cells, true
	for _, pl := range b {
		s.heads = s.heads.Add(pl.Head)
	}
	if g.seats[1-p].placed {
		g.phase = Guessing
	}
	return nil
}

func (g *Game) canGuess(p rules.Player) error {
	if err := seatOK(p); err != nil {
		return err
	}
	switch {
	case g.phase == Over:
		return rules.ErrGameOver
	case g.phase != Guessing || g.turn != p:
		return rules.ErrNotYourTurn
	}
	return nil
}

// afterGuess counts the guess, decides a win and passes the turn.
func (g *Game) afterGuess(p rules.Player) {
	g.seats[p].guesses++
	if g.seats[1-p].revealed.Len() == WinCells {
		g.phase, g.winner = Over, p
		return
	}
	g.turn = 1 - p
}

// Single is seat p guessing cell c: it reveals that one cell.
func (g *Game) Single(p rules.Player, c Cell) (Result, error) {
	if err := g.canGuess(p); err != nil {
		return Wrong, err
	}
	if c >= Size*Size {
		return Wrong, fmt.Errorf("%w: cell %d is off the board", rules.ErrIllegal, c)
	}
	opp := &g.seats[1-p]
	g.seats[p].guessed = g.seats[p].guessed.Add(c)
	r := Wrong
	if opp.cells.Has(c) {
		opp.revealed = opp.revealed.Add(c)
		r = Body
		if opp.heads.Has(c) {
			r = Head
		}
	}
	g.afterGuess(p)
	return r, nil
}

// Double is seat p guessing a whole plane by its head and tail centre; when
// right, every cell of that plane is revealed.
func (g *Game) Double(p rules.Player, head, tail Cell) (bool, error) {
	if err := g.canGuess(p); err != nil {
		return false, err
	}
	if head >= Size*Size || tail >= Size*Size {
		return false, fmt.Errorf("%w: cell off the board", rules.ErrIllegal)
	}
	i := placementIndex(Plane{head, tail})
	if i >= 0 {
		g.tried[p][i/64] |= 1 << (i % 64)
	}
	opp := &g.seats[1-p]
	right := false
	for _, pl := range opp.board {
		if pl.Head == head && pl.Tail == tail {
			cells, _ := pl.Cells() // validated by SetBoard
			opp.revealed = opp.revealed.Union(cells)
			right = true
		}
	}
	if right && i >= 0 {
		g.right[p][i/64] |= 1 << (i % 64)
	}
	g.afterGuess(p)
	return right, nil
}

// Miss is a guess from seat p that could not be read (the reference client
// sends a malformed DoubleCoord after a wrong double guess): it counts as a
// guess that reveals nothing, and the turn passes.
func (g *Game) Miss(p rules.Player) error {
	if err := g.canGuess(p); err != nil {
		return err
	}
	g.afterGuess(p)
	return nil
}

// placementIndex finds a plane among the 168 placements, or -1.
func placementIndex(p Plane) int {
	for i, q := range placements {
		if q == p {
			return i
		}
	}
	return -1
}
