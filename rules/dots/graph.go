package dots

import "math/bits"

// graph is a Dots and Boxes position seen as Strings and Coins: every open
// box is a coin, every undrawn line a string tied to the coins on either
// side or to the ground at the edge. The solver works on this form because
// a position's value depends only on which strings are cut, and because
// any board position with at most 64 undrawn lines fits it.
type graph struct {
	nStrings int
	all      uint64      // every string
	coinMask []uint64    // the strings tied to each coin
	ends     [][2]int8   // the coins at each string's two ends, -1 for ground
	syms     []*symmetry // board symmetries as string permutations; may be empty
	perm     [][]int8    // perm[i][s] is the image of string s under syms[i]
	inv      [][]int8    // inv[i] undoes perm[i]
	// grounds lists, for each coin with two or more strings to the ground,
	// those strings: which of them are cut does not matter, only how many.
	grounds []uint64
}

// symmetry maps a set of strings to its image, byte by byte.
type symmetry [8][256]uint64

// maxStrings is the most strings the solver's 64-bit state can hold.
const maxStrings = 64

// gridGraph is the graph of the whole board b (at most 64 lines); strings
// are numbered as b numbers its lines, so a game's drawn lines are a
// state of it. Its symmetries are the board's mirror images (and, on a
// square board, its rotations).
func gridGraph(b *board) *graph {
	g := &graph{nStrings: b.nLines, coinMask: make([]uint64, b.nBoxes), ends: make([][2]int8, b.nLines)}
	g.all = allStrings(b.nLines)
	for box, sides := range b.boxLines {
		for _, l := range sides {
			g.coinMask[box] |= 1 << l
		}
	}
	for l, boxes := range b.lineBoxes {
		g.ends[l] = [2]int8{int8(boxes[0]), int8(boxes[1])}
	}
	g.findGrounds()
	for t := range 8 {
		if t&4 != 0 && b.rows != b.cols {
			continue
		}
		sym, perm := symmetryOf(b, t)
		inv := make([]int8, len(perm))
		for s, img := range perm {
			inv[img] = int8(s)
		}
		g.syms, g.perm, g.inv = append(g.syms, sym), append(g.perm, perm), append(g.inv, inv)
	}
	return g
}

func allStrings(n int) uint64 {
	if n == 64 {
		return ^uint64(0)
	}
	return 1<<n - 1
}

// symmetryOf builds transform t of the board: bit 0 mirrors the rows, bit 1
// the columns, bit 2 swaps rows and columns (square boards only).
func symmetryOf(b *board, t int) (*symmetry, []int8) {
	move := func(r, c int) (int, int) {
		if t&1 != 0 {
			r = b.rows - 1 - r
		}
		if t&2 != 0 {
			c = b.cols - 1 - c
		}
		if t&4 != 0 {
			r, c = c, r
		}
		return r, c
	}
	var s symmetry
	perm := make([]int8, b.nLines)
	for l := 0; l < b.nLines; l++ {
		r1, c1, r2, c2, _ := b.dots(l)
		r1, c1 = move(r1, c1)
		r2, c2 = move(r2, c2)
		img := b.lineOf(r1, c1, r2, c2)
		if img < 0 {
			panic("dots: a board symmetry maps a line off the board")
		}
		perm[l] = int8(img)
		for v := range 256 {
			if v&(1<<(l&7)) != 0 {
				s[l>>3][v] |= 1 << img
			}
		}
	}
	return &s, perm
}

// canon is the key of a set of cut strings: the smallest normalized image
// under the symmetries, and the symmetry giving it (-1 when there are
// none). Symmetries map a coin's ground strings to another coin's, so
// equivalent positions share a key.
func (g *graph) canon(drawn uint64) (uint64, int) {
	if len(g.syms) == 0 {
		return g.normalize(drawn), -1
	}
	best, which := ^uint64(0), 0
	for k, s := range g.syms {
		var img uint64
		for i, d := 0, drawn; d != 0; i, d = i+1, d>>8 {
			img |= s[i][d&0xff]
		}
		if img = g.normalize(img); img < best {
			best, which = img, k
		}
	}
	return best, which
}

// positionGraph is the graph of the undrawn lines of a game, when there are
// at most 64 of them; lineOf maps its strings back to the game's lines.
func positionGraph(gm *Game) (g *graph, lineOf []int, ok bool) {
	b := gm.b
	if gm.left > maxStrings {
		return nil, nil, false
	}
	coin := make([]int8, b.nBoxes)
	n := 0
	for box := range coin {
		coin[box] = -1
		if gm.owner[box] < 0 {
			coin[box] = int8(n)
			n++
		}
	}
	g = &graph{coinMask: make([]uint64, n)}
	for l := 0; l < b.nLines; l++ {
		if gm.drawn.has(l) {
			continue
		}
		s := len(lineOf)
		lineOf = append(lineOf, l)
		var ends [2]int8
		for i, box := range b.lineBoxes[l] {
			ends[i] = -1
			if box >= 0 {
				ends[i] = coin[box]
				g.coinMask[coin[box]] |= 1 << s
			}
		}
		g.ends = append(g.ends, ends)
	}
	g.nStrings = len(lineOf)
	g.all = allStrings(g.nStrings)
	g.findGrounds()
	return g, lineOf, true
}

// findGrounds fills g.grounds from the strings' ends.
func (g *graph) findGrounds() {
	for c := range g.coinMask {
		var m uint64
		for s, e := range g.ends {
			if (e[0] == int8(c) && e[1] < 0) || (e[1] == int8(c) && e[0] < 0) {
				m |= 1 << s
			}
		}
		if bits.OnesCount64(m) >= 2 {
			g.grounds = append(g.grounds, m)
		}
	}
}

// normalize redraws each coin's cut ground strings as its lowest-numbered
// ones: the positions are the same game, since ground strings of one coin
// are interchangeable.
func (g *graph) normalize(drawn uint64) uint64 {
	for _, m := range g.grounds {
		n := bits.OnesCount64(drawn & m)
		drawn &^= m
		for r := m; n > 0; n, r = n-1, r&(r-1) {
			drawn |= r & -r
		}
	}
	return drawn
}

// sameGround reports whether string m is a ground string of a coin that has
// a lower-numbered uncut ground string: cutting either is the same move.
func (g *graph) sameGround(drawn uint64, m int) bool {
	for _, gm := range g.grounds {
		if gm&(1<<m) != 0 {
			free := gm &^ drawn
			return free&(1<<m-1) != 0
		}
	}
	return false
}

// degree is the number of uncut strings of coin c.
func (g *graph) degree(drawn uint64, c int8) int {
	return bits.OnesCount64(g.coinMask[c] &^ drawn)
}

// other is the coin at the far end of string s from coin c.
func (g *graph) other(s int, c int8) int8 {
	if g.ends[s][0] == c {
		return g.ends[s][1]
	}
	return g.ends[s][0]
}

// settle takes every capturable coin whose capture is known to be optimal
// and returns the new state and the coins won. A coin with one string left
// is taken at once when that string leads to the ground, to another coin
// with one string (both are won), or to a coin with three or more strings.
// Only a coin hanging on a coin of degree two (a chain being opened) may
// be worth leaving, to decline the last two boxes of a chain. Why taking
// is safe: if the player moved elsewhere with a non-capturing move m, the
// opponent could take the coin and play on, so "take, then m" is strictly
// better than m; and among captures, taking this coin first loses nothing,
// since no other capture changes what this one wins or makes it a
// double-dealing decision (the far coin keeps at least two strings).
func (g *graph) settle(drawn uint64) (uint64, int) {
	gain := 0
	for {
		progressed := false
		for c := range g.coinMask {
			live := g.coinMask[c] &^ drawn
			if live == 0 || live&(live-1) != 0 {
				continue
			}
			s := bits.TrailingZeros64(live)
			if x := g.other(s, int8(c)); x >= 0 {
				switch g.degree(drawn, x) {
				case 2:
					continue
				case 1:
					gain++
				}
			}
			drawn |= 1 << s
			gain++
			progressed = true
		}
		if !progressed {
			return drawn, gain
		}
	}
}

// giveaway counts the coins an opponent can take in a row after string m
// is cut: the length of the chain m opens.
func (g *graph) giveaway(drawn uint64, m int) int {
	d := drawn | 1<<m
	n := 0
	for _, c := range g.ends[m] {
		for c >= 0 {
			live := g.coinMask[c] &^ d
			if live == 0 || live&(live-1) != 0 {
				break
			}
			n++
			s := bits.TrailingZeros64(live)
			d |= 1 << s
			c = g.other(s, c)
			if c >= 0 && g.coinMask[c]&^d == 0 {
				n++
				break
			}
		}
	}
	return n
}
