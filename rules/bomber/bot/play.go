package bot

import (
	"github.com/bomber-game/bomber/rules/bomber"
)

// MaxGuesses bounds a solo game; a guesser that has not won by then never will.
const MaxGuesses = 300

// Play runs a solo game of g against hidden on the server-side rules and
// returns the number of guesses g needed to reveal all 30 cells. The guesser
// sees only the result of each guess; the opponent seat only passes.
func Play(g *Guesser, hidden bomber.Board) int {
	game := bomber.New(0)
	if err := game.SetBoard(0, hidden); err != nil {
		panic("bot: Play needs a valid board: " + err.Error())
	}
	if err := game.SetBoard(1, hidden); err != nil {
		panic("bot: Play needs a valid board: " + err.Error())
	}
	for game.Guesses(0) < MaxGuesses {
		q := g.Next()
		if q.Double {
			right, err := game.Double(0, q.Plane.Head, q.Plane.Tail)
			if err != nil {
				panic("bot: double refused: " + err.Error())
			}
			g.ObserveDouble(q.Plane, right)
		} else {
			r, err := game.Single(0, q.Cell)
			if err != nil {
				panic("bot: single refused: " + err.Error())
			}
			g.ObserveSingle(q.Cell, r)
		}
		if _, over := game.Winner(); over {
			break
		}
		if err := game.Miss(1); err != nil {
			panic("bot: pass refused: " + err.Error())
		}
	}
	return game.Guesses(0)
}
