package bot

import (
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/bomber"
)

// Guess is one guess: a single cell, or a whole plane when Double is set.
type Guess struct {
	Double bool
	Cell   bomber.Cell
	Plane  bomber.Plane
}

// Guesser decides guesses from observations only: it keeps the boards
// consistent with every result seen and never looks at the enemy board.
// It is deterministic for a given seed.
type Guesser struct {
	rng      rules.Rand
	live     []int32 // indexes into geo.boards consistent with all results
	guessed  bomber.Set
	tried    [3]uint64 // placements already guessed as doubles
	revealed bomber.Set
	// lost is set once the results contradict every valid board (a broken
	// opponent); the guesser then only sweeps cells it has not tried.
	lost  bool
	s     searcher
	level Level
}

// NewGuesser starts a guesser that knows nothing yet; rng breaks ties.
func NewGuesser(rng rules.Rand) *Guesser {
	g := &Guesser{rng: rng, live: make([]int32, len(geo.boards)), s: defaultSearcher}
	for i := range g.live {
		g.live[i] = int32(i)
	}
	return g
}

// Done reports whether all 30 enemy plane cells are known to be revealed.
func (g *Guesser) Done() bool { return g.revealed.Len() == bomber.WinCells }

// Candidates is the number of enemy boards still consistent with the results.
func (g *Guesser) Candidates() int { return len(g.live) }

func (g *Guesser) hasTried(i int) bool { return g.tried[i/64]&(1<<(i%64)) != 0 }

// Next returns the next guess. It never repeats a guess: a single goes to a
// cell not guessed before and a double to a plane not tried before.
func (g *Guesser) Next() Guess {
	if g.level == Easy {
		return g.easy()
	}
	if g.lost || len(g.live) == 0 {
		return g.sweep()
	}
	// A plane present in every consistent board costs one double whenever it
	// is declared and the double teaches nothing, so declare it now.
	var count [256]int32
	for _, bi := range g.live {
		for _, p := range geo.boards[bi].pl {
			count[p]++
		}
	}
	for p := range geo.places {
		if int(count[p]) == len(g.live) && !g.hasTried(p) && !geo.cells[p].Minus(g.revealed).Empty() {
			return Guess{Double: true, Plane: geo.places[p]}
		}
	}
	if len(g.live) == 1 {
		// Every plane is declared or already fully revealed; nothing is left.
		return g.sweep()
	}
	if g.level == Medium {
		return g.medium()
	}
	return g.s.choose(g.live, g.rng)
}

// sweep guesses an untried cell, then an untried plane; it serves only when
// the results contradict every valid board.
func (g *Guesser) sweep() Guess {
	var free []bomber.Cell
	for c := bomber.Cell(0); c < bomber.Size*bomber.Size; c++ {
		if !g.guessed.Has(c) {
			free = append(free, c)
		}
	}
	if len(free) > 0 {
		return Guess{Cell: free[g.rng.IntN(len(free))]}
	}
	for p := range geo.places {
		if !g.hasTried(p) {
			return Guess{Double: true, Plane: geo.places[p]}
		}
	}
	return Guess{Cell: 0}
}

// ObserveSingle records that a single guess on c gave r.
func (g *Guesser) ObserveSingle(c bomber.Cell, r bomber.Result) {
	if c >= bomber.Size*bomber.Size {
		return
	}
	g.guessed = g.guessed.Add(c)
	if r == bomber.Body || r == bomber.Head {
		g.revealed = g.revealed.Add(c)
	}
	g.filter(func(b *board) bool { return outcome(b, c) == r })
}

// ObserveDouble records whether a double guess on p was right.
func (g *Guesser) ObserveDouble(p bomber.Plane, right bool) {
	i := placementIndex(p)
	if i < 0 {
		return // a plane that cannot fit is never right and teaches nothing
	}
	g.tried[i/64] |= 1 << (i % 64)
	if right {
		g.revealed = g.revealed.Union(geo.cells[i])
	}
	g.filter(func(b *board) bool { return has(b, i) == right })
}

func (g *Guesser) filter(keep func(*board) bool) {
	out := g.live[:0]
	for _, bi := range g.live {
		if keep(&geo.boards[bi]) {
			out = append(out, bi)
		}
	}
	g.live = out
	if len(out) == 0 {
		g.lost = true
	}
}

func has(b *board, p int) bool {
	return int(b.pl[0]) == p || int(b.pl[1]) == p || int(b.pl[2]) == p
}

func outcome(b *board, c bomber.Cell) bomber.Result {
	switch {
	case b.heads.Has(c):
		return bomber.Head
	case b.cells.Has(c):
		return bomber.Body
	}
	return bomber.Wrong
}
