package paisho

import "github.com/bomber-game/bomber/rules"

// A cell holds 0 for an empty point, else tile | owner<<3.
type cell = uint8

const ownerShift = 3

func mkCell(t Tile, owner rules.Player) cell { return cell(t) | cell(owner)<<ownerShift }
func tileOf(c cell) Tile                     { return Tile(c & 7) }
func ownerOf(c cell) rules.Player            { return rules.Player(c >> ownerShift) }

const (
	host  rules.Player = 0
	guest rules.Player = 1
	noOne int8         = -1
)

// position is the whole game state a move can change; it is a plain value,
// so copying it is the bot's cheap clone.
type position struct {
	board    [cells]cell
	lib      [2][tileKinds]uint8 // tiles not yet deployed
	captured [2]uint8            // tiles each player has captured
	turn     rules.Player
	plies    int32 // board moves (deploys and tile moves) made so far
	offer    int8  // seat with a pending draw offer, or noOne
}

func newPosition() position {
	ps := position{offer: noOne}
	ps.lib[host] = startLibrary
	ps.lib[guest] = startLibrary
	return ps
}

// lotusOut reports whether p's White Lotus has been deployed; it cannot
// leave the board again without ending the game.
func (ps *position) lotusOut(p rules.Player) bool { return ps.lib[p][Lotus] == 0 }

// nextToEnemy reports whether an orthogonal neighbour of i holds tile t of
// the player other than owner.
func (ps *position) nextToEnemy(i int, owner rules.Player, t Tile) bool {
	for _, n := range geo.orth[i] {
		if n >= 0 {
			c := ps.board[n]
			if c != 0 && tileOf(c) == t && ownerOf(c) != owner {
				return true
			}
		}
	}
	return false
}

// protected reports whether the tile on i is a flower with one of its
// owner's Badgermoles orthogonally next to it.
func (ps *position) protected(i int) bool {
	c := ps.board[i]
	if c == 0 || !tileOf(c).IsFlower() {
		return false
	}
	o := ownerOf(c)
	for _, n := range geo.orth[i] {
		if n >= 0 {
			d := ps.board[n]
			if d != 0 && tileOf(d) == Badgermole && ownerOf(d) == o {
				return true
			}
		}
	}
	return false
}

// frozen reports whether the Sky Bison on i sits next to an enemy
// Chrysanthemum and so may not move.
func (ps *position) frozen(i int) bool {
	c := ps.board[i]
	return c != 0 && tileOf(c) == SkyBison && ps.nextToEnemy(i, ownerOf(c), Chrysanthemum)
}

// activeBison reports whether the Sky Bison on i projects its territorial
// zone: it has left the temples and is not frozen.
func (ps *position) activeBison(i int) bool {
	return !geo.temple[i] && !ps.frozen(i)
}

// canCapture reports whether player p's tile t may capture the tile on i.
func (ps *position) canCapture(p rules.Player, t Tile, i int) bool {
	c := ps.board[i]
	if c == 0 || ownerOf(c) == p || !t.Captures() || ps.protected(i) {
		return false
	}
	if tileOf(c).IsFlower() {
		return ps.lotusOut(p)
	}
	return ps.lotusOut(p) && ps.lotusOut(1-p)
}

// fireLily returns the cell of p's Fire Lily, or -1.
func (ps *position) fireLily(p rules.Player) int {
	want := mkCell(FireLily, p)
	for _, i := range geo.points {
		if ps.board[i] == want {
			return int(i)
		}
	}
	return -1
}

// openForDeploy reports whether a tile other than a Sky Bison may be
// deployed on i.
func openForDeploy(ps *position, i int) bool { return ps.board[i] == 0 && !geo.temple[i] }

// deployTargets appends the cells where p may deploy tile t now.
func (ps *position) deployTargets(p rules.Player, t Tile, buf []int16) []int16 {
	if ps.lib[p][t] == 0 {
		return buf
	}
	switch t {
	case SkyBison:
		for _, tp := range Temples() {
			if i := tp.index(); ps.board[i] == 0 {
				buf = append(buf, int16(i))
			}
		}
	case WhiteDragon:
		if f := ps.fireLily(p); f >= 0 {
			buf = appendWithin(ps, f, 5, buf, func(i int) bool { return openForDeploy(ps, i) })
		}
	default:
		for _, i := range geo.points {
			if openForDeploy(ps, int(i)) {
				buf = append(buf, i)
			}
		}
	}
	return buf
}

// appendWithin appends the playable cells within r steps of centre that ok
// accepts, in ascending order.
func appendWithin(ps *position, centre, r int, buf []int16, ok func(int) bool) []int16 {
	cx, cy := centre/span, centre%span
	for x := max(cx-r, 0); x <= min(cx+r, span-1); x++ {
		ry := r - abs(x-cx)
		for y := max(cy-ry, 0); y <= min(cy+ry, span-1); y++ {
			i := x*span + y
			if geo.on[i] && ok(i) {
				buf = append(buf, int16(i))
			}
		}
	}
	return buf
}

// destinations appends the cells the tile on from may move to (captures
// included). The tile's owner need not be the player to move.
func (ps *position) destinations(from int, buf []int16) []int16 {
	c := ps.board[from]
	if c == 0 {
		return buf
	}
	p, t := ownerOf(c), tileOf(c)
	// An empty temple is never a destination; an occupied one only by capture.
	free := func(i int) bool { return ps.board[i] == 0 && !geo.temple[i] }
	switch t {
	case Lotus:
		for _, n := range geo.orth[from] {
			if n >= 0 && free(int(n)) {
				buf = append(buf, n)
			}
		}
	case Badgermole:
		for k, n := range geo.orth[from] {
			if n < 0 {
				continue
			}
			if free(int(n)) {
				buf = append(buf, n)
			}
			// Leap along the line to the point just before the first tile,
			// when that tile is a flower; a one-step leap is the step above.
			last, cur := from, int(n)
			for ps.board[cur] == 0 {
				last = cur
				nx := geo.orth[cur][k]
				if nx < 0 {
					cur = -1
					break
				}
				cur = int(nx)
			}
			if cur >= 0 && tileOf(ps.board[cur]).IsFlower() && last != from && last != int(n) && free(last) {
				buf = append(buf, int16(last))
			}
		}
	case Wheel:
		for k := range 4 {
			for n := geo.diag[from][k]; n >= 0; n = geo.diag[n][k] {
				if ps.board[n] != 0 {
					if ps.canCapture(p, t, int(n)) {
						buf = append(buf, n)
					}
					break
				}
				if !geo.temple[n] {
					buf = append(buf, n)
				}
			}
		}
	case SkyBison:
		buf = ps.bisonDestinations(from, p, buf)
	case WhiteDragon:
		if f := ps.fireLily(p); f >= 0 {
			buf = appendWithin(ps, f, 5, buf, func(i int) bool {
				return i != from && (free(i) || ps.canCapture(p, t, i))
			})
		}
	}
	return buf
}

// bisonRange is how many single steps a Sky Bison may fly, and the radius
// of its territorial zone.
const bisonRange = 6

// bisonDestinations searches the Sky Bison's flight: up to six single steps
// through empty points, turning freely, never continuing from a point next
// to an enemy Chrysanthemum (so a frozen bison stays put), and never ending
// within six steps of an active enemy Sky Bison.
func (ps *position) bisonDestinations(from int, p rules.Player, buf []int16) []int16 {
	if ps.nextToEnemy(from, p, Chrysanthemum) {
		return buf
	}
	var zones [2]int
	nz := 0
	for _, i := range geo.points {
		c := ps.board[i]
		if c != 0 && tileOf(c) == SkyBison && ownerOf(c) != p && ps.activeBison(int(i)) {
			zones[nz] = int(i)
			nz++
		}
	}
	inZone := func(i int) bool {
		for _, z := range zones[:nz] {
			if distance(i, z) <= bisonRange {
				return true
			}
		}
		return false
	}
	var seen [cells]bool
	var queue [cells]int16
	seen[from] = true
	queue[0] = int16(from)
	head, tail := 0, 1
	for depth := 0; depth < bisonRange && head < tail; depth++ {
		end := tail
		for ; head < end; head++ {
			cur := int(queue[head])
			if cur != from && ps.nextToEnemy(cur, p, Chrysanthemum) {
				continue // it may stop here but not fly on
			}
			for _, n := range geo.orth[cur] {
				if n < 0 || seen[n] {
					continue
				}
				seen[n] = true
				occupied := ps.board[n] != 0
				if occupied {
					if ps.canCapture(p, SkyBison, int(n)) && !inZone(int(n)) {
						buf = append(buf, n)
					}
					continue
				}
				queue[tail] = n
				tail++
				if !geo.temple[n] && !inZone(int(n)) {
					buf = append(buf, n)
				}
			}
		}
	}
	return buf
}

// appendBoardMoves appends every deploy and tile move p may make.
func (ps *position) appendBoardMoves(p rules.Player, buf []rules.Move) []rules.Move {
	var tmp [cells]int16
	for t := Lotus; t < tileKinds; t++ {
		for _, i := range ps.deployTargets(p, t, tmp[:0]) {
			buf = append(buf, Deploy(t, pointOf(int(i))))
		}
	}
	for _, i := range geo.points {
		c := ps.board[i]
		if c == 0 || ownerOf(c) != p {
			continue
		}
		from := pointOf(int(i))
		for _, d := range ps.destinations(int(i), tmp[:0]) {
			buf = append(buf, MoveTile(from, pointOf(int(d))))
		}
	}
	return buf
}

// hasBoardMove reports whether p has any deploy or tile move. It runs
// after every board move (a player left without one draws), so it stops at
// the first move it finds, and searches the Sky Bisons' flights, the
// dearest, only when no other tile can move.
func (ps *position) hasBoardMove(p rules.Player) bool {
	var tmp [cells]int16
	for t := Lotus; t < tileKinds; t++ {
		if ps.canDeploy(p, t, &tmp) {
			return true
		}
	}
	bison := false
	for _, i := range geo.points {
		c := ps.board[i]
		if c == 0 || ownerOf(c) != p {
			continue
		}
		if tileOf(c) == SkyBison {
			bison = true
			continue
		}
		if len(ps.destinations(int(i), tmp[:0])) > 0 {
			return true
		}
	}
	if !bison {
		return false
	}
	for _, i := range geo.points {
		if c := ps.board[i]; c == mkCell(SkyBison, p) && len(ps.destinations(int(i), tmp[:0])) > 0 {
			return true
		}
	}
	return false
}

// canDeploy reports whether p may deploy tile t anywhere now: deployTargets
// would list a cell, but it stops at the first (tmp is its scratch).
func (ps *position) canDeploy(p rules.Player, t Tile, tmp *[cells]int16) bool {
	switch {
	case ps.lib[p][t] == 0:
		return false
	case t == SkyBison || t == WhiteDragon:
		return len(ps.deployTargets(p, t, tmp[:0])) > 0
	}
	for _, i := range geo.points {
		if openForDeploy(ps, int(i)) {
			return true
		}
	}
	return false
}

// canDeployAt reports whether p may deploy tile t on cell i now: whether
// deployTargets would list i, without listing the others.
func (ps *position) canDeployAt(p rules.Player, t Tile, i int) bool {
	if ps.lib[p][t] == 0 {
		return false
	}
	switch t {
	case SkyBison:
		return geo.temple[i] && ps.board[i] == 0
	case WhiteDragon:
		f := ps.fireLily(p)
		return f >= 0 && distance(f, i) <= 5 && openForDeploy(ps, i)
	}
	return openForDeploy(ps, i)
}

// boardMoveLegal reports whether m is a deploy or tile move p may make now.
func (ps *position) boardMoveLegal(p rules.Player, m rules.Move) bool {
	var tmp [cells]int16
	switch m.Kind {
	case KindDeploy:
		if m.Len != 3 || m.Arg[0] == 0 || m.Arg[0] >= uint8(tileKinds) {
			return false
		}
		at, ok := argPoint(m.Arg[1], m.Arg[2])
		return ok && ps.canDeployAt(p, Tile(m.Arg[0]), at.index())
	case KindMove:
		if m.Len != 4 {
			return false
		}
		from, ok1 := argPoint(m.Arg[0], m.Arg[1])
		to, ok2 := argPoint(m.Arg[2], m.Arg[3])
		if !ok1 || !ok2 {
			return false
		}
		c := ps.board[from.index()]
		return c != 0 && ownerOf(c) == p && contains(ps.destinations(from.index(), tmp[:0]), to.index())
	}
	return false
}

func contains(s []int16, i int) bool {
	for _, v := range s {
		if int(v) == i {
			return true
		}
	}
	return false
}

// applyBoard plays a deploy or tile move already known to be legal for the
// player to move, appending its steps; it returns the tile captured.
func (ps *position) applyBoard(m rules.Move, steps []rules.Step) ([]rules.Step, Tile) {
	p := ps.turn
	captured := NoTile
	switch m.Kind {
	case KindDeploy:
		t := Tile(m.Arg[0])
		at, _ := argPoint(m.Arg[1], m.Arg[2])
		ps.lib[p][t]--
		ps.board[at.index()] = mkCell(t, p)
		steps = append(steps, rules.Step{Kind: StepDeploy, Player: p, A: int16(t), B: PointCode(at)})
	case KindMove:
		from, _ := argPoint(m.Arg[0], m.Arg[1])
		to, _ := argPoint(m.Arg[2], m.Arg[3])
		c := ps.board[from.index()]
		target := ps.board[to.index()]
		ps.board[from.index()] = 0
		ps.board[to.index()] = c
		steps = append(steps, rules.Step{Kind: StepMove, Player: p, A: int16(tileOf(c)), B: PointCode(from), C: PointCode(to)})
		if target != 0 {
			captured = tileOf(target)
			ps.captured[p]++
			steps = append(steps, rules.Step{Kind: StepCapture, Player: p, A: int16(captured), B: PointCode(to), C: int16(ownerOf(target))})
		}
	default:
		panic("paisho: applyBoard with a non-board move")
	}
	ps.plies++
	ps.turn = 1 - p
	return steps, captured
}
