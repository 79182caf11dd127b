package statemachine

// Computer players in seats (docs/protocol.md section 9): the creator gives
// them seats; the hub asks the shell for their moves and plays the answers.

import (
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/segment"
)

// BotRequest asks the shell for the move of the computer player in a seat.
// The shell runs the game's bot on its worker pool and answers with
// Hub.BotMove; an answer that comes too late (the table moved on or
// closed) is ignored.
type BotRequest struct {
	Table uint32
	Seat  rules.Player
	Seq   uint32     // the table's update sequence the move answers
	Game  string     // the game's Spec name
	View  rules.Seat // all the seat may know: the bot sees nothing else
	Seed  uint64     // for the bot's own choices, from the table's seed
}

// BotAnswer is a bot's move, in the game's notation (what transcripts
// record, so captured sessions with bots replay exactly).
type BotAnswer struct {
	Table uint32
	Seat  rules.Player
	Seq   uint32
	Move  string
}

// botMsg: the creator gives empty seats of a waiting table to the computer.
func (h *Hub) botMsg(now int64, s *session, body []byte) {
	m, err := segment.DecodeBotMsg(body)
	t := occupant(s)
	switch {
	case err != nil:
		h.fail(s, segment.Bot, segment.ErrCodeBadRequest, "malformed Bot")
		return
	case t == nil:
		h.fail(s, segment.Bot, segment.ErrCodeNotSeated, "sit at a table first")
		return
	case s.name != t.creator:
		h.fail(s, segment.Bot, segment.ErrCodeNotAllowed, "only the table's creator seats the computer")
		return
	case t.phase != phaseWaiting:
		h.fail(s, segment.Bot, segment.ErrCodeGameOver, "the game is running")
		return
	case m.Seat != 0xFF && int(m.Seat) >= len(t.seats):
		h.fail(s, segment.Bot, segment.ErrCodeBadRequest, "no such seat")
		return
	case m.Seat != 0xFF && t.seats[m.Seat].life() != lifeEmpty:
		h.fail(s, segment.Bot, segment.ErrCodeTableFull, "seat taken")
		return
	}
	n := 0
	for i := range t.seats {
		if (m.Seat == 0xFF || int(m.Seat) == i) && t.seats[i].life() == lifeEmpty {
			h.seatTo(t, i, lifeBot, nil)
			n++
		}
	}
	if n == 0 {
		h.fail(s, segment.Bot, segment.ErrCodeTableFull, "no empty seat")
		return
	}
	h.stats.BotSeats += uint64(n)
	h.ready_(now, s) // the creator asked for opponents: that is a ready, and may start the game
}

// askBots asks the shell for the moves of computer players to move at t
// (bot seats, and seats whose clock ran out in a game that plays on for
// them), once per seat and update.
func (h *Hub) askBots(t *table) {
	if t.phase != phasePlaying {
		return
	}
	for _, p := range t.game.ToMove(h.toMove[:0]) {
		sl := &t.seats[p]
		if !(sl.bot || sl.auto) || sl.asked == t.seq+1 {
			continue
		}
		sl.asked = t.seq + 1
		h.ready.Bots = append(h.ready.Bots, h.botRequest(t, p))
	}
}

// botRequest asks for seat p's move at t as it stands.
func (h *Hub) botRequest(t *table, p rules.Player) BotRequest {
	seed := uint64(t.seed[0]) | uint64(t.seed[1])<<8 | uint64(t.seed[2])<<16 | uint64(t.seed[3])<<24
	return BotRequest{Table: t.id, Seat: p, Seq: t.seq, Game: t.kind.Spec.Name,
		View: rules.SeatOf(t.game, p), Seed: seed ^ uint64(t.seq)<<32 ^ uint64(p)}
}

// botMove delivers a bot's move. A move for a table that moved on, closed,
// or whose seat a person took back is ignored; a move the rules refuse
// (a bot's bug) is replaced by the seat's first legal move, so a table never
// waits for a computer player forever.
func (h *Hub) botMove(now int64, a BotAnswer) {
	t := h.tables[a.Table]
	if t == nil || t.phase != phasePlaying || t.seq != a.Seq || int(a.Seat) < 0 || int(a.Seat) >= len(t.seats) {
		h.stats.BotLate++
		return
	}
	sl := &t.seats[a.Seat]
	if !(sl.bot || sl.auto) || sl.asked != t.seq+1 {
		h.stats.BotLate++
		return
	}
	m, err := t.game.ParseMove(a.Seat, a.Move)
	if err == nil {
		err = h.play(now, t, a.Seat, m)
	}
	if err != nil {
		h.stats.BotIllegal++
		legal := t.game.Legal(a.Seat, nil)
		if len(legal) == 0 {
			return
		}
		m = legal[0]
		if h.play(now, t, a.Seat, m) != nil {
			return
		}
	}
	h.stats.BotMoves++
	h.stats.TableMoves++
	h.afterMove(now, t, a.Seat, m)
}
