package statemachine

import (
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
)

// The Bomber wire adapter: the reference client's Bomber match is a table of
// two seats whose moves arrive as reference segments. Everything that is
// peculiar to that client lives here: boards exchanged once both are in,
// guesses in ASCII forwarded in binary, the malformed double guess taken as a
// miss, and the loser told GameOver by the server. The moves themselves go
// through rules.Game.Play like every other game's.

// refOptions are the Bomber options for each First setting.
var refOptions = [2]rules.Options{{"first": "0"}, {"first": "1"}}

// refTableBase is the least id of a reference match: a match is in no map
// and no client sees its id, but the inputs of its two players concern it
// (TableOf), as those of an extended table's people concern that table.
// Extended tables are numbered from 1 (tableSeq), so the two never meet.
const refTableBase = 1 << 31

// refID is the id of the n-th reference match.
func refID(n uint32) uint32 { return refTableBase | n&(refTableBase-1) }

// refStart seats inviter (seat 0) and invitee (seat 1) at a reference Bomber table.
func (h *Hub) refStart(now int64, inviter, invitee *session) {
	first := 0
	if h.cfg.First == Invitee {
		first = 1
	}
	spec := bomber.Spec()
	g, err := spec.New(2, refOptions[first], nil)
	if err != nil {
		panic("statemachine: bomber refused its own options: " + err.Error())
	}
	h.refSeq++
	t := &table{id: refID(h.refSeq), kind: refKind, opts: refOptions[first], game: g, seats: make([]seatSlot, 2), phase: phasePlaying, start: now, moves: make([]playedMove, 0, 128)}
	h.entropy(t.seed[:]) // Bomber draws nothing, but the record's seed identifies the game
	for i, p := range []*session{inviter, invitee} {
		h.seatTo(t, i, lifePerson, p)
		h.cancelSeek(p)
		p.state, p.table, p.seat = Draw, t, rules.Player(i)
	}
	h.stats.GamesStarted++
}

// refKind is the catalogue entry of reference Bomber tables.
var refKind = &GameEntry{Spec: bomber.Spec()}

func cell(c segment.Coord) bomber.Cell { return bomber.CellAt(int(c.X), int(c.Y)) }

func coord(c bomber.Cell) segment.Coord { return segment.Coord{X: uint8(c.X()), Y: uint8(c.Y())} }

// board: a player's three planes. A board that is not 12 digits forming three
// planes on the board without overlap cannot come from a working client: the
// connection is closed (its opponent is released as on any disconnect).
func (h *Hub) board(now int64, s *session, seg segment.Segment) {
	t := s.table
	g := t.game.(*bomber.Game)
	if g.Placed(s.seat) {
		h.stats.Ignored++
		return
	}
	cs, err := seg.Board()
	if err == nil {
		var b bomber.Board
		for i := range b {
			b[i] = bomber.Plane{Head: cell(cs[2*i]), Tail: cell(cs[2*i+1])}
		}
		err = h.play(now, t, s.seat, bomber.BoardMove(b))
	}
	if err != nil {
		h.stats.BadBoards++
		h.close(now, s)
		return
	}
	if g.Phase() != bomber.Guessing {
		return
	}
	// both boards are in: each player gets the other's, and play begins
	for i, sl := range t.seats {
		b, _ := g.Board(rules.Player(1 - i))
		var cs [6]segment.Coord
		for j, pl := range b {
			cs[2*j], cs[2*j+1] = coord(pl.Head), coord(pl.Tail)
		}
		h.send(sl.s, segment.NewBoard(cs))
		sl.s.state = Game
	}
}

// guess: a single or double guess. Only the player on turn may guess; a guess
// out of turn is ignored. An unreadable guess from the player on turn (the
// reference client's 6-byte DoubleCoord after a wrong double) is a miss: the
// turn passes and the opponent is shown a guess that cannot hit.
func (h *Hub) guess(now int64, s *session, seg segment.Segment) {
	t := s.table
	g := t.game.(*bomber.Game)
	if g.Turn() != s.seat {
		h.stats.Ignored++
		return
	}
	opp := t.seats[1-s.seat].s
	var fwd segment.Segment
	switch seg.Type {
	case segment.SingleCoord:
		if c, err := seg.Single(); err == nil {
			h.play(now, t, s.seat, bomber.SingleMove(cell(c)))
			fwd = segment.NewSingle(c, segment.Binary)
			break
		}
		fwd = h.miss(now, t, s, seg)
	case segment.DoubleCoord:
		if hd, tl, err := seg.Double(); err == nil {
			h.play(now, t, s.seat, bomber.DoubleMove(bomber.Plane{Head: cell(hd), Tail: cell(tl)}))
			fwd = segment.NewDouble(hd, tl, segment.Binary)
			break
		}
		fwd = h.miss(now, t, s, seg)
	}
	h.send(opp, fwd)
	if o := t.game.Outcome(); o.Status != rules.Running {
		// the winner's client knows it has won and sends GameOver itself; the
		// loser is told now, so the result never depends on that segment
		h.send(opp, segment.Empty(segment.GameOver))
		h.endTable(now, t, record.Won, rules.Spectator)
	}
}

// miss takes an unreadable guess as a miss and returns what the opponent is
// shown: a double guess whose head and tail are the same cell (no plane
// matches it), that cell being the tail the client meant when readable.
func (h *Hub) miss(now int64, t *table, s *session, seg segment.Segment) segment.Segment {
	h.stats.MalformedShot++
	h.play(now, t, s.seat, rules.Move{Kind: bomber.KindMiss})
	var c segment.Coord
	if p := seg.Payload(); len(p) >= 2 {
		if tc, err := segment.Raw(segment.SingleCoord, p[len(p)-2:]); err == nil {
			if tc, err := tc.Single(); err == nil {
				c = tc
			}
		}
	}
	return segment.NewDouble(c, c, segment.Binary)
}
