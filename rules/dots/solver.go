package dots

import (
	"fmt"
	"math/bits"
)

// Solver finds the exact value of two-player Dots and Boxes positions: the
// net margin in boxes (the mover's boxes minus the opponent's, over the
// boxes still open) that the player to move secures with perfect play.
// It runs alpha-beta over the Strings and Coins form with a transposition
// table keyed by the set of drawn lines (reduced by board symmetry), takes
// captures that are provably right without branching, considers only
// captures and double-dealing replies while a box is capturable, and tries
// safe moves before sacrifices, shortest sacrifice first.
type Solver struct {
	g      *graph
	tt     []ttEntry
	nodes  int64
	budget int64 // nodes allowed per call; 0 for no limit
	stop   bool
	// history counts the cutoffs each move caused, to try such moves
	// early elsewhere (the history heuristic).
	history [maxStrings]uint32
}

type ttEntry struct {
	key    uint64
	lo, hi int8
	depth  int8 // undrawn strings; deeper entries are kept
	move   int8 // best or refuting move found, -1 for none
	used   bool
}

// DefaultTableBits sizes the transposition table at 2^22 entries (64 MiB).
const DefaultTableBits = 22

// NewSolver prepares a solver for a board of rowsBoxes x colsBoxes boxes
// (any size down to 1x1, as long as it has at most 64 lines) with a
// transposition table of 2^tableBits entries.
func NewSolver(rowsBoxes, colsBoxes, tableBits int) (*Solver, error) {
	if rowsBoxes < 1 || colsBoxes < 1 {
		return nil, fmt.Errorf("dots: solver needs at least 1x1 boxes, not %dx%d", rowsBoxes, colsBoxes)
	}
	if n := 2*rowsBoxes*colsBoxes + rowsBoxes + colsBoxes; n > maxStrings {
		return nil, fmt.Errorf("dots: %dx%d boxes have %d lines; the solver holds at most %d", rowsBoxes, colsBoxes, n, maxStrings)
	}
	if tableBits < 4 || tableBits > 32 {
		return nil, fmt.Errorf("dots: table size 2^%d out of range [2^4, 2^32]", tableBits)
	}
	return newSolver(gridGraph(newBoard(rowsBoxes+1, colsBoxes+1)), tableBits), nil
}

func newSolver(g *graph, tableBits int) *Solver {
	return &Solver{g: g, tt: make([]ttEntry, 1<<tableBits)}
}

// Solve returns the first player's net margin with perfect play from the
// empty board.
func (s *Solver) Solve() int { return s.value(0) }

// Nodes is the number of positions searched so far.
func (s *Solver) Nodes() int64 { return s.nodes }

// Solve returns the first player's net margin in boxes with perfect play on
// an empty board of rowsBoxes x colsBoxes boxes.
func Solve(rowsBoxes, colsBoxes int) (int, error) {
	s, err := NewSolver(rowsBoxes, colsBoxes, DefaultTableBits)
	if err != nil {
		return 0, err
	}
	return s.Solve(), nil
}

const inf = maxStrings + 1

// value is the exact value of state drawn for the player to move, found by
// MTD(f): null-window searches that close in on the value, which prune far
// more than one wide search because scores are small integers.
func (s *Solver) value(drawn uint64) int {
	lo, hi := -inf, inf
	g := 0
	for lo < hi && !s.stop {
		gamma := g
		if g == lo {
			gamma = g + 1
		}
		g = s.search(drawn, gamma-1, gamma)
		if g < gamma {
			hi = g
		} else {
			lo = g
		}
	}
	return g
}

// search is fail-soft negamax: the result is exact inside (alpha, beta), an
// upper bound at or below alpha and a lower bound at or above beta.
func (s *Solver) search(drawn uint64, alpha, beta int) int {
	s.nodes++
	if s.budget > 0 && s.nodes > s.budget {
		s.stop = true
		return 0
	}
	drawn, gain := s.g.settle(drawn)
	if drawn == s.g.all {
		return gain
	}
	return gain + s.node(drawn, alpha-gain, beta-gain)
}

// moveValue is the value to the mover of cutting string m in state drawn,
// searched in the window (alpha, beta) as search does. deg holds the
// coins' degrees before the cut.
func (s *Solver) moveValue(drawn uint64, m int, deg *[maxStrings]int8, alpha, beta int) int {
	k := 0
	for _, c := range s.g.ends[m] {
		if c >= 0 && deg[c] == 1 {
			k++
		}
	}
	if k > 0 {
		return k + s.search(drawn|1<<m, alpha-k, beta-k)
	}
	return -s.search(drawn|1<<m, -beta, -alpha)
}

// node searches a settled position that still has undrawn strings.
func (s *Solver) node(drawn uint64, alpha, beta int) int {
	var deg [maxStrings]int8
	live := 0
	for c := range s.g.coinMask {
		d := bits.OnesCount64(s.g.coinMask[c] &^ drawn)
		deg[c] = int8(d)
		if d > 0 {
			live++
		}
	}
	if beta > live {
		if beta = live; alpha >= beta {
			return beta
		}
	}
	if alpha < -live {
		if alpha = -live; alpha >= beta {
			return alpha
		}
	}
	key, sym := s.g.canon(drawn)
	slot := s.probe(key)
	hint := -1
	if slot != nil {
		if hint = int(slot.move); hint >= 0 && sym >= 0 {
			hint = int(s.g.inv[sym][hint]) // hints are kept in the key's orientation
		}
		lo, hi := int(slot.lo), int(slot.hi)
		if lo >= beta {
			return lo
		}
		if hi <= alpha {
			return hi
		}
		alpha, beta = max(alpha, lo), min(beta, hi)
		if alpha >= beta {
			return alpha
		}
	}
	var moves [maxStrings]int8
	n := s.orderMoves(drawn, &deg, &moves)
	if hint >= 0 {
		// A hint that normalization moved may not be a move here.
		for i, m := range moves[:n] {
			if int(m) == hint {
				copy(moves[1:i+1], moves[:i])
				moves[0] = int8(hint)
				break
			}
		}
	}
	best, bestMove := -inf, -1
	a := alpha
	for _, m := range moves[:n] {
		v := s.moveValue(drawn, int(m), &deg, a, beta)
		if s.stop {
			return 0
		}
		if v > best {
			best, bestMove = v, int(m)
			if v > a {
				if a = v; a >= beta {
					s.history[m]++
					break
				}
			}
		}
	}
	lo, hi := -live, live
	switch {
	case best <= alpha:
		hi = best
	case best >= beta:
		lo = best
	default:
		lo, hi = best, best
	}
	if sym >= 0 {
		bestMove = int(s.g.perm[sym][bestMove])
	}
	s.store(key, lo, hi, bits.OnesCount64(s.g.all&^drawn), bestMove)
	return best
}

// orderMoves lists the moves worth searching, best-looking first. While a
// coin is capturable (and settle left it, so it hangs on a coin of degree
// two), a non-capturing move m is strictly worse than capturing first and
// then playing m, unless the capture would turn m into a capture itself:
// so only captures and the double-dealing move (cutting the far string of
// the coin the capturable one hangs on) remain. Otherwise safe moves (no
// coin left with one string) come first, then sacrifices, smallest first.
func (s *Solver) orderMoves(drawn uint64, deg *[maxStrings]int8, moves *[maxStrings]int8) int {
	n := 0
	dd := -2 // double-dealing candidate; -2 none yet, -1 none possible
	for c, d := range deg[:len(s.g.coinMask)] {
		if d != 1 {
			continue
		}
		m := bits.TrailingZeros64(s.g.coinMask[c] &^ drawn)
		moves[n] = int8(m)
		n++
		t := -1
		if x := s.g.other(m, int8(c)); x >= 0 && deg[x] == 2 {
			t = bits.TrailingZeros64(s.g.coinMask[x] &^ drawn &^ (1 << m))
		}
		if dd == -2 || dd == t {
			dd = t
		} else {
			dd = -1
		}
	}
	if n > 0 {
		if dd >= 0 {
			for _, m := range moves[:n] {
				if int(m) == dd {
					return n
				}
			}
			moves[n] = int8(dd)
			n++
		}
		return n
	}
	var cost [maxStrings]int8
	for free := s.g.all &^ drawn; free != 0; free &= free - 1 {
		m := bits.TrailingZeros64(free)
		if s.g.sameGround(drawn, m) {
			continue
		}
		c := 0
		for _, x := range s.g.ends[m] {
			if x >= 0 && deg[x] == 2 {
				c = 1 + s.g.giveaway(drawn, m)
				break
			}
		}
		// Insertion keeps equal keys in string order, so search is deterministic.
		i := n
		for i > 0 && (cost[i-1] > int8(c) || cost[i-1] == int8(c) && s.history[moves[i-1]] < s.history[m]) {
			moves[i], cost[i] = moves[i-1], cost[i-1]
			i--
		}
		moves[i], cost[i] = int8(m), int8(c)
		n++
	}
	return n
}

// probe finds key's entry, if any, in its two-entry bucket.
func (s *Solver) probe(key uint64) *ttEntry {
	i := s.index(key)
	for j := range 2 {
		if e := &s.tt[i+j]; e.used && e.key == key {
			return e
		}
	}
	return nil
}

func (s *Solver) index(key uint64) int {
	h := key * 0x9e3779b97f4a7c15
	return int(h>>(64-bits.Len(uint(len(s.tt)-1)))) &^ 1
}

// store merges the bounds [lo, hi] for key into the table. The first slot
// of a bucket keeps the deepest position seen, the second the latest.
func (s *Solver) store(key uint64, lo, hi, depth, move int) {
	if e := s.probe(key); e != nil {
		e.lo = int8(max(int(e.lo), lo))
		e.hi = int8(min(int(e.hi), hi))
		e.move = int8(move)
		return
	}
	i := s.index(key)
	e := ttEntry{key: key, lo: int8(lo), hi: int8(hi), depth: int8(depth), move: int8(move), used: true}
	if !s.tt[i].used || depth >= int(s.tt[i].depth) {
		s.tt[i+1] = s.tt[i]
		s.tt[i] = e
		return
	}
	s.tt[i+1] = e
}

// bestMoves lists every optimal move from state drawn, searching at most
// budget positions; false when the budget ran out. The table keeps what
// was learned either way.
func (s *Solver) bestMoves(drawn uint64, budget int64) ([]int, bool) {
	s.nodes, s.budget, s.stop = 0, budget, false
	defer func() { s.budget, s.stop = 0, false }()
	v := s.value(drawn)
	if s.stop {
		return nil, false
	}
	var deg [maxStrings]int8
	for c := range s.g.coinMask {
		deg[c] = int8(bits.OnesCount64(s.g.coinMask[c] &^ drawn))
	}
	var best []int
	for free := s.g.all &^ drawn; free != 0; free &= free - 1 {
		m := bits.TrailingZeros64(free)
		mv := s.moveValue(drawn, m, &deg, v-1, v)
		if s.stop {
			return nil, false
		}
		if mv >= v {
			best = append(best, m)
		}
	}
	if len(best) == 0 {
		panic("dots: no move reaches the position's value")
	}
	return best, true
}
