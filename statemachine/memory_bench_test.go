package statemachine

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/bomber-game/bomber/segment"
)

// BenchmarkTableMemory reports what a running table costs the hub's heap
// beyond its people's sessions: Aeroplane Chess tables of 4 seats and 10
// watchers, 40 moves into the game, their chat history holding 10 lines.
// The sessions (the same 14 users per table, logged in and idle) are
// measured first and left out, so the figure is the table's own: its seats,
// game, moves, watchers list and chat.
func BenchmarkTableMemory(b *testing.B) {
	const tables, watchers, moves = 200, 10, 40
	for range b.N {
		h := New(Config{Games: Catalogue(), MaxTablesPerUser: 1, MaxWatchers: watchers, ChatRate: 100, ChatBurst: 100})
		h.Step(0, SeedInput(1))
		var conns []ConnID
		step := func(in Input) {
			h.Step(0, in)
			for {
				rd := h.Ready()
				if rd.Empty() {
					return
				}
				checks := append([]Check(nil), rd.Checks...)
				h.Advance()
				for _, c := range checks {
					h.Step(0, Input{Kind: InAnswer, Check: c.ID, Answer: Found})
				}
			}
		}
		send := func(c ConnID, t segment.Type, body []byte) {
			for _, s := range segment.AppendMessage(nil, t, body) {
				step(Input{Kind: InReceive, Conn: c, Seg: s})
			}
		}
		for i := range tables * (4 + watchers) {
			c := ConnID(i + 1)
			step(Input{Kind: InOpen, Conn: c})
			send(c, segment.Hello, segment.HelloMsg{Version: 1, Features: segment.FeatureTables | segment.FeatureChat | segment.FeatureResume | segment.FeatureClocks}.Append(nil))
			step(Input{Kind: InReceive, Conn: c, Seg: segment.Name(segment.Info, fmt.Sprintf("P%05d", i))})
			step(Input{Kind: InReceive, Conn: c, Seg: segment.Name(segment.Passwd, "123")})
			conns = append(conns, c)
		}
		if h.Online() != len(conns) {
			b.Fatalf("%d of %d logged in", h.Online(), len(conns))
		}
		before := heapInUse()
		for k := range tables {
			group := conns[k*(4+watchers) : (k+1)*(4+watchers)]
			send(group[0], segment.Create, segment.CreateMsg{Game: "aeroplane", Seats: 4,
				Options: []segment.KV{{Key: "clock.total", Value: "600"}}}.Append(nil))
			id := h.sessions[group[0]].table.id
			for _, c := range group[1:4] {
				send(c, segment.Join, segment.JoinMsg{Table: id, Seat: 0xFF}.Append(nil))
			}
			for _, c := range group[4:] {
				send(c, segment.Watch, segment.WatchMsg{Table: id}.Append(nil))
			}
			for _, c := range group[:4] {
				send(c, segment.Ready, nil)
			}
			t := h.tables[id]
			if t.phase != phasePlaying {
				b.Fatalf("table %d did not start", id)
			}
			for range moves {
				p := t.game.ToMove(nil)[0]
				m := t.game.Legal(p, nil)[0]
				send(group[p], segment.Move, segment.MoveMsg{Kind: m.Kind, Len: m.Len, Arg: m.Arg}.Append(nil))
			}
			for j := range 10 {
				send(group[j%4], segment.Chat, segment.ChatBody{Scope: segment.ScopeTable, Text: "good luck, have fun!"}.Append(nil))
			}
			if len(t.moves) != moves {
				b.Fatalf("table %d played %d moves, want %d", id, len(t.moves), moves)
			}
		}
		b.ReportMetric(float64(heapInUse()-before)/tables, "bytes/table")
		runtime.KeepAlive(h)
	}
}

// heapInUse is the heap's live bytes after a collection.
func heapInUse() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
