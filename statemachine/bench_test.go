package statemachine_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// loggedInPair returns a hub with Albert (conn 1) and Beth (conn 2) in stand-by.
func loggedInPair(tb testing.TB) *statemachine.Hub {
	return loggedIn(tb, statemachine.Config{}, []string{"Albert", "Beth"})
}

// loggedIn returns a hub with cfg where names[i] is logged in on conn i+1,
// in stand-by.
func loggedIn(tb testing.TB, cfg statemachine.Config, names []string) *statemachine.Hub {
	h := statemachine.New(cfg)
	for i, name := range names {
		c := statemachine.ConnID(i + 1)
		h.Step(0, statemachine.Input{Kind: statemachine.InOpen, Conn: c})
		h.Step(0, statemachine.Input{Kind: statemachine.InReceive, Conn: c, Seg: segment.Name(segment.Info, name)})
		h.Step(0, statemachine.Input{Kind: statemachine.InAnswer, Check: h.Ready().Checks[0].ID, Answer: statemachine.Found})
		h.Advance()
		h.Step(0, statemachine.Input{Kind: statemachine.InReceive, Conn: c, Seg: segment.Name(segment.Passwd, "123")})
		h.Step(0, statemachine.Input{Kind: statemachine.InAnswer, Check: h.Ready().Checks[0].ID, Answer: statemachine.Found})
		h.Advance()
	}
	if h.Online() != len(names) {
		tb.Fatal("login failed")
	}
	return h
}

// fullGame is the client side of one whole game: invitation, boards, then
// Albert finds every cell of Beth's planes with single guesses while Beth
// misses, and Albert's closing GameOver.
func fullGame() []struct {
	conn statemachine.ConnID
	seg  segment.Segment
} {
	type in = struct {
		conn statemachine.ConnID
		seg  segment.Segment
	}
	boardA, _ := segment.Raw(segment.Board, []byte("023207375282"))
	boardB, _ := segment.Raw(segment.Board, []byte("023207375787"))
	g := []in{{1, segment.Name(segment.SendInvit, "Beth")}, {2, segment.Code(segment.InvitResponse, 1)}, {1, boardA}, {2, boardB}}
	b := bomber.Board{{Head: bomber.CellAt(0, 2), Tail: bomber.CellAt(3, 2)}, {Head: bomber.CellAt(0, 7), Tail: bomber.CellAt(3, 7)}, {Head: bomber.CellAt(5, 7), Tail: bomber.CellAt(8, 7)}}
	cells, _ := b.Cells()
	miss := segment.NewSingle(segment.Coord{X: 9, Y: 0}, segment.ASCII)
	for c := bomber.Cell(0); c < 100; c++ {
		if cells.Has(c) {
			if len(g) > 4 {
				g = append(g, in{2, miss})
			}
			g = append(g, in{1, segment.NewSingle(segment.Coord{X: uint8(c.X()), Y: uint8(c.Y())}, segment.ASCII)})
		}
	}
	return append(g, in{1, segment.Empty(segment.GameOver)})
}

// BenchmarkFullGames replays scripted whole games through the pure hub and
// reports segments per second (client segments in plus server segments out).
func BenchmarkFullGames(b *testing.B) {
	h := loggedInPair(b)
	game := fullGame()
	var segs int
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, in := range game {
			h.Step(int64(i), statemachine.Input{Kind: statemachine.InReceive, Conn: in.conn, Seg: in.seg})
		}
		rd := h.Ready()
		segs += len(game) + len(rd.Sends)
		h.Advance()
	}
	b.ReportMetric(float64(segs)/b.Elapsed().Seconds(), "segments/s")
	b.ReportMetric(float64(len(game)), "in-segments/game")
}

// startedGame returns a hub where Albert and Beth are guessing, Albert first.
func startedGame(tb testing.TB) *statemachine.Hub {
	h := loggedInPair(tb)
	for _, in := range fullGame()[:4] {
		h.Step(0, statemachine.Input{Kind: statemachine.InReceive, Conn: in.conn, Seg: in.seg})
	}
	h.Advance()
	return h
}

// BenchmarkRelayGuess measures one relayed guess (a miss each way keeps the
// game going forever).
func BenchmarkRelayGuess(b *testing.B) {
	h := startedGame(b)
	ga := segment.NewSingle(segment.Coord{X: 9, Y: 9}, segment.ASCII)
	gb := segment.NewSingle(segment.Coord{X: 9, Y: 0}, segment.ASCII)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			h.Step(0, statemachine.Input{Kind: statemachine.InReceive, Conn: 1, Seg: ga})
		} else {
			h.Step(0, statemachine.Input{Kind: statemachine.InReceive, Conn: 2, Seg: gb})
		}
		h.Advance()
	}
}

func TestRelayedGuessAllocatesNothing(t *testing.T) {
	h := startedGame(t)
	ga := segment.NewSingle(segment.Coord{X: 9, Y: 9}, segment.ASCII)
	gb := segment.NewDouble(segment.Coord{X: 0, Y: 0}, segment.Coord{X: 3, Y: 0}, segment.ASCII)
	allocs := testing.AllocsPerRun(1000, func() {
		h.Step(0, statemachine.Input{Kind: statemachine.InReceive, Conn: 1, Seg: ga})
		if len(h.Ready().Sends) != 1 {
			t.Fatal("guess not relayed")
		}
		h.Advance()
		h.Step(0, statemachine.Input{Kind: statemachine.InReceive, Conn: 2, Seg: gb})
		h.Advance()
	})
	if allocs != 0 {
		t.Fatalf("relaying a guess allocates %.1f times", allocs)
	}
}

func TestScriptedGameEnds(t *testing.T) {
	h := loggedInPair(t)
	var recs []record.Game
	for _, in := range fullGame() {
		h.Step(0, statemachine.Input{Kind: statemachine.InReceive, Conn: in.conn, Seg: in.seg})
		recs = append(recs, h.Ready().Records...)
		h.Advance()
	}
	if len(recs) != 1 || !slices.Equal(recs[0].Outcome.Winners, []rules.Player{0}) || len(recs[0].Moves) != 2+30+29 {
		t.Fatalf("records %+v", recs)
	}
}

// BenchmarkSessionStates: what the daemon's metrics cost the loop at each
// scrape among 10,000 logged-in users, counting the states
// (CountStates) against listing every session (Sessions, which the
// metrics used before).
func BenchmarkSessionStates(b *testing.B) {
	names := make([]string, 10000)
	for i := range names {
		names[i] = fmt.Sprintf("u%05d", i)
	}
	h := loggedIn(b, statemachine.Config{Casts: true}, names)
	b.Run("CountStates", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if h.CountStates()[statemachine.ServerStandBy] != 10000 {
				b.Fatal("miscounted")
			}
		}
	})
	b.Run("Sessions", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if len(h.Sessions(nil)) != 10000 {
				b.Fatal("miscounted")
			}
		}
	})
}
