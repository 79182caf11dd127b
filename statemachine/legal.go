package statemachine

import (
	"bytes"
	"slices"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/segment"
)

// Legal moves (docs/protocol.md, "Legal moves"): the seat to move gets its
// legal moves with every update, grouped as a piece and its destinations,
// so a client draws targets without re-implementing the rules. Only that
// seat gets them: a seat's legal moves can say what it alone knows (the
// planes a Bomber player has already tried), and watchers never get any.

// maxLegalMoves bounds the moves one update lists: past it (a Bomber
// board, placed in tens of thousands of ways) the seat is told there are
// too many and the rules judge each move as it is made.
const maxLegalMoves = 2048

// legalHeader is the bytes of a Legal body before its groups: table, seq,
// seat, flags, group count.
const legalHeader = 4 + 4 + 1 + 1 + 1

// sendLegal sends s its legal moves at t when s sits there, asked for
// them, and is to move in the running game; nothing otherwise.
func (h *Hub) sendLegal(s *session, t *table) {
	if !s.has(segment.FeatureLegal) || s.seat < 0 || t.game == nil || t.phase != phasePlaying || s.table != t {
		return
	}
	if !slices.Contains(t.game.ToMove(h.toMove[:0]), s.seat) {
		return
	}
	ms := t.game.Legal(s.seat, h.legal[:0])
	ms = slices.DeleteFunc(ms, func(m rules.Move) bool { return m.Kind >= rules.KindOfferDraw })
	h.legal = ms[:0]
	b := segment.LegalBody{Table: t.id, Seq: t.seq, Seat: uint8(s.seat)}
	if len(ms) > maxLegalMoves {
		b.Flags = segment.LegalTooMany
		h.sendMsg(s, segment.Legal, b.Append(h.body()))
		return
	}
	h.sendMoves(s, segment.Legal, b, ms)
}

// sendMoves sends s the moves ms as messages of type ty (Legal or Hints)
// with b's header: grouped by kind, length and the first half of their
// argument, cut into as few messages as they fit, all but the last with
// LegalMore.
func (h *Hub) sendMoves(s *session, ty segment.Type, b segment.LegalBody, ms []rules.Move) {
	slices.SortFunc(ms, func(a, b rules.Move) int {
		if a.Kind != b.Kind {
			return int(a.Kind) - int(b.Kind)
		}
		if a.Len != b.Len {
			return int(a.Len) - int(b.Len)
		}
		return bytes.Compare(a.Arg[:a.Len], b.Arg[:b.Len])
	})
	// groups of one kind, length and prefix, each cut to fit a message;
	// prefixes and suffixes point into ms (not into copies of its moves,
	// which would each escape to the heap): it stays put until they are sent
	var groups []segment.LegalGroup
	for i := 0; i < len(ms); {
		m := &ms[i]
		p := int(m.Len) / 2
		g := segment.LegalGroup{Kind: m.Kind, Len: m.Len, Prefix: m.Arg[:p:p]}
		for ; i < len(ms) && len(g.Suffixes) < 255 && legalHeader+legalGroupSize(int(m.Len), len(g.Suffixes)+1) <= segment.MessageCap(ty); i++ {
			n := &ms[i]
			if n.Kind != m.Kind || n.Len != m.Len || !bytes.Equal(n.Arg[:p], m.Arg[:p]) {
				break
			}
			g.Suffixes = append(g.Suffixes, n.Arg[p:n.Len:n.Len])
		}
		groups = append(groups, g)
	}
	// as few messages as the groups fit in, all but the last with LegalMore
	for first := true; first || len(groups) > 0; first = false {
		size, n := legalHeader, 0
		for n < len(groups) && n < 255 {
			gs := legalGroupSize(int(groups[n].Len), len(groups[n].Suffixes))
			if size+gs > segment.MessageCap(ty) {
				break
			}
			size += gs
			n++
		}
		b.Groups, groups = groups[:n:n], groups[n:]
		b.Flags = 0
		if len(groups) > 0 {
			b.Flags = segment.LegalMore
		}
		h.sendMsg(s, ty, b.Append(h.body()))
	}
}

// legalGroupSize is the bytes of a group of n moves with arguments of
// length l: kind, len, prefix, count, suffixes.
func legalGroupSize(l, n int) int { return 3 + l/2 + n*(l-l/2) }

// sendLegalToMove sends each seat to move at t its legal moves.
func (h *Hub) sendLegalToMove(t *table) {
	for _, sl := range t.seats {
		if sl.s != nil {
			h.sendLegal(sl.s, t)
		}
	}
}

// hintReq answers a HintReq: the legal next parts of the move s's seat
// builds in parts (a Bomber board, plane by plane), given the parts it
// has chosen. They are the seat's own business: only the seat that asks
// gets them, and only while it builds such a move; the rules compute them
// from that seat's redacted game, which holds nothing another seat hides.
func (h *Hub) hintReq(s *session, body []byte) {
	m, err := segment.DecodeHintReqMsg(body)
	switch {
	case !s.has(segment.FeatureLegal):
		h.fail(s, segment.HintReq, segment.ErrCodeBadRequest, "HintReq needs feature 128")
		return
	case err != nil:
		h.fail(s, segment.HintReq, segment.ErrCodeBadRequest, "malformed HintReq")
		return
	case !h.playing(s, segment.HintReq):
		return
	case m.Table != s.table.id:
		h.fail(s, segment.HintReq, segment.ErrCodeNotAtTable, "not playing at that table")
		return
	}
	t := s.table
	ph, ok := rules.SeatOf(t.game, s.seat).Game().(rules.PartHints)
	if !ok {
		h.fail(s, segment.HintReq, segment.ErrCodeIllegal, "this game's moves are not built in parts")
		return
	}
	ms, err := ph.NextParts(s.seat, m.Chosen, h.legal[:0])
	if err != nil {
		h.fail(s, segment.HintReq, moveError(err), refusal(err))
		return
	}
	h.legal = ms[:0]
	h.sendMoves(s, segment.Hints, segment.LegalBody{Table: t.id, Seq: t.seq, Seat: uint8(s.seat)}, ms)
}
