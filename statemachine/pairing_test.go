package statemachine_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
	sm "github.com/bomber-game/bomber/statemachine"
)

// pairRig drives a hub as a cluster's leader does: it ticks only when
// NextDeadline says something is due, so a pool that waits for a tick
// nobody schedules never pairs. Every player is an extended client with
// quick pairing; the store's ratings come from ratings.
type pairRig struct {
	tb      testing.TB
	h       *sm.Hub
	now     int64
	ratings map[string]string // user: the Ratings reply's data
	asm     map[sm.ConnID]*segment.Assembler
	seeking map[sm.ConnID][]segment.SeekingBody // every Seeking each got
	joined  map[sm.ConnID]uint32                // the table each sits at
	started map[uint32]bool                     // tables whose game started
	keep    bool                                // keep the messages (off for benchmarks)
}

func newPairRig(tb testing.TB, cfg sm.Config) *pairRig {
	cfg.Games = sm.Catalogue()
	return &pairRig{tb: tb, h: sm.New(cfg), ratings: map[string]string{}, asm: map[sm.ConnID]*segment.Assembler{},
		seeking: map[sm.ConnID][]segment.SeekingBody{}, joined: map[sm.ConnID]uint32{}, started: map[uint32]bool{}, keep: true}
}

// drain hands the hub's outputs over: Ratings queries answered at once
// from ratings, messages read.
func (r *pairRig) drain() {
	for {
		rd := r.h.Ready()
		if rd.Empty() {
			return
		}
		checks := slices.Clone(rd.Checks)
		if r.keep {
			for _, s := range rd.Sends {
				r.read(s.Conn, s.Seg)
			}
		}
		r.h.Advance()
		for _, c := range checks {
			in := sm.Input{Kind: sm.InAnswer, Check: c.ID, Answer: sm.Found}
			if c.Kind == sm.Ratings {
				in = sm.Input{Kind: sm.InReply, Check: c.ID, Answer: sm.Found, Asked: sm.Ratings, Text: r.ratings[c.User]}
			}
			r.h.Step(r.now, in)
		}
	}
}

func (r *pairRig) read(c sm.ConnID, seg segment.Segment) {
	a := r.asm[c]
	if a == nil || !seg.Type.Extended() {
		return
	}
	t, body, done, err := a.Add(seg)
	if err != nil || !done {
		return
	}
	switch t {
	case segment.Seeking:
		b, err := segment.DecodeSeekingBody(body)
		if err != nil {
			r.tb.Fatal(err)
		}
		r.seeking[c] = append(r.seeking[c], b)
	case segment.Joined:
		b, _ := segment.DecodeJoinedBody(body)
		r.joined[c] = b.Table
	case segment.Started:
		b, _ := segment.DecodeStartedBody(body)
		r.started[b.Table] = true
	}
}

func (r *pairRig) step(in sm.Input) {
	r.h.Step(r.now, in)
	r.drain()
	if !r.keep {
		return
	}
	if err := r.h.CheckInvariants(); err != nil {
		r.tb.Fatal(err)
	}
}

func (r *pairRig) msg(c sm.ConnID, t segment.Type, body []byte) {
	for _, s := range segment.AppendMessage(nil, t, body) {
		r.step(sm.Input{Kind: sm.InReceive, Conn: c, Seg: s})
	}
}

// login connects c as name with every feature the hub offers.
func (r *pairRig) login(c sm.ConnID, name string) {
	r.asm[c] = &segment.Assembler{}
	r.step(sm.Input{Kind: sm.InOpen, Conn: c, Text: fmt.Sprint("10.0.", c/250, ".", c%250)})
	r.msg(c, segment.Hello, segment.HelloMsg{Version: 1, Features: 0xFFFF}.Append(nil))
	r.step(sm.Input{Kind: sm.InReceive, Conn: c, Seg: segment.Name(segment.Info, name)})
	r.step(sm.Input{Kind: sm.InReceive, Conn: c, Seg: segment.Name(segment.Passwd, "pw")})
}

// advance moves the clock to at, ticking whenever a deadline falls due on
// the way (and only then).
func (r *pairRig) advance(at int64) {
	for {
		d, ok := r.h.NextDeadline()
		if !ok || d > at {
			break
		}
		r.now = max(r.now, d)
		for _, in := range r.h.TickInputs(r.now, nil) {
			r.step(in)
		}
	}
	r.now = at
}

// TestPairManyPlayers: 200 players arrive at random times over 30 s of hub
// time for three games, two time controls and both rated and casual pools,
// with random ratings (some with none). Every one is paired with someone of
// the same pool, within both players' ranges as each was told them, or is
// offered a computer, no later than PairComputerAfter and one round after
// arriving; paired players sit at one started table of the game they asked.
func TestPairManyPlayers(t *testing.T) {
	r := newPairRig(t, sm.Config{})
	cfg := r.h.Config()
	rng := rand.New(rand.NewPCG(52, 200))
	games := []string{"checkers", "dots", "paisho"}
	clocks := [][]segment.KV{{{Key: "clock.total", Value: "180"}}, {{Key: "clock.total", Value: "600"}, {Key: "clock.increment", Value: "5"}}}
	type player struct {
		conn   sm.ConnID
		name   string
		game   string
		clock  int
		rated  uint8
		rating int
		at     int64
	}
	players := make([]player, 200)
	for i := range players {
		p := &players[i]
		p.conn, p.name = sm.ConnID(i+1), fmt.Sprintf("p%03d", i)
		p.game, p.clock, p.rated = games[rng.IntN(len(games))], rng.IntN(len(clocks)), uint8(rng.IntN(2))
		p.at = rng.Int64N(int64(30 * time.Second))
		p.rating = 800 + rng.IntN(1400)
		if i%10 != 0 { // one in ten has no rating yet: 1500, provisional
			r.ratings[p.name] = fmt.Sprintf("%s %d %d 40\n", p.game, p.rating, 50+rng.IntN(150))
		} else {
			p.rating = 1500
		}
	}
	slices.SortFunc(players, func(a, b player) int { return int(a.at - b.at) })
	byConn := map[sm.ConnID]*player{}
	for i := range players {
		p := &players[i]
		byConn[p.conn] = p
		r.advance(p.at)
		r.login(p.conn, p.name)
		r.msg(p.conn, segment.Seek, segment.SeekMsg{Action: segment.SeekPlay, Game: p.game, Rated: p.rated, Options: clocks[p.clock]}.Append(nil))
	}
	r.advance(int64(30*time.Second + cfg.PairComputerAfter + 2*cfg.PairRound))

	limit := int64(cfg.PairComputerAfter + cfg.PairRound)
	paired, offered := 0, 0
	for _, p := range players {
		got := r.seeking[p.conn]
		if len(got) == 0 || got[0].State != segment.SeekWaiting {
			t.Fatalf("%s was not told it waits: %+v", p.name, got)
		}
		if got[0].Rating != uint16(p.rating) {
			t.Errorf("%s waits at rating %d, has %d", p.name, got[0].Rating, p.rating)
		}
		done := false
		for _, b := range got {
			waited := int64(b.Waited) * int64(time.Second)
			switch {
			case b.State == segment.SeekPaired:
				if waited > limit {
					t.Errorf("%s paired after %v", p.name, time.Duration(waited))
				}
				tb := r.joined[p.conn]
				var opp *player
				for c, id := range r.joined {
					if id == tb && c != p.conn {
						opp = byConn[c]
					}
				}
				switch {
				case opp == nil:
					t.Errorf("%s paired at table %d alone", p.name, tb)
				case opp.game != p.game || opp.clock != p.clock || opp.rated != p.rated:
					t.Errorf("%s (%s) paired with %s (%s) from another pool", p.name, p.game, opp.name, opp.game)
				case opp.rating < int(b.Low) || opp.rating > int(b.High):
					t.Errorf("%s accepts %d..%d, paired with %s at %d", p.name, b.Low, b.High, opp.name, opp.rating)
				case !r.started[tb]:
					t.Errorf("%s's table %d did not start", p.name, tb)
				}
				paired++
				done = true
			case b.Flags&segment.SeekComputerOffered != 0:
				if waited > limit {
					t.Errorf("%s offered a computer after %v", p.name, time.Duration(waited))
				}
				offered++
				done = true
			}
			if done {
				break
			}
		}
		if !done {
			t.Errorf("%s neither paired nor offered a computer: %+v", p.name, got)
		}
	}
	t.Logf("%d paired, %d offered a computer", paired, offered)
	if paired < len(players)/2 {
		t.Errorf("only %d of %d paired", paired, len(players))
	}
}

// BenchmarkPairingRound: one pairing round over 1,000 waiting players in
// six pools (three games, two time controls). "pairs": ratings spread from
// 800 to 2200, so the round pairs most of them and starts their games (the
// games' starts cost most of it); "none": ratings too far apart for
// anyone's range, the cost of matching alone and of telling everyone its
// wider range.
func BenchmarkPairingRound(b *testing.B) {
	b.Run("pairs", func(b *testing.B) {
		benchRound(b, sm.Config{}, func(i int, rng *rand.Rand) int { return 800 + rng.IntN(1400) })
	})
	b.Run("none", func(b *testing.B) {
		benchRound(b, sm.Config{PairRange: 5, PairWiden: 1, PairRangeCap: 10}, func(i int, _ *rand.Rand) int { return 800 + 20*i })
	})
}

func benchRound(b *testing.B, cfg sm.Config, rating func(int, *rand.Rand) int) {
	clocks := [][]segment.KV{{{Key: "clock.total", Value: "180"}}, {{Key: "clock.total", Value: "600"}}}
	games := []string{"checkers", "dots", "paisho"}
	paired := uint64(0)
	for b.Loop() {
		b.StopTimer()
		r := newPairRig(b, cfg)
		r.keep = false
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range 1000 {
			name := fmt.Sprintf("p%04d", i)
			game := games[i%3]
			r.ratings[name] = fmt.Sprintf("%s %d 60 30\n", game, rating(i, rng))
			r.login(sm.ConnID(i+1), name)
			r.msg(sm.ConnID(i+1), segment.Seek, segment.SeekMsg{Game: game, Options: clocks[i/3%2]}.Append(nil))
		}
		before := r.h.Stats().Pairing.Pairings
		at, _ := r.h.NextDeadline()
		r.now = at
		b.StartTimer()
		sm.StepTime(r.h, r.now)
		r.h.Advance()
		paired += r.h.Stats().Pairing.Pairings - before
	}
	b.ReportMetric(float64(paired)/float64(b.N), "pairs/round")
}
