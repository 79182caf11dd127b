package statemachine

import "github.com/bomber-game/bomber/segment"

// EventKind says what an Event carries.
type EventKind uint8

// Event kinds.
const (
	EvOpen    EventKind = iota // Conn opened
	EvSegment                  // Seg arrived on Conn
	EvClosed                   // Conn is gone
	EvAnswer                   // Check CheckID was answered with Answer
	EvTick                     // time passed
)

// Event is any input to the hub, for tools that record and replay inputs.
type Event struct {
	Kind    EventKind
	Now     int64
	Conn    ConnID
	Seg     segment.Segment
	CheckID uint64
	Answer  Answer
}

// Step feeds one event to the hub.
func (h *Hub) Step(ev Event) {
	switch ev.Kind {
	case EvOpen:
		h.Open(ev.Now, ev.Conn)
	case EvSegment:
		h.Receive(ev.Now, ev.Conn, ev.Seg)
	case EvClosed:
		h.Closed(ev.Now, ev.Conn)
	case EvAnswer:
		h.Answer(ev.Now, ev.CheckID, ev.Answer)
	case EvTick:
		h.Tick(ev.Now)
	}
}
