package statemachine_test

import (
	"slices"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

var fuzzNames = []string{"Albert", "Beth", "Cindy", "Nobody"}

var fuzzBoards = []string{"023207375282", "023207375787", "023212425787", "0232073752"}

// fuzzSegment picks a client segment from a small alphabet that reaches
// every state, plus malformed variants.
func fuzzSegment(op, arg byte) segment.Segment {
	name := fuzzNames[int(arg)%len(fuzzNames)]
	switch op % 11 {
	case 0:
		return segment.Name(segment.Info, name)
	case 1:
		if arg%5 == 0 {
			return segment.Name(segment.Passwd, "wrong")
		}
		return segment.Name(segment.Passwd, "123")
	case 2:
		return segment.Name(segment.SendInvit, name)
	case 3:
		return segment.Code(segment.InvitResponse, arg%3)
	case 4:
		s, _ := segment.Raw(segment.Board, []byte(fuzzBoards[int(arg)%len(fuzzBoards)]))
		return s
	case 5:
		return segment.NewSingle(segment.Coord{X: arg % 10, Y: arg / 10 % 10}, segment.Encoding(arg>>7))
	case 6:
		heads := []string{"0232", "0737", "5282", "5787", "1111"}
		s, _ := segment.Raw(segment.DoubleCoord, []byte(heads[int(arg)%len(heads)]))
		return s
	case 7:
		return segment.Empty(segment.GameOver)
	case 8:
		s, _ := segment.Raw(segment.DoubleCoord, []byte{'-', '1', '-', '1', '0' + arg%10, '0' + arg/10%10})
		return s
	case 9:
		return segment.Code(segment.InfoResp, arg)
	default:
		s, _ := segment.Raw(segment.SingleCoord, []byte{arg})
		return s
	}
}

// FuzzHub drives the pure hub with random sequences of connects,
// disconnects, segments, clock ticks and (possibly late) account answers for
// several users, and checks the hub's invariants after every step.
func FuzzHub(f *testing.F) {
	f.Add([]byte{0, 0, 0, 10, 0, 0, 11, 0, 0, 10, 0, 0, 1, 0, 0, 11, 1, 0, 12, 1, 1, 13, 1, 1, 14, 1, 0, 15, 0, 0})
	f.Add([]byte{0, 0, 0, 0, 1, 0, 10, 0, 0, 10, 1, 1, 11, 0, 0, 11, 1, 0, 12, 0, 1, 13, 1, 1, 14, 0, 0, 14, 1, 1, 16, 0, 0, 16, 1, 0})
	f.Add([]byte{0, 0, 0, 10, 0, 0, 2, 0, 0, 11, 0, 0, 3, 0, 0, 1, 0, 0, 10, 0, 0, 11, 0, 0, 4, 0, 0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		h := statemachine.New(statemachine.Config{KickGrace: time.Minute, LoginTimeout: 2 * time.Minute, Dialect: statemachine.Dialect(len(ops) % 2)})
		var now int64
		conns := [4]statemachine.ConnID{}
		next := statemachine.ConnID(0)
		var pending []statemachine.Check
		storeDown := false
		for i := 0; i+2 < len(ops); i += 3 {
			op, who, arg := ops[i], int(ops[i+1]%4), ops[i+2]
			switch op % 20 {
			case 0: // connect (a fresh connection for that slot)
				if conns[who] != 0 {
					h.Closed(now, conns[who])
				}
				next++
				conns[who] = next
				h.Open(now, next)
			case 1:
				if conns[who] != 0 {
					h.Closed(now, conns[who])
					conns[who] = 0
				}
			case 2:
				now += int64(arg) * int64(time.Second)
				h.Tick(now)
			case 3:
				storeDown = !storeDown
			case 4, 5: // answer the oldest / newest pending check
				if len(pending) > 0 {
					k := 0
					if op%20 == 5 {
						k = len(pending) - 1
					}
					c := pending[k]
					pending = append(pending[:k], pending[k+1:]...)
					a := statemachine.Found
					switch {
					case storeDown:
						a = statemachine.Unavailable
					case c.User == "Nobody":
						a = statemachine.NotFound
					case c.Kind == statemachine.Verify && c.Password != "123":
						a = statemachine.WrongPassword
					}
					h.Answer(now, c.ID, a)
				}
			default:
				if conns[who] != 0 {
					h.Receive(now, conns[who], fuzzSegment(op-6, arg))
				}
			}
			rd := h.Ready()
			pending = append(pending, rd.Checks...)
			for _, c := range rd.Closes {
				for k := range conns {
					if conns[k] == c {
						conns[k] = 0
					}
				}
			}
			for _, s := range rd.Sends {
				// what the hub sends is well formed for its type (a client
				// decoder would close on anything else) and goes to a
				// connection that exists
				if back, err := segment.Parse(s.Seg.AppendTo(nil)); err != nil || back != s.Seg {
					t.Fatalf("sent a segment a client cannot read: %v (%v)", s.Seg, err)
				}
				if !slices.Contains(conns[:], s.Conn) && !slices.Contains(rd.Closes, s.Conn) {
					t.Fatalf("sent %v to connection %d, which is not open", s.Seg, s.Conn)
				}
			}
			h.Advance()
			if err := h.CheckInvariants(); err != nil {
				t.Fatalf("step %d (op %d who %d arg %d): %v", i/3, op, who, arg, err)
			}
		}
	})
}
