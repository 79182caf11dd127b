package bot

import (
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/bomber"
)

// board is one valid unordered board: its covered cells, its heads and the
// indexes of its three planes in placements (ascending).
type board struct {
	cells, heads bomber.Set
	pl           [3]uint8
}

// tables holds the precomputed geometry; it is built once and never changed.
type tables struct {
	places []bomber.Plane                   // the 168 placements, in bomber.Placements order
	cells  []bomber.Set                     // cells of each placement
	list   [][bomber.PlaneCells]bomber.Cell // the same cells, listed
	boards []board                          // the 66,816 valid unordered boards
}

var geo = buildTables()

func buildTables() *tables {
	t := &tables{places: bomber.Placements()}
	t.cells = make([]bomber.Set, len(t.places))
	t.list = make([][bomber.PlaneCells]bomber.Cell, len(t.places))
	for i, p := range t.places {
		s, err := p.Cells()
		if err != nil {
			panic("bot: placement off the board: " + err.Error())
		}
		t.cells[i] = s
		k := 0
		for c := bomber.Cell(0); c < bomber.Size*bomber.Size; c++ {
			if s.Has(c) {
				t.list[i][k] = c
				k++
			}
		}
	}
	n := len(t.places)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if !t.cells[i].Inter(t.cells[j]).Empty() {
				continue
			}
			ij := t.cells[i].Union(t.cells[j])
			for k := j + 1; k < n; k++ {
				if !ij.Inter(t.cells[k]).Empty() {
					continue
				}
				var heads bomber.Set
				heads = heads.Add(t.places[i].Head).Add(t.places[j].Head).Add(t.places[k].Head)
				t.boards = append(t.boards, board{
					cells: ij.Union(t.cells[k]),
					heads: heads,
					pl:    [3]uint8{uint8(i), uint8(j), uint8(k)},
				})
			}
		}
	}
	return t
}

// placementIndex finds p among the placements, or -1 when p does not fit.
func placementIndex(p bomber.Plane) int {
	for i, q := range geo.places {
		if q == p {
			return i
		}
	}
	return -1
}

// RandomBoard draws a uniformly random valid board (uniform over the 66,816
// unordered boards); the order of its planes is shuffled too.
func RandomBoard(rng rules.Rand) bomber.Board {
	b := geo.boards[rng.IntN(len(geo.boards))]
	var out bomber.Board
	for i, k := range b.pl {
		out[i] = geo.places[k]
	}
	for i := len(out) - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		out[i], out[j] = out[j], out[i]
	}
	return out
}
