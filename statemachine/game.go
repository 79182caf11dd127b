package statemachine

import (
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/segment"
)

// startMatch pairs inviter (seat 0) and invitee (seat 1) for drawing.
func (h *Hub) startMatch(now int64, inviter, invitee *session) {
	first := rules.Player(0)
	if h.cfg.First == Invitee {
		first = 1
	}
	m := &match{game: *bomber.New(first), players: [2]*session{inviter, invitee}, start: now}
	for i, p := range m.players {
		p.state, p.match, p.seat = Draw, m, rules.Player(i)
	}
	h.stats.GamesStarted++
}

func cell(c segment.Coord) bomber.Cell { return bomber.CellAt(int(c.X), int(c.Y)) }

func coord(c bomber.Cell) segment.Coord { return segment.Coord{X: uint8(c.X()), Y: uint8(c.Y())} }

// board: a player's three planes. A board that is not 12 digits forming three
// planes on the board without overlap cannot come from a working client: the
// connection is closed (its opponent is released as on any disconnect).
func (h *Hub) board(now int64, s *session, seg segment.Segment) {
	m := s.match
	if m.game.Placed(s.seat) {
		h.stats.Ignored++
		return
	}
	cs, err := seg.Board()
	if err == nil {
		var b bomber.Board
		for i := range b {
			b[i] = bomber.Plane{Head: cell(cs[2*i]), Tail: cell(cs[2*i+1])}
		}
		err = m.game.SetBoard(s.seat, b)
	}
	if err != nil {
		h.stats.BadBoards++
		h.close(now, s)
		return
	}
	if m.game.Phase() != bomber.Guessing {
		return
	}
	// both boards are in: each player gets the other's, and play begins
	for i, p := range m.players {
		b, _ := m.game.Board(rules.Player(1 - i))
		var cs [6]segment.Coord
		for j, pl := range b {
			cs[2*j], cs[2*j+1] = coord(pl.Head), coord(pl.Tail)
		}
		h.send(p, segment.NewBoard(cs))
		p.state = Game
	}
}

// guess: a single or double guess. Only the player on turn may guess; a guess
// out of turn is ignored. An unreadable guess from the player on turn (the
// reference client's 6-byte DoubleCoord after a wrong double) is a miss: the
// turn passes and the opponent is shown a guess that cannot hit.
func (h *Hub) guess(now int64, s *session, seg segment.Segment) {
	m := s.match
	if m.game.Turn() != s.seat {
		h.stats.Ignored++
		return
	}
	opp := m.players[1-s.seat]
	var fwd segment.Segment
	switch seg.Type {
	case segment.SingleCoord:
		if c, err := seg.Single(); err == nil {
			m.game.Single(s.seat, cell(c))
			fwd = segment.NewSingle(c, segment.Binary)
			break
		}
		fwd = h.miss(m, s, seg)
	case segment.DoubleCoord:
		if hd, tl, err := seg.Double(); err == nil {
			m.game.Double(s.seat, cell(hd), cell(tl))
			fwd = segment.NewDouble(hd, tl, segment.Binary)
			break
		}
		fwd = h.miss(m, s, seg)
	}
	h.send(opp, fwd)
	if winner, over := m.game.Winner(); over {
		// the winner's client knows it has won and sends GameOver itself; the
		// loser is told now, so the result never depends on that segment
		h.send(opp, segment.Empty(segment.GameOver))
		h.endMatch(now, m, Won, int(winner), -1)
	}
}

// miss takes an unreadable guess as a miss and returns what the opponent is
// shown: a double guess whose head and tail are the same cell (no plane
// matches it), that cell being the tail the client meant when readable.
func (h *Hub) miss(m *match, s *session, seg segment.Segment) segment.Segment {
	h.stats.MalformedShot++
	m.game.Miss(s.seat)
	var c segment.Coord
	if p := seg.Payload(); len(p) >= 2 {
		if t, err := segment.Raw(segment.SingleCoord, p[len(p)-2:]); err == nil {
			if tc, err := t.Single(); err == nil {
				c = tc
			}
		}
	}
	return segment.NewDouble(c, c, segment.Binary)
}

// endMatch records a match and returns its players to stand-by.
func (h *Hub) endMatch(now int64, m *match, reason EndReason, winner, leaver int) {
	r := Record{Winner: winner, Leaver: leaver, Reason: reason, Start: m.start, End: now}
	for i, p := range m.players {
		r.Players[i] = p.name
		r.Guesses[i] = m.game.Guesses(rules.Player(i))
		if p.match == m {
			p.match = nil
			if p.state == Draw || p.state == Game {
				p.state = ServerStandBy
			}
		}
	}
	h.ready.Records = append(h.ready.Records, r)
	h.stats.GamesEnded[reason]++
}
