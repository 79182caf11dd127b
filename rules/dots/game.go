package dots

import (
	"fmt"
	"slices"

	"github.com/bomber-game/bomber/rules"
)

// Game is one match of Dots and Boxes. It implements rules.Game.
type Game struct {
	b       *board
	players int
	drawn   lineSet
	left    int            // lines not yet drawn
	owner   [maxBoxes]int8 // scorer of each box, -1 while open
	scores  [4]int
	turn    rules.Player
	gone    [4]bool        // seats that resigned and left the game
	active  int            // seats still playing
	moves   []rules.Move   // every move so far, for the game record
	movers  []rules.Player // the seat that made each move
}

var _ rules.Game = (*Game)(nil)

// newGame starts a game on a grid of rows x cols dots; seat 0 moves first.
func newGame(rows, cols, players int) *Game {
	g := &Game{b: newBoard(rows, cols), players: players, active: players}
	g.left = g.b.nLines
	for i := range g.owner {
		g.owner[i] = -1
	}
	return g
}

// Name is the game's short name.
func (g *Game) Name() string { return Name }

// Players is the number of seats.
func (g *Game) Players() int { return g.players }

// Rows is the number of dot rows.
func (g *Game) Rows() int { return g.b.rows }

// Cols is the number of dot columns.
func (g *Game) Cols() int { return g.b.cols }

// Over reports whether the game has ended: every line is drawn, or only one
// seat is left after the others resigned.
func (g *Game) Over() bool { return g.left == 0 || g.active < 2 }

// Gone reports whether seat p resigned and left the game.
func (g *Game) Gone(p rules.Player) bool { return p >= 0 && int(p) < g.players && g.gone[p] }

// Turn is the seat to move; meaningless once the game is over.
func (g *Game) Turn() rules.Player { return g.turn }

// Drawn reports whether the line joining dots (r1, c1) and (r2, c2) is drawn;
// false for dots that are not neighbours.
func (g *Game) Drawn(r1, c1, r2, c2 int) bool {
	l := g.b.lineOf(r1, c1, r2, c2)
	return l >= 0 && g.drawn.has(l)
}

// Owner is the seat that scored the box whose top-left dot is (r, c), or
// rules.Spectator while it is open or off the board.
func (g *Game) Owner(r, c int) rules.Player {
	if r < 0 || c < 0 || r >= g.b.rows-1 || c >= g.b.cols-1 {
		return rules.Spectator
	}
	return rules.Player(g.owner[r*(g.b.cols-1)+c])
}

// Moves returns a copy of the moves played so far, in order.
func (g *Game) Moves() []rules.Move { return slices.Clone(g.moves) }

// ToMove appends the seat to move, none once the game is over.
func (g *Game) ToMove(buf []rules.Player) []rules.Player {
	if g.Over() {
		return buf
	}
	return append(buf, g.turn)
}

// Legal appends every undrawn line when p is to move. Resigning is always
// possible but never listed, so bots and random players do not give up.
func (g *Game) Legal(p rules.Player, buf []rules.Move) []rules.Move {
	if g.Over() || p != g.turn {
		return buf
	}
	for l := 0; l < g.b.nLines; l++ {
		if !g.drawn.has(l) {
			buf = append(buf, g.b.lineMove(l))
		}
	}
	return buf
}

// Play draws the line m for p: a StepLine, then a StepBox for each box it
// completes (the mover then moves again), otherwise the turn passes on.
// KindResign, from any seat still playing, makes the seat leave (StepResign).
func (g *Game) Play(p rules.Player, m rules.Move, steps []rules.Step) ([]rules.Step, error) {
	if g.Over() {
		return steps, fmt.Errorf("dots: %w", rules.ErrGameOver)
	}
	if m.Kind == rules.KindResign {
		return g.resign(p, m, steps)
	}
	if p != g.turn {
		return steps, fmt.Errorf("dots: %w: seat %d is to move, not %d", rules.ErrNotYourTurn, g.turn, p)
	}
	l := g.b.lineIndex(m)
	if l < 0 {
		return steps, fmt.Errorf("dots: %w: %s is not a line of this %dx%d grid", rules.ErrIllegal, g.b.formatMove(m), g.b.rows, g.b.cols)
	}
	if g.drawn.has(l) {
		return steps, fmt.Errorf("dots: %w: %s is already drawn", rules.ErrIllegal, g.b.formatMove(m))
	}
	g.drawn.add(l)
	g.left--
	g.moves = append(g.moves, m)
	g.movers = append(g.movers, p)
	r, c, _, _, vertical := g.b.dots(l)
	dir := int16(0)
	if vertical {
		dir = 1
	}
	steps = append(steps, rules.Step{Kind: StepLine, Player: p, A: int16(r), B: int16(c), C: dir})
	scored := false
	for _, box := range g.b.lineBoxes[l] {
		if box < 0 || !g.closed(box) {
			continue
		}
		g.owner[box] = int8(p)
		g.scores[p]++
		scored = true
		steps = append(steps, rules.Step{Kind: StepBox, Player: p, A: int16(box / (g.b.cols - 1)), B: int16(box % (g.b.cols - 1)), C: int16(g.scores[p])})
	}
	if !scored {
		g.passTurn()
	}
	return steps, nil
}

// passTurn gives the turn to the next seat still playing.
func (g *Game) passTurn() {
	for {
		g.turn = (g.turn + 1) % rules.Player(g.players)
		if !g.gone[g.turn] {
			return
		}
	}
}

// resign makes seat p leave: its boxes stay scored and counted in Scores,
// but it can no longer win; its turns are skipped. With one seat left, that
// seat wins.
func (g *Game) resign(p rules.Player, m rules.Move, steps []rules.Step) ([]rules.Step, error) {
	if p < 0 || int(p) >= g.players || g.gone[p] {
		return steps, fmt.Errorf("dots: %w: seat %d is not playing", rules.ErrNotYourTurn, p)
	}
	if m != Resign() {
		return steps, fmt.Errorf("dots: %w: resign takes no arguments", rules.ErrIllegal)
	}
	g.gone[p] = true
	g.active--
	g.moves = append(g.moves, m)
	g.movers = append(g.movers, p)
	steps = append(steps, rules.Step{Kind: StepResign, Player: p})
	if g.turn == p && g.active > 0 {
		g.passTurn()
	}
	return steps, nil
}

// closed reports whether all four sides of box are drawn.
func (g *Game) closed(box int) bool {
	for _, l := range g.b.boxLines[box] {
		if !g.drawn.has(l) {
			return false
		}
	}
	return true
}

// DrawByAgreement is false: Dots and Boxes has no draw offers.
func (g *Game) DrawByAgreement() bool { return false }

// Outcome: running until every line is drawn; then the highest score among
// the seats still playing wins, several seats tied for first all win, and a
// tie of every seat still playing is a draw. When all but one seat have
// resigned, that seat wins whatever the scores.
func (g *Game) Outcome() rules.Outcome {
	if !g.Over() {
		return rules.Outcome{Status: rules.Running}
	}
	if g.active == 1 {
		for p := range g.players {
			if !g.gone[p] {
				return rules.Outcome{Status: rules.Won, Winners: []rules.Player{rules.Player(p)}, Reason: "every other seat resigned"}
			}
		}
	}
	best := -1
	for p := range g.players {
		if !g.gone[p] {
			best = max(best, g.scores[p])
		}
	}
	var winners []rules.Player
	for p := range g.players {
		if !g.gone[p] && g.scores[p] == best {
			winners = append(winners, rules.Player(p))
		}
	}
	switch {
	case len(winners) == g.active:
		return rules.Outcome{Status: rules.Drawn, Reason: fmt.Sprintf("every line drawn; all seats tied on %d boxes", best)}
	case len(winners) > 1:
		return rules.Outcome{Status: rules.Won, Winners: winners, Reason: fmt.Sprintf("every line drawn; %d seats tied for first on %d boxes", len(winners), best)}
	}
	return rules.Outcome{Status: rules.Won, Winners: winners, Reason: fmt.Sprintf("every line drawn; most boxes (%d)", best)}
}

// Scores appends the boxes each seat has scored.
func (g *Game) Scores(buf []int) []int { return append(buf, g.scores[:g.players]...) }

// FormatMove writes m as its two dots, top-left first: "a1-b1", or
// "resign".
func (g *Game) FormatMove(m rules.Move) string { return g.b.formatMove(m) }

// ParseMove reads a line as two neighbouring dots, "a1-b1" or "b1-a1", or
// "resign".
func (g *Game) ParseMove(_ rules.Player, text string) (rules.Move, error) {
	return g.b.parseMove(text)
}

// Clone returns an independent copy; the board geometry is shared because
// it never changes.
func (g *Game) Clone() rules.Game { return g.clone() }

func (g *Game) clone() *Game {
	c := *g
	c.moves = slices.Clone(g.moves)
	c.movers = slices.Clone(g.movers)
	return &c
}

// Redact returns a clone: Dots and Boxes has no hidden information and no
// chance.
func (g *Game) Redact(rules.Player) rules.Game { return g.clone() }
