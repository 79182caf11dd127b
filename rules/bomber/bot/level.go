package bot

import (
	"fmt"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/bomber"
)

// Level is how well a Guesser plays. The zero value is Hard, the full
// strength, so NewGuesser keeps playing its best.
type Level uint8

// The levels, from the strongest.
const (
	// Hard is the expectimax search described in the package comment.
	Hard Level = iota
	// Medium knows the plane shapes: it keeps the consistent boards, guesses
	// the cell most likely to hold a plane and declares a plane once certain,
	// but looks one guess ahead only and never asks a plane as a question.
	Medium
	// Easy plays like a beginner: random cells until it hits, then mostly the
	// cells next to its hits; it never guesses a whole plane.
	Easy
)

var levelNames = [...]string{Hard: "hard", Medium: "medium", Easy: "easy"}

func (l Level) String() string {
	if int(l) < len(levelNames) {
		return levelNames[l]
	}
	return fmt.Sprintf("Level(%d)", l)
}

// ParseLevel reads easy, medium or hard.
func ParseLevel(s string) (Level, error) {
	for l, name := range levelNames {
		if s == name {
			return Level(l), nil
		}
	}
	return Hard, fmt.Errorf("unknown level %q (want easy, medium or hard)", s)
}

// NewLevelGuesser starts a guesser that plays at level l; rng breaks ties
// (and, at Easy, picks its cells).
func NewLevelGuesser(rng rules.Rand, l Level) *Guesser {
	g := NewGuesser(rng)
	g.level = l
	return g
}

// easy is a beginner's guess: a cell next to a hit two times out of three
// when there is one, else any cell not guessed yet.
func (g *Guesser) easy() Guess {
	var near []bomber.Cell
	for c := bomber.Cell(0); c < bomber.Size*bomber.Size; c++ {
		if g.guessed.Has(c) || !g.nextToHit(c) {
			continue
		}
		near = append(near, c)
	}
	if len(near) > 0 && g.rng.IntN(3) != 0 {
		return Guess{Cell: near[g.rng.IntN(len(near))]}
	}
	return g.sweep()
}

// nextToHit reports whether c touches (side by side) a revealed cell.
func (g *Guesser) nextToHit(c bomber.Cell) bool {
	x, y := c.X(), c.Y()
	for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
		nx, ny := x+d[0], y+d[1]
		if nx >= 0 && nx < bomber.Size && ny >= 0 && ny < bomber.Size && g.revealed.Has(bomber.Cell(nx*bomber.Size+ny)) {
			return true
		}
	}
	return false
}

// medium guesses the open cell that holds a plane in the most consistent
// boards (ties broken by rng); the caller has declared the certain planes.
func (g *Guesser) medium() Guess {
	var count [bomber.Size * bomber.Size]int32
	for _, bi := range g.live {
		for _, p := range geo.boards[bi].pl {
			for _, c := range geo.list[p] {
				count[c]++
			}
		}
	}
	best, ties := int32(-1), 0
	var pick bomber.Cell
	for c := bomber.Cell(0); c < bomber.Size*bomber.Size; c++ {
		if g.guessed.Has(c) || g.revealed.Has(c) {
			continue
		}
		switch n := count[c]; {
		case n > best:
			best, ties, pick = n, 1, c
		case n == best:
			ties++
			if g.rng.IntN(ties) == 0 {
				pick = c
			}
		}
	}
	if best < 0 {
		return g.sweep()
	}
	return Guess{Cell: pick}
}
