package checkers

// perft counts the move paths of the given depth from p under the standard
// (compulsory-capture) rules. Each ply reuses one buffer from bufs, so the
// count allocates nothing once bufs is grown.
func perft(p pos, depth int, bufs [][]move) uint64 {
	if depth == 0 {
		return 1
	}
	moves := generate(p, true, bufs[depth][:0])
	bufs[depth] = moves
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		n += perft(apply(p, m), depth-1, bufs)
	}
	return n
}

// Perft counts the board-move paths of the given depth from the current
// position under the standard rules, for checking move generation against
// published counts. Draw offers and game-ending draw rules are not counted.
func (g *Game) Perft(depth int) uint64 {
	if depth < 0 {
		return 0
	}
	return perft(g.pos, depth, make([][]move, depth+1))
}
