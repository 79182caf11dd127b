package aeroplane

// drawDie rolls for the player to move. The face is min(IntN(n), 5) + 1
// with n = 8 while the six bias applies (IntN values 5, 6 and 7 all give a
// six: 3/8 = 37.5%, each other face 1/8) and n = 6 otherwise. So a scripted
// Rand that answers face-1 yields that face whatever n is asked for.
func (g *Game) drawDie() int {
	n := 6
	if g.set.SixBias && !g.inPlay(g.turn) {
		n = 8
	}
	return min(max(g.rng.IntN(n), 0), 5) + 1
}
