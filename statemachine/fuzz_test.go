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

// fuzzMoves are move texts that are legal at some point of some game, so
// random sequences of them make games progress (most are refused).
var fuzzMoves = []string{
	"02-32 07-37 52-82", "02-32 07-37 57-87", "02", "55", "02-32", "99", // bomber
	"11-15", "22-18", "15x22", "25x18", "9-13", "24-20", // checkers
	"a1-b1", "a1-a2", "b1-c1", "b1-b2", "c1-c2", "a2-b2", // dots
	"roll", "move 0", "move 1", // aeroplane
	"resign", "x", // anyone
}

// fuzzMessage picks an extended client message from a small alphabet that
// reaches every table operation, plus malformed bodies.
func fuzzMessage(op, arg byte) (segment.Type, []byte) {
	games := []string{"bomber", "checkers", "dots", "aeroplane", "paisho", "chess"}
	table := uint32(arg%4) + 1
	switch op % 15 {
	case 0:
		m := segment.CreateMsg{Game: games[int(arg)%len(games)], Seats: 2 + arg/6%3, Flags: arg / 18 % 8}
		if arg%7 == 0 {
			m.Options = []segment.KV{{Key: "rows", Value: "3"}, {Key: "cols", Value: "3"}}
		}
		if arg%5 == 1 {
			m.Options = append(m.Options, segment.KV{Key: "clock.move", Value: "5"}, segment.KV{Key: "clock.pause", Value: "true"})
		}
		if arg%5 == 2 {
			m.Options = append(m.Options, segment.KV{Key: "clock.total", Value: "20"}, segment.KV{Key: "clock.increment", Value: "2"})
		}
		return segment.Create, m.Append(nil)
	case 13:
		return segment.Bot, segment.BotMsg{Seat: []uint8{0xFF, 1, 2, 9}[arg%4]}.Append(nil)
	case 14:
		return segment.Bye, nil
	case 1:
		seat := uint8(0xFF)
		if arg%3 == 0 {
			seat = arg / 3 % 4
		}
		return segment.Join, segment.JoinMsg{Table: table, Seat: seat}.Append(nil)
	case 2:
		return segment.Watch, segment.WatchMsg{Table: table}.Append(nil)
	case 3:
		return segment.Leave, nil
	case 4, 5:
		return segment.Ready, nil
	case 6, 7, 8:
		return segment.MoveText, []byte(fuzzMoves[int(arg)%len(fuzzMoves)])
	case 9:
		return segment.Move, segment.MoveMsg{Kind: arg % 4, Len: 2, Arg: [16]uint8{arg % 10, arg / 10 % 10}}.Append(nil)
	case 10:
		return segment.Offer, segment.OfferMsg{What: 1 + arg%3, Answer: arg / 3 % 3}.Append(nil)
	case 11:
		return segment.Chat, segment.ChatBody{Scope: arg % 4, Text: "hi"}.Append(nil)
	default:
		return []segment.Type{segment.ListReq, segment.CatalogReq, segment.ViewReq, segment.Resign, segment.Invite}[arg%5], []byte{arg}[:arg%2]
	}
}

// FuzzHub drives the pure hub with random sequences of connects,
// disconnects, segments, clock ticks and (possibly late) account answers for
// several users, and checks the hub's invariants after every step.
func FuzzHub(f *testing.F) {
	var seeds [][]byte
	seeds = append(seeds, []byte{0, 0, 0, 10, 0, 0, 11, 0, 0, 10, 0, 0, 1, 0, 0, 11, 1, 0, 12, 1, 1, 13, 1, 1, 14, 1, 0, 15, 0, 0})
	seeds = append(seeds, []byte{0, 0, 0, 0, 1, 0, 10, 0, 0, 10, 1, 1, 11, 0, 0, 11, 1, 0, 12, 0, 1, 13, 1, 1, 14, 0, 0, 14, 1, 1, 16, 0, 0, 16, 1, 0})
	seeds = append(seeds, []byte{0, 0, 0, 10, 0, 0, 2, 0, 0, 11, 0, 0, 3, 0, 0, 1, 0, 0, 10, 0, 0, 11, 0, 0, 4, 0, 0})
	// two extended users log in, one creates a bomber table, the other joins, both ready, boards
	seeds = append(seeds, []byte{20, 0, 0, 6, 0, 0, 4, 0, 0, 7, 0, 0, 4, 0, 0, 20, 1, 1, 6, 1, 1, 4, 1, 0, 7, 1, 0, 4, 1, 0,
		21, 0, 0, 22, 1, 1, 23, 0, 4, 23, 1, 4, 21, 0, 96, 22, 1, 97})
	// Aeroplane Chess, whose dice come from the table's seed: two players
	// rolling and moving, and one player against the computer
	login := []byte{20, 0, 0, 6, 0, 0, 4, 0, 0, 7, 0, 1, 4, 0, 0, 20, 1, 1, 6, 1, 1, 4, 1, 0, 7, 1, 1, 4, 1, 0}
	duel := append(slices.Clone(login), 21, 0, 75, 21, 1, 16, 21, 0, 4, 21, 1, 4)
	solo := append(slices.Clone(login), 21, 0, 75, 21, 0, 13)
	for range 40 {
		duel = append(duel, 21, 0, 156, 21, 0, 111, 21, 0, 66, 21, 1, 156, 21, 1, 111, 21, 1, 66)
		solo = append(solo, 21, 0, 156, 21, 0, 111, 21, 0, 66, 17, 0, 1, 17, 0, 1)
	}
	seeds = append(seeds, duel, solo)
	for _, sd := range seeds {
		f.Add(sd)
		// the same, restoring a copy of the hub at every other step
		v := slices.Clone(sd)
		for i := 1; i < len(v); i += 6 {
			v[i] |= 0x80
		}
		f.Add(v)
	}
	f.Fuzz(runHub)
}

// runHub is FuzzHub's property: ops drive a hub (and, where a who byte's
// high bit says so, a copy restored from a snapshot) and every step is checked.
func runHub(t *testing.T, ops []byte) {
	cfg := statemachine.Config{KickGrace: time.Minute, LoginTimeout: 2 * time.Minute, Dialect: statemachine.Dialect(len(ops) % 2),
		Games: statemachine.Catalogue(), MaxWatchers: 2, MaxTables: 3, OfferTTL: 10 * time.Second}
	if len(ops)%3 == 1 {
		// login throttling and rate limits too, so snapshots carry their
		// state (for inputs with a byte left over: the seeds play unlimited)
		cfg.LoginFailures, cfg.LoginWindow, cfg.LoginLockout = 2, 30*time.Second, time.Minute
		cfg.SegmentRate, cfg.SegmentBurst = 20, 40
	}
	h := statemachine.New(cfg)
	h.Step(0, statemachine.SeedInput(uint64(len(ops))))
	// a hub restored from a snapshot of h (or of the previous copy) when
	// a who byte's high bit says so; it is fed the same events and must
	// do exactly what h does
	var twin *statemachine.Hub
	hub := &fanout{hs: []*statemachine.Hub{h}}
	asm := map[statemachine.ConnID]*segment.Assembler{}
	place := map[statemachine.ConnID]int{}  // seat from the last Joined, -1 watching, absent elsewhere
	ended := map[statemachine.ConnID]bool{} // GameEnd received since the last Started
	var bots []statemachine.BotRequest
	var tokens [4]segment.SeatedBody // the last resume token each slot was given
	var now int64
	conns := [4]statemachine.ConnID{}
	next := statemachine.ConnID(0)
	var pending []statemachine.Check
	storeDown := false
	for i := 0; i+2 < len(ops); i += 3 {
		op, who, arg := ops[i], int(ops[i+1]%4), ops[i+2]
		if ops[i+1]&0x80 != 0 {
			twin = snapshotTwin(t, h, twin, cfg)
			hub.hs = []*statemachine.Hub{h, twin}
		}
		switch op % 24 {
		case 0, 20: // connect (a fresh connection for that slot), extended with 20
			if conns[who] != 0 {
				hub.Closed(now, conns[who])
			}
			next++
			conns[who] = next
			hub.Open(now, next)
			if op%24 == 20 {
				hub.Receive(now, next, segment.AppendMessage(nil, segment.Hello, segment.HelloMsg{Version: 1, Features: 31}.Append(nil))[0])
			}
		case 6 + 11: // answer a bot request: the newest, the oldest, or one that is stale
			if len(bots) > 0 {
				k := int(arg) % len(bots)
				b := bots[k]
				bots = append(bots[:k], bots[k+1:]...)
				if a, err := statemachine.RunBot(b); err == nil {
					if arg%7 == 0 {
						a.Seq++ // late or wrong: the request stays unanswered
						bots = append(bots, b)
					}
					hub.BotMove(now, a)
				}
			}
		case 6 + 12: // resume with the last token this slot's user was given, or a wrong one
			if conns[who] != 0 {
				m := segment.ResumeMsg{Table: tokens[who].Table, Seat: tokens[who].Seat, Token: tokens[who].Token, LastSeq: uint32(arg % 8)}
				if arg%9 == 0 {
					m.Token[0]++
				}
				for _, s := range segment.AppendMessage(nil, segment.Resume, m.Append(nil)) {
					hub.Receive(now, conns[who], s)
				}
			}
		case 21, 22, 23: // an extended message
			if conns[who] != 0 {
				t, body := fuzzMessage(op/24+arg, arg)
				for _, s := range segment.AppendMessage(nil, t, body) {
					hub.Receive(now, conns[who], s)
				}
			}
		case 1:
			if conns[who] != 0 {
				hub.Closed(now, conns[who])
				conns[who] = 0
			}
		case 2:
			now += int64(arg) * int64(time.Second)
			hub.Tick(now)
		case 3:
			storeDown = !storeDown
		case 4, 5: // answer the oldest / newest pending check
			if len(pending) > 0 {
				k := 0
				if op%24 == 5 {
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
				hub.Answer(now, c.ID, a)
			}
		default:
			if conns[who] != 0 {
				hub.Receive(now, conns[who], fuzzSegment(op-6, arg))
			}
		}
		rd := h.Ready()
		if twin != nil {
			sameReady(t, i/3, rd, twin.Ready())
		}
		pending = append(pending, rd.Checks...)
		bots = append(bots, rd.Bots...)
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
			if !s.Seg.Type.Extended() {
				continue
			}
			a := asm[s.Conn]
			if a == nil {
				a = &segment.Assembler{}
				asm[s.Conn] = a
			}
			mt, body, done, err := a.Add(s.Seg)
			if err != nil {
				t.Fatalf("sent a bad fragment to %d: %v", s.Conn, err)
			}
			if !done {
				continue
			}
			switch mt {
			case segment.Joined:
				j, _ := segment.DecodeJoinedBody(body)
				switch {
				case j.Table == 0:
					delete(place, s.Conn)
				case j.Seat == 0xFF:
					place[s.Conn] = -1
				default:
					place[s.Conn] = int(j.Seat)
				}
			case segment.Seated:
				sb, _ := segment.DecodeSeatedBody(body)
				for k := range conns {
					if conns[k] == s.Conn {
						tokens[k] = sb
					}
				}
			case segment.Started:
				ended[s.Conn] = false
			case segment.GameEnd:
				ended[s.Conn] = true // the boards are revealed after it
			case segment.Moved:
				// a secret move (a Bomber board) reaches its mover only, until the game is over
				if m, _ := segment.DecodeMovedBody(body); m.Kind == 1 && m.Len == 12 && place[s.Conn] != int(m.Seat) && !ended[s.Conn] {
					t.Fatalf("conn %d (place %d) was shown seat %d's board", s.Conn, place[s.Conn], m.Seat)
				}
			}
		}
		h.Advance()
		if err := h.CheckInvariants(); err != nil {
			t.Fatalf("step %d (op %d who %d arg %d): %v", i/3, op, who, arg, err)
		}
		if n := h.Stats().SeatsRefused; n > 0 {
			t.Fatalf("step %d: %d seat changes the seats' lives forbid were tried: %+v", i/3, n, rd.Notices)
		}
		if twin != nil {
			twin.Advance()
			if err := twin.CheckInvariants(); err != nil {
				t.Fatalf("step %d: restored hub: %v", i/3, err)
			}
			if *h.Stats() != *twin.Stats() {
				t.Fatalf("step %d: the restored hub's stats differ:\n%+v\n%+v", i/3, *h.Stats(), *twin.Stats())
			}
			at, ok := h.NextDeadline()
			if at2, ok2 := twin.NextDeadline(); at != at2 || ok != ok2 {
				t.Fatalf("step %d: the restored hub's next deadline is %d %v, the original's %d %v", i/3, at2, ok2, at, ok)
			}
		}
		// a cluster ticks only when NextDeadline says so: a tick
		// before the deadline (or at any time when there is none)
		// must do nothing a user would see
		quiet := now + int64(time.Hour)
		if at, ok := h.NextDeadline(); ok {
			quiet = at - 1
		}
		if quiet >= now {
			hub.Tick(quiet)
			if twin != nil {
				sameReady(t, i/3, h.Ready(), twin.Ready())
				twin.Advance()
			}
			if rd := h.Ready(); !rd.Empty() {
				t.Fatalf("step %d: a tick at %d, before the next deadline, did %+v", i/3, quiet, *rd)
			}
		}
		// what a new leader asks again is what was asked and not answered
		for _, pb := range h.PendingBots(nil) {
			if !slices.ContainsFunc(bots, func(b statemachine.BotRequest) bool {
				return b.Table == pb.Table && b.Seat == pb.Seat && b.Seq == pb.Seq && b.Game == pb.Game && b.Seed == pb.Seed
			}) {
				t.Fatalf("step %d: PendingBots lists %+v, which was never asked or was answered", i/3, pb)
			}
		}
	}
}
