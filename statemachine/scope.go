package statemachine

import (
	"encoding/binary"

	"github.com/bomber-game/bomber/segment"
)

// TableOf is the table an input concerns, or 0 when it concerns the world
// beyond any one table: sessions, logins, the lobby, invitations, time. A
// table input is one only a table's state can decide: a move, an offer, a
// ready flag, a table's chat, a view, a seat asked for, resumed or left, a
// computer player's move. Its effects stay at that table and with the
// people there, but for what it tells the world of them: who is busy at a
// table, which presence shows (a reference client sees a user at a table
// as offline). It is asked before the input is applied (the session's
// table is where the input goes) and changes nothing. What a session
// sends while the store is asked for it waits in its queue and is applied
// with the store's answer, an input of the world's: table inputs can also
// come that way.
//
// Each node counts the inputs it applies by this line
// (bomber_inputs_applied_total); it is also the line along which tables
// and their inputs can be given to shards of a world.
func (h *Hub) TableOf(in *Input) uint32 {
	switch in.Kind {
	case InBot:
		return in.Bot.Table
	case InTableTick:
		return in.Table
	case InReceive:
		if s := h.sessions[in.Conn]; s != nil {
			return s.tableOf(in.Seg)
		}
	}
	return 0
}

// tableOf is the table segment seg of s concerns (TableOf).
func (s *session) tableOf(seg segment.Segment) uint32 {
	at := uint32(0)
	if s.table != nil {
		at = s.table.id
	}
	t := seg.Type.Base()
	if !t.Extended() {
		switch t {
		case segment.Board, segment.SingleCoord, segment.DoubleCoord, segment.GameOver:
			return at // the reference client's Bomber match is a table of two
		}
		return 0
	}
	if s.x == nil {
		return 0
	}
	// the first bytes of the body name the table (Join, Watch, Resume) or
	// the room (Chat); a fragment after the first continues the message
	// begun earlier, whose body so far holds them
	var head [4]byte
	n := copy(head[:], s.x.asm.Body())
	n += copy(head[n:], seg.Payload())
	switch t {
	case segment.Join, segment.Watch, segment.Resume:
		if n < 4 {
			return 0 // refused before any table is looked at
		}
		return binary.BigEndian.Uint32(head[:])
	case segment.Move, segment.MoveText, segment.Ready, segment.ViewReq, segment.Offer, segment.Resign, segment.Bot, segment.Leave, segment.HintReq:
		return at
	case segment.Chat:
		if n > 0 && head[0] != 0 {
			return at // room 0 is the lobby's
		}
	}
	return 0
}
