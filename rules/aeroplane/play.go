package aeroplane

import (
	"fmt"

	"github.com/bomber-game/bomber/rules"
)

// Play applies "roll", "move N" or "resign" for p and appends the steps it
// caused.
func (g *Game) Play(p rules.Player, m rules.Move, steps []rules.Step) ([]rules.Step, error) {
	if g.winner >= 0 {
		return steps, fmt.Errorf("%w: %s has won", rules.ErrGameOver, ColourName(g.winner))
	}
	if m.Kind == rules.KindResign {
		return g.resign(p, m, steps)
	}
	if p != g.turn {
		return steps, fmt.Errorf("%w: %s is to play", rules.ErrNotYourTurn, ColourName(g.turn))
	}
	if g.die == 0 {
		if m != Roll() {
			return steps, fmt.Errorf("%w: %s must roll first, not %q", rules.ErrIllegal, ColourName(p), formatMove(m))
		}
		return g.roll(steps), nil
	}
	if m.Kind != KindMove || m.Arg[0] >= Pieces || m != MovePiece(int(m.Arg[0])) {
		return steps, fmt.Errorf("%w: %s must move a piece with the %d, not %q", rules.ErrIllegal, ColourName(p), g.die, formatMove(m))
	}
	i := int(m.Arg[0])
	if !g.canMove(p, i, int(g.die)) {
		return steps, fmt.Errorf("%w: %s piece %d cannot use a %d", rules.ErrIllegal, ColourName(p), i, g.die)
	}
	return g.move(p, i, steps), nil
}

// roll draws the die for the player to move. A third six in a row, or a
// face no piece can use, ends the turn at once, so the player to move
// always has a legal move.
func (g *Game) roll(steps []rules.Step) []rules.Step {
	p := g.turn
	face := g.drawDie()
	g.record = append(g.record, Entry{Player: p, Roll: true, Value: face})
	run := 0
	if face == 6 {
		g.sixes++
		run = int(g.sixes)
	}
	steps = append(steps, rules.Step{Kind: StepRoll, Player: p, A: int16(face), B: int16(run)})
	switch {
	case g.sixes == 3:
		steps = append(steps, rules.Step{Kind: StepThreeSixes, Player: p, A: int16(face)})
		moved := g.sixMoved[0] | g.sixMoved[1]
		for i := range Pieces {
			// Pieces already home stay home: the centre is not on the way back.
			if at := g.pos[p][i]; moved&(1<<i) != 0 && at != Camp && at != Centre {
				steps = append(steps, rules.Step{Kind: StepReturn, Player: p, A: int16(i), B: int16(at)})
				g.pos[p][i] = Camp
			}
		}
		return g.passTurn(steps)
	case !g.anyMove(p, face):
		steps = append(steps, rules.Step{Kind: StepNoMove, Player: p, A: int16(face)})
		return g.passTurn(steps)
	}
	g.die = int8(face)
	return steps
}

// resign makes p leave: its pieces leave the board (they can no longer be
// captured or capture), its turns are skipped, and when one seat is left it
// wins. In a two-player game that is the other seat at once.
func (g *Game) resign(p rules.Player, m rules.Move, steps []rules.Step) ([]rules.Step, error) {
	if p < 0 || int(p) >= g.players || g.Gone(p) {
		return steps, fmt.Errorf("%w: seat %d is not playing", rules.ErrNotYourTurn, p)
	}
	if m != Resign() {
		return steps, fmt.Errorf("%w: resign takes no arguments", rules.ErrIllegal)
	}
	g.gone |= 1 << p
	g.record = append(g.record, Entry{Player: p, Resign: true})
	for i := range g.pos[p] {
		g.pos[p][i] = Camp
	}
	steps = append(steps, rules.Step{Kind: StepResign, Player: p})
	left, last := 0, rules.Player(-1)
	for q := range rules.Player(g.players) {
		if !g.Gone(q) {
			left, last = left+1, q
		}
	}
	if left == 1 {
		g.winner, g.resigned, g.turn = last, true, last
		g.die, g.sixes, g.sixMoved = 0, 0, [2]uint8{}
		return append(steps, rules.Step{Kind: StepWin, Player: last}), nil
	}
	if p == g.turn {
		steps = g.passTurn(steps)
	}
	return steps, nil
}

// passTurn hands the die to the next seat still playing.
func (g *Game) passTurn(steps []rules.Step) []rules.Step {
	g.turn = (g.turn + 1) % rules.Player(g.players)
	for g.Gone(g.turn) {
		g.turn = (g.turn + 1) % rules.Player(g.players)
	}
	g.die, g.sixes, g.sixMoved = 0, 0, [2]uint8{}
	return append(steps, rules.Step{Kind: StepTurn, Player: g.turn})
}

// group is the set of p's pieces that move together with piece i: the
// whole stack when stacking is on, else piece i alone.
func (g *Game) group(p rules.Player, i int) uint8 {
	at := g.pos[p][i]
	if !g.set.Stack || at < 1 || at >= Centre {
		return 1 << i
	}
	var mask uint8
	for j, a := range g.pos[p] {
		if a == at {
			mask |= 1 << j
		}
	}
	return mask
}

// move carries piece i of p (and its stack) with the die, reporting each
// stage: die count, bounce, jump, flight, captures, finish.
func (g *Game) move(p rules.Player, i int, steps []rules.Step) []rules.Step {
	face := int(g.die)
	g.record = append(g.record, Entry{Player: p, Value: i})
	mask := g.group(p, i)
	t := plan(int(g.pos[p][i]), face, g.set)
	each := func(kind uint8, b, c int) {
		for j := range Pieces {
			if mask&(1<<j) != 0 {
				steps = append(steps, rules.Step{Kind: kind, Player: p, A: int16(j), B: int16(b), C: int16(c)})
			}
		}
	}
	if t.from == Camp {
		each(StepLaunch, Camp, Start)
	} else {
		each(StepMove, t.from, t.land)
	}
	at := t.land
	if t.bounce != 0 {
		each(StepBounce, at, t.bounce)
		at = t.bounce
	}
	if t.jump != 0 {
		each(StepJump, at, t.jump)
		at = t.jump
	}
	if t.flight != 0 {
		each(StepFlight, at, t.flight)
		if g.set.FlightCapture {
			steps = g.captureBridge(p, steps)
		}
	}
	for j := range Pieces {
		if mask&(1<<j) != 0 {
			g.pos[p][j] = int8(t.final)
		}
	}
	// Seed 000 resolves captures where the piece comes to rest, after any
	// jump and flight, not on the spaces it only touched on the way.
	steps = g.captureTrack(p, t.final, steps)
	if t.final == Centre {
		each(StepFinish, Centre, Centre)
	}
	if face == 6 && g.sixes >= 1 && g.sixes <= 2 {
		g.sixMoved[g.sixes-1] = mask
	}
	if g.home(p) {
		g.winner = p
		g.die = 0
		return append(steps, rules.Step{Kind: StepWin, Player: p})
	}
	if face == 6 {
		g.die = 0
		return append(steps, rules.Step{Kind: StepTurn, Player: p, A: 1})
	}
	return g.passTurn(steps)
}

// captureTrack sends every opponent piece on the track space where p's
// piece stopped (progress at, in p's terms) back to camp.
func (g *Game) captureTrack(p rules.Player, at int, steps []rules.Step) []rules.Step {
	ti := TrackIndex(p, at)
	if ti < 0 {
		return steps
	}
	for q := range rules.Player(g.players) {
		if q == p {
			continue
		}
		for j, a := range g.pos[q] {
			if TrackIndex(q, int(a)) == ti {
				steps = append(steps, rules.Step{Kind: StepCapture, Player: q, A: int16(j), B: int16(a), C: int16(p)})
				g.pos[q][j] = Camp
			}
		}
	}
	return steps
}

// captureBridge sends the opposite colour's pieces on the bridge space
// p's flight passes over back to camp (option flight-capture).
func (g *Game) captureBridge(p rules.Player, steps []rules.Step) []rules.Step {
	q := Opposite(p)
	if int(q) >= g.players {
		return steps
	}
	for j, a := range g.pos[q] {
		if a == CrossedBridge {
			steps = append(steps, rules.Step{Kind: StepCapture, Player: q, A: int16(j), B: int16(a), C: int16(p)})
			g.pos[q][j] = Camp
		}
	}
	return steps
}

// home reports whether all of p's pieces have reached the centre.
func (g *Game) home(p rules.Player) bool {
	for _, a := range g.pos[p] {
		if a != Centre {
			return false
		}
	}
	return true
}
