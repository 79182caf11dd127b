package statemachine_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/client/tables"
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// fanout feeds the same events to several hubs.
type fanout struct{ hs []*statemachine.Hub }

func (f *fanout) Open(now int64, c statemachine.ConnID) {
	for _, h := range f.hs {
		h.Step(now, statemachine.Input{Kind: statemachine.InOpen, Conn: c})
	}
}

func (f *fanout) Closed(now int64, c statemachine.ConnID) {
	for _, h := range f.hs {
		h.Step(now, statemachine.Input{Kind: statemachine.InClosed, Conn: c})
	}
}

func (f *fanout) Receive(now int64, c statemachine.ConnID, s segment.Segment) {
	for _, h := range f.hs {
		h.Step(now, statemachine.Input{Kind: statemachine.InReceive, Conn: c, Seg: s})
	}
}

func (f *fanout) BotMove(now int64, a statemachine.BotAnswer) {
	for _, h := range f.hs {
		h.Step(now, statemachine.Input{Kind: statemachine.InBot, Bot: a})
	}
}

// Tick lets time pass as a cluster does: the first hub (the leader) says
// which inputs that takes, and every copy applies them.
func (f *fanout) Tick(now int64) {
	for _, in := range f.hs[0].TickInputs(now, nil) {
		for _, h := range f.hs {
			h.Step(now, in)
		}
	}
}

func (f *fanout) Answer(now int64, id uint64, a statemachine.Answer) {
	for _, h := range f.hs {
		h.Step(now, statemachine.Input{Kind: statemachine.InAnswer, Check: id, Answer: a})
	}
}

// snapshotTwin restores a hub from a snapshot of twin (of h when there is
// none yet, so copies of copies are tested too). A twin that has been
// following h must snapshot to the same bytes as h: same state.
func snapshotTwin(tb testing.TB, h, twin *statemachine.Hub, cfg statemachine.Config) *statemachine.Hub {
	tb.Helper()
	src := twin
	if src == nil {
		src = h
	}
	snap, err := src.Snapshot()
	if err != nil {
		tb.Fatalf("snapshot: %v", err)
	}
	if twin != nil {
		orig, err := h.Snapshot()
		if err != nil {
			tb.Fatalf("snapshot: %v", err)
		}
		if !bytes.Equal(orig, snap) {
			tb.Fatalf("the restored hub's state drifted from the original's (%d and %d bytes)", len(orig), len(snap))
		}
	}
	r, err := statemachine.Restore(cfg, snap)
	if err != nil {
		tb.Fatalf("restore: %v", err)
	}
	return r
}

// sameReady fails unless a restored hub's outputs b are the original's a.
func sameReady(tb testing.TB, step int, a, b *statemachine.Ready) {
	tb.Helper()
	switch {
	case !slices.Equal(a.Sends, b.Sends):
		tb.Fatalf("step %d: the restored hub sent\n%v\nthe original\n%v", step, b.Sends, a.Sends)
	case !slices.Equal(a.Closes, b.Closes):
		tb.Fatalf("step %d: closes %v, the original %v", step, b.Closes, a.Closes)
	case !slices.Equal(a.Checks, b.Checks):
		tb.Fatalf("step %d: checks %v, the original %v", step, b.Checks, a.Checks)
	case !slices.Equal(a.Notices, b.Notices):
		tb.Fatalf("step %d: notices %v, the original %v", step, b.Notices, a.Notices)
	case len(a.Records) != len(b.Records) || len(a.Records) > 0 && !reflect.DeepEqual(a.Records, b.Records): // nil and empty alike
		tb.Fatalf("step %d: records\n%+v\nthe original\n%+v", step, b.Records, a.Records)
	case len(a.Bots) != len(b.Bots):
		tb.Fatalf("step %d: %d bot requests, the original %d", step, len(b.Bots), len(a.Bots))
	}
	for i := range a.Bots {
		x, y := a.Bots[i], b.Bots[i]
		if x.Table != y.Table || x.Seat != y.Seat || x.Seq != y.Seq || x.Game != y.Game || x.Seed != y.Seed || x.View.Player() != y.View.Player() {
			tb.Fatalf("step %d: bot request %+v, the original %+v", step, y, x)
		}
		// the same game as the seat may see it: the same picture, the same
		// choices, and (through a clone's position-seeded dice) the same bot move
		gx, gy, p := x.View.Game(), y.View.Game(), x.Seat
		if !reflect.DeepEqual(gx.Observe(p), gy.Observe(p)) || gx.View(p) != gy.View(p) || !slices.Equal(gx.Legal(p, nil), gy.Legal(p, nil)) {
			tb.Fatalf("step %d: bot request %d sees another game", step, i)
		}
	}
}

// TestSnapshotConfig: every setting but Games and Casts comes back from
// the snapshot (a setting added to Config and not to the format fails here).
func TestSnapshotConfig(t *testing.T) {
	var cfg statemachine.Config
	v := reflect.ValueOf(&cfg).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Int, reflect.Int64:
			f.SetInt(int64(i + 2))
		case reflect.Uint8:
			f.SetUint(1)
		case reflect.Bool:
			f.SetBool(true)
		}
	}
	h := statemachine.New(cfg)
	snap, err := h.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	games := statemachine.Catalogue()
	// the catalogue and Casts are the restoring shell's, not the snapshot's
	r, err := statemachine.Restore(statemachine.Config{Games: games, KickGrace: time.Hour, Casts: true}, snap)
	if err != nil {
		t.Fatal(err)
	}
	want := h.Config()
	want.Games = games
	if got := r.Config(); !reflect.DeepEqual(got, want) {
		t.Fatalf("restored config\n%+v\nwant\n%+v", got, want)
	}
}

// TestSnapshotNeedsAdvance: outputs not yet handled are not state; a
// snapshot then is refused rather than silently losing them.
func TestSnapshotNeedsAdvance(t *testing.T) {
	h := statemachine.New(statemachine.Config{LoginTimeout: time.Second})
	h.Step(0, statemachine.Input{Kind: statemachine.InOpen, Conn: 1})
	h.Step(0, statemachine.Input{Kind: statemachine.InClosed, Conn: 1})
	h.Step(0, statemachine.Input{Kind: statemachine.InOpen, Conn: 2})
	statemachine.StepTime(h, int64(time.Hour))
	if _, err := h.Snapshot(); err == nil {
		t.Fatal("snapshot with a close not advanced")
	}
	h.Advance()
	if _, err := h.Snapshot(); err != nil {
		t.Fatal(err)
	}
}

// swap moves x to a hub restored from a snapshot of its hub. The old hub
// is dropped, so the new one may share its entropy source.
func (x *harness) swap(cfg statemachine.Config) {
	x.tb.Helper()
	snap, err := x.h.Snapshot()
	if err != nil {
		x.tb.Fatal(err)
	}
	if x.h, err = statemachine.Restore(cfg, snap); err != nil {
		x.tb.Fatal(err)
	}
}

// swapPlay is harness.play, but at the moves where swap says so the game
// goes on in a hub restored from a snapshot of the current one.
func (x *harness) swapPlay(d *tables.Driver, players []statemachine.ConnID, swap func(move int) bool, cfg statemachine.Config) (swaps int) {
	x.tb.Helper()
	x.playWith(d, players, func(moves int) {
		if swap(moves) {
			x.swap(cfg)
			swaps++
		}
	})
	return swaps
}

// TestSnapshotMidGame plays every game of the catalogue to the end with
// its largest number of seats and a watcher, twice: once on one hub, once
// moving to a hub restored from a snapshot at several points of the game
// (before the first move, early, at random points). Everything every
// connection received, the record and the counters must be the same.
func TestSnapshotMidGame(t *testing.T) {
	small := map[string][]segment.KV{"dots": {{Key: "rows", Value: "3"}, {Key: "cols", Value: "3"}}, "paisho": {{Key: "move-limit", Value: "60"}}}
	for gi, e := range statemachine.Catalogue() {
		for _, seed := range []uint64{1, 2} {
			t.Run(fmt.Sprintf("%s/%d", e.Spec.Name, seed), func(t *testing.T) {
				cfg := statemachine.Config{Games: statemachine.Catalogue()}
				run := func(swap func(int) bool) (*harness, []statemachine.ConnID, int) {
					c := cfg
					x := newSeededHarness(t, c, statemachine.SeedInput(seed).Seed)
					var conns []statemachine.ConnID
					for i := range e.Spec.MaxPlayers {
						conns = append(conns, x.login(names[i]))
					}
					w := x.login(names[5])
					x.table(e.Spec.Name, small[e.Spec.Name], conns, w)
					x.send(w, segment.Chat, segment.ChatBody{Scope: 2, Text: "watching"}.Append(nil))
					x.send(conns[0], segment.Chat, segment.ChatBody{Scope: 1, Text: "good luck"}.Append(nil))
					opts := rules.Options{}
					for _, kv := range small[e.Spec.Name] {
						opts[kv.Key] = kv.Value
					}
					d := tables.New(e.Spec, opts, len(conns), uint64(gi)*10+seed)
					d.Text = seed == 2
					d.MaxMoves = 400
					n := x.swapPlay(d, conns, swap, cfg)
					if len(d.Errors) > 0 {
						t.Fatalf("the server refused moves: %v", d.Errors)
					}
					// after the end: a rematch offer stands across one more
					// swap, and the rematch draws its seed after it
					x.send(conns[0], segment.Offer, segment.OfferMsg{What: 2}.Append(nil))
					if n > 0 {
						x.swap(cfg)
					}
					for _, c := range conns[1:] {
						x.send(c, segment.Offer, segment.OfferMsg{What: 2, Answer: 1}.Append(nil))
					}
					return x, append(conns, w), n
				}
				rng := rand.New(rand.NewPCG(seed, 9))
				a, conns, _ := run(func(int) bool { return false })
				b, _, swaps := run(func(m int) bool { return m == 0 || m == 1 || m == 3 || rng.IntN(8) == 0 })
				if swaps < 3 {
					t.Fatalf("only %d swaps", swaps)
				}
				for _, c := range conns {
					if !slices.EqualFunc(a.all[c], b.all[c], sameMsg) {
						t.Fatalf("conn %d received different messages after restores (%d and %d)", c, len(a.all[c]), len(b.all[c]))
					}
				}
				if !reflect.DeepEqual(a.records, b.records) || len(a.records) != 1 {
					t.Fatalf("records differ:\n%+v\n%+v", a.records, b.records)
				}
				if a.h.Stats().GamesStarted != 2 {
					t.Fatalf("%d games started, want the game and its rematch", a.h.Stats().GamesStarted)
				}
				if *a.h.Stats() != *b.h.Stats() {
					t.Fatalf("stats differ:\n%+v\n%+v", *a.h.Stats(), *b.h.Stats())
				}
				sa, _ := a.h.Snapshot()
				sb, _ := b.h.Snapshot()
				if !bytes.Equal(sa, sb) {
					t.Fatal("the hubs end in different states")
				}
			})
		}
	}
}

// TestRestoreRefusesBadInput: a wrong version, truncations and a game
// unknown to the catalogue are errors wrapping ErrSnapshot.
func TestRestoreRefusesBadInput(t *testing.T) {
	x := newHarness(t, statemachine.Config{})
	a, b := x.login("Albert"), x.login("Beth")
	x.table("checkers", nil, []statemachine.ConnID{a, b})
	x.send(a, segment.Ready, nil)
	x.send(b, segment.Ready, nil)
	snap, err := x.h.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	cfg := statemachine.Config{Games: statemachine.Catalogue()}
	if _, err := statemachine.Restore(cfg, snap); err != nil {
		t.Fatal(err)
	}
	bad := [][]byte{nil, {99}, append([]byte{99}, snap[1:]...), snap[:len(snap)-1], append(slices.Clone(snap), 0)}
	for i := 1; i < len(snap); i += 7 {
		bad = append(bad, snap[:i])
	}
	for i, in := range bad {
		if _, err := statemachine.Restore(cfg, in); !errors.Is(err, statemachine.ErrSnapshot) {
			t.Errorf("input %d (%d bytes): %v", i, len(in), err)
		}
	}
	// without checkers in the catalogue the table cannot be rebuilt
	if _, err := statemachine.Restore(statemachine.Config{}, snap); !errors.Is(err, statemachine.ErrSnapshot) {
		t.Errorf("restored a checkers table without checkers: %v", err)
	}
}

// fuzzSnapshots are snapshots of hubs in many states, for FuzzRestore's
// corpus: the FuzzHub seeds, each snapshotted at every step.
func fuzzSnapshots(tb testing.TB) [][]byte {
	var out [][]byte
	x := newHarness(tb, statemachine.Config{})
	a, b, w := x.login("Albert"), x.login("Beth"), x.login("Cindy")
	x.table("aeroplane", nil, []statemachine.ConnID{a, b}, w)
	x.send(a, segment.Ready, nil)
	x.send(b, segment.Ready, nil)
	x.send(a, segment.MoveText, []byte("roll"))
	x.send(w, segment.Chat, segment.ChatBody{Scope: 2, Text: "hi"}.Append(nil))
	x.h.Step(x.now, statemachine.Input{Kind: statemachine.InOpen, Conn: 100})
	x.h.Step(x.now, statemachine.Input{Kind: statemachine.InReceive, Conn: 100, Seg: segment.Name(segment.Info, "Dora")}) // a check in flight
	x.h.Step(x.now, statemachine.Input{Kind: statemachine.InReceive, Conn: 100, Seg: segment.Name(segment.Passwd, "1")})  // queued behind it
	for _, s := range segment.AppendMessage(nil, segment.Chat, segment.ChatBody{Text: string(make([]byte, 40))}.Append(nil))[:1] {
		x.h.Step(x.now, statemachine.Input{Kind: statemachine.InReceive, Conn: a, Seg: s}) // half a message
	}
	x.h.Advance()
	snap, err := x.h.Snapshot()
	if err != nil {
		tb.Fatal(err)
	}
	out = append(out, snap)
	// a reference match at every step, and a throttled login held back
	h := loggedInPair(tb)
	for _, in := range fullGame()[:12] {
		h.Step(0, statemachine.Input{Kind: statemachine.InReceive, Conn: in.conn, Seg: in.seg})
		h.Advance()
		snap, err := h.Snapshot()
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, snap)
	}
	h.Step(0, statemachine.ConfigInput(statemachine.Config{LoginFailures: 1, LoginWindow: time.Minute, SegmentRate: 5, KickGrace: time.Second}))
	for c := statemachine.ConnID(10); c < 13; c++ {
		h.Step(0, statemachine.Input{Kind: statemachine.InOpen, Conn: c, Text: fmt.Sprint("10.0.0.", c%2)})
		h.Step(0, statemachine.Input{Kind: statemachine.InReceive, Conn: c, Seg: segment.Name(segment.Info, "Albert")})
		for _, ch := range h.Ready().Checks {
			h.Step(0, statemachine.Input{Kind: statemachine.InAnswer, Check: ch.ID, Answer: statemachine.Found})
		}
		h.Advance()
		h.Step(0, statemachine.Input{Kind: statemachine.InReceive, Conn: c, Seg: segment.Name(segment.Passwd, "bad")})
		for _, ch := range h.Ready().Checks {
			h.Step(0, statemachine.Input{Kind: statemachine.InAnswer, Check: ch.ID, Answer: statemachine.WrongPassword})
		}
		h.Advance()
	}
	if snap, err = h.Snapshot(); err != nil {
		tb.Fatal(err)
	}
	return append(out, snap)
}

// TestSnapshotReferenceMatch: a reference client's Bomber match (a table
// in no map, reached through its players) restored before every segment of
// a whole game goes on exactly as the original.
func TestSnapshotReferenceMatch(t *testing.T) {
	game := fullGame()
	for k := range game {
		h := loggedInPair(t)
		var twin *statemachine.Hub
		for i, in := range game {
			if i == k {
				twin = snapshotTwin(t, h, nil, statemachine.Config{})
			}
			h.Step(int64(i), statemachine.Input{Kind: statemachine.InReceive, Conn: in.conn, Seg: in.seg})
			if twin != nil {
				twin.Step(int64(i), statemachine.Input{Kind: statemachine.InReceive, Conn: in.conn, Seg: in.seg})
				sameReady(t, i, h.Ready(), twin.Ready())
				twin.Advance()
			}
			h.Advance()
		}
		if h.Stats().GamesEnded[record.Won.Index()] != 1 || *h.Stats() != *twin.Stats() {
			t.Fatalf("restored at %d: stats\n%+v\n%+v", k, *h.Stats(), *twin.Stats())
		}
	}
}

// FuzzRestore: Restore never panics, and what it accepts is a working hub:
// consistent, snapshotting to the same bytes, and surviving time passing
// and a shutdown.
func FuzzRestore(f *testing.F) {
	for _, s := range fuzzSnapshots(f) {
		f.Add(s)
	}
	f.Add([]byte{1})
	cfg := statemachine.Config{Games: statemachine.Catalogue()}
	f.Fuzz(func(t *testing.T, in []byte) {
		h, err := statemachine.Restore(cfg, in)
		if err != nil {
			if !errors.Is(err, statemachine.ErrSnapshot) {
				t.Fatalf("error %v does not wrap ErrSnapshot", err)
			}
			return
		}
		again, err := h.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := statemachine.Restore(cfg, again); err != nil {
			t.Fatalf("a restored hub's snapshot does not restore: %v", err)
		}
		statemachine.StepTime(h, 1<<62)
		h.Advance()
		if err := h.CheckInvariants(); err != nil {
			t.Fatal(err)
		}
		h.Step(1<<62, statemachine.Input{Kind: statemachine.InShutdown})
	})
}

// bigHub has users extended users logged in and tables games of checkers,
// dots and Pai Sho being played (a few moves each), with chat.
func bigHub(tb testing.TB, users, games int) (*statemachine.Hub, statemachine.Config) {
	cfg := statemachine.Config{Games: statemachine.Catalogue(), MaxTablesPerUser: 3}
	h := statemachine.New(cfg)
	h.Step(0, statemachine.SeedInput(1))
	var now int64
	var checks []statemachine.Check
	step := func() {
		checks = append(checks[:0], h.Ready().Checks...)
		h.Advance()
	}
	hello := segment.AppendMessage(nil, segment.Hello, segment.HelloMsg{Version: 1, Features: 31}.Append(nil))[0]
	for i := range users {
		c := statemachine.ConnID(i + 1)
		h.Step(now, statemachine.Input{Kind: statemachine.InOpen, Conn: c, Text: fmt.Sprintf("10.0.%d.%d", i/256, i%256)})
		h.Step(now, statemachine.Input{Kind: statemachine.InReceive, Conn: c, Seg: hello})
		h.Step(now, statemachine.Input{Kind: statemachine.InReceive, Conn: c, Seg: segment.Name(segment.Info, fmt.Sprintf("user%05d", i))})
		step()
		h.Step(now, statemachine.Input{Kind: statemachine.InAnswer, Check: checks[0].ID, Answer: statemachine.Found})
		step()
		h.Step(now, statemachine.Input{Kind: statemachine.InReceive, Conn: c, Seg: segment.Name(segment.Passwd, "123")})
		step()
		h.Step(now, statemachine.Input{Kind: statemachine.InAnswer, Check: checks[0].ID, Answer: statemachine.Found})
		step()
	}
	msg := func(c statemachine.ConnID, t segment.Type, body []byte) {
		for _, s := range segment.AppendMessage(nil, t, body) {
			h.Step(now, statemachine.Input{Kind: statemachine.InReceive, Conn: c, Seg: s})
		}
		step()
	}
	names := []string{"checkers", "dots", "paisho"}
	for i := range games {
		a, b := statemachine.ConnID(2*i+1), statemachine.ConnID(2*i+2)
		e := statemachine.Catalogue()[1]
		for _, g := range statemachine.Catalogue() {
			if g.Spec.Name == names[i%3] {
				e = g
			}
		}
		msg(a, segment.Create, segment.CreateMsg{Game: e.Spec.Name, Seats: 2}.Append(nil))
		msg(b, segment.Join, segment.JoinMsg{Table: uint32(i + 1), Seat: 0xFF}.Append(nil))
		msg(a, segment.Ready, nil)
		msg(b, segment.Ready, nil)
		msg(a, segment.Chat, segment.ChatBody{Scope: 1, Text: "good luck"}.Append(nil))
		g, _ := e.Spec.New(2, rules.Options{}, nil) // these games draw nothing: a local copy follows
		for range 10 {
			p := g.ToMove(nil)[0]
			m := g.Legal(p, nil)[0]
			msg([]statemachine.ConnID{a, b}[p], segment.MoveText, []byte(g.FormatMove(m)))
			g.Play(p, m, nil)
		}
	}
	if h.Online() != users || h.Stats().TableMoves != uint64(10*games) {
		tb.Fatalf("%d online, %d moves", h.Online(), h.Stats().TableMoves)
	}
	return h, cfg
}

// BenchmarkSnapshot: Snapshot and Restore of a hub with 10,000 users
// logged in and 1,000 tables in play.
func BenchmarkSnapshot(b *testing.B) {
	h, cfg := bigHub(b, 10000, 1000)
	snap, err := h.Snapshot()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Snapshot", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := h.Snapshot(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(snap)), "bytes")
	})
	b.Run("Restore", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := statemachine.Restore(cfg, snap); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(snap)), "bytes")
	})
}

// TestCreateUnknownOptionsAnswerAlike: a Create with several unknown
// options is refused naming the first in key order, every time, so every
// copy of a replicated hub sends the same bytes (the rules' own check
// names the first in map order).
func TestCreateUnknownOptionsAnswerAlike(t *testing.T) {
	for range 20 {
		x := newHarness(t, statemachine.Config{})
		a := x.login("Albert")
		x.send(a, segment.Create, segment.CreateMsg{Game: "dots", Seats: 2, Options: []segment.KV{{Key: "zz", Value: "1"}, {Key: "rows", Value: "3"}, {Key: "mm", Value: "1"}, {Key: "bb", Value: "1"}}}.Append(nil))
		var text string
		for _, m := range x.take(a) {
			if m.t == segment.ErrorMsg {
				e, _ := segment.DecodeErrorBody(m.body)
				text = e.Text
			}
		}
		if !strings.Contains(text, `"bb"`) {
			t.Fatalf("Create refused with %q, want the first unknown key \"bb\"", text)
		}
	}
}

// TestSnapshotBareConnections: connections that have sent nothing encode
// in a few bytes each; the counts Restore checks against the input's
// length must still let them through.
func TestSnapshotBareConnections(t *testing.T) {
	h := statemachine.New(statemachine.Config{})
	for c := range statemachine.ConnID(127) {
		h.Step(0, statemachine.Input{Kind: statemachine.InOpen, Conn: c + 1})
	}
	snap, err := h.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	r, err := statemachine.Restore(statemachine.Config{}, snap)
	if err != nil {
		t.Fatal(err)
	}
	if r.Connections() != 127 {
		t.Fatalf("%d connections restored", r.Connections())
	}
}

// TestSnapshotAeroplaneLeftSeat: four seats of Aeroplane Chess, two people
// and two computer players; one person leaves mid-game (the game goes on
// without the seat). Copies restored again and again (each from the last)
// roll the same dice and send the same bytes as the original to the end.
func TestSnapshotAeroplaneLeftSeat(t *testing.T) {
	cfg := statemachine.Config{Games: statemachine.Catalogue()}
	h := statemachine.New(cfg)
	h.Step(0, statemachine.SeedInput(5))
	hub := &fanout{hs: []*statemachine.Hub{h}}
	var twin *statemachine.Hub
	var bots []statemachine.BotRequest
	var checks []statemachine.Check
	n := 0
	step := func() {
		t.Helper()
		n++
		rd := h.Ready()
		if twin != nil {
			sameReady(t, n, rd, twin.Ready())
			twin.Advance()
		}
		bots = append(bots, rd.Bots...)
		checks = append(checks[:0], rd.Checks...)
		h.Advance()
	}
	send := func(c statemachine.ConnID, ty segment.Type, body []byte) {
		t.Helper()
		for _, s := range segment.AppendMessage(nil, ty, body) {
			hub.Receive(0, c, s)
		}
		step()
	}
	for i, name := range []string{"Albert", "Beth"} {
		c := statemachine.ConnID(i + 1)
		hub.Open(0, c)
		send(c, segment.Hello, segment.HelloMsg{Version: 1, Features: 31}.Append(nil))
		for _, s := range []segment.Segment{segment.Name(segment.Info, name), segment.Name(segment.Passwd, "123")} {
			hub.Receive(0, c, s)
			step()
			hub.Answer(0, checks[0].ID, statemachine.Found)
			step()
		}
	}
	send(1, segment.Create, segment.CreateMsg{Game: "aeroplane", Seats: 4}.Append(nil))
	send(2, segment.Join, segment.JoinMsg{Table: 1, Seat: 0xFF}.Append(nil))
	send(1, segment.Bot, segment.BotMsg{Seat: 0xFF}.Append(nil))
	send(2, segment.Ready, nil)
	if h.Stats().GamesStarted != 1 {
		t.Fatal("the game did not start")
	}
	restores := 0
	for i := 0; i < 3000 && h.Stats().GamesEnded == (statemachine.Stats{}).GamesEnded; i++ {
		if i%50 == 25 {
			twin = snapshotTwin(t, h, twin, cfg)
			hub.hs = []*statemachine.Hub{h, twin}
			restores++
		}
		if i == 200 {
			send(2, segment.Leave, nil)
			if h.Stats().GamesEnded != (statemachine.Stats{}).GamesEnded {
				t.Fatal("the game ended when one of four left")
			}
		}
		if len(bots) > 0 {
			a, err := statemachine.RunBot(bots[0])
			bots = bots[1:]
			if err != nil {
				t.Fatal(err)
			}
			hub.BotMove(0, a)
			step()
			continue
		}
		// the people try every move; the rules refuse all but the legal one
		for _, c := range []statemachine.ConnID{1, 2} {
			for _, m := range []string{"roll", "move 0", "move 1", "move 2", "move 3"} {
				send(c, segment.MoveText, []byte(m))
			}
		}
	}
	t.Logf("%d restores, %d moves, %d bot moves", restores, h.Stats().TableMoves, h.Stats().BotMoves)
	if h.Stats().GamesEnded == (statemachine.Stats{}).GamesEnded || restores < 3 || h.Stats().TableMoves < 100 {
		t.Fatalf("%d restores, %d moves, ended %v", restores, h.Stats().TableMoves, h.Stats().GamesEnded)
	}
	if *h.Stats() != *twin.Stats() {
		t.Fatalf("stats differ:\n%+v\n%+v", *h.Stats(), *twin.Stats())
	}
}

// TestSnapshotThrottle: failed-login counters, a name under attack with a
// password check held back, and their deadlines survive a restore: the
// copy's next deadline and everything it does as time passes are the
// original's.
func TestSnapshotThrottle(t *testing.T) {
	cfg := statemachine.Config{LoginFailures: 2, LoginWindow: time.Minute, LoginLockout: 5 * time.Minute}
	h := statemachine.New(cfg)
	hub := &fanout{hs: []*statemachine.Hub{h}}
	var twin *statemachine.Hub
	var now int64
	step := func() []statemachine.Check {
		t.Helper()
		rd := h.Ready()
		checks := slices.Clone(rd.Checks)
		if twin != nil {
			sameReady(t, 0, rd, twin.Ready())
			twin.Advance()
		}
		h.Advance()
		return checks
	}
	login := func(c statemachine.ConnID, source, password string) {
		hub.hs[0].Step(now, statemachine.Input{Kind: statemachine.InOpen, Conn: c, Text: source})
		if twin != nil {
			twin.Step(now, statemachine.Input{Kind: statemachine.InOpen, Conn: c, Text: source})
		}
		hub.Receive(now, c, segment.Name(segment.Info, "Albert"))
		for _, ch := range step() {
			hub.Answer(now, ch.ID, statemachine.Found)
		}
		step()
		hub.Receive(now, c, segment.Name(segment.Passwd, password))
		for _, ch := range step() {
			a := statemachine.Found
			if ch.Password != "123" {
				a = statemachine.WrongPassword
			}
			hub.Answer(now, ch.ID, a)
		}
		step()
	}
	for c := range statemachine.ConnID(4) {
		login(c+1, fmt.Sprint("10.0.0.", c), "guess")
		now += int64(time.Second)
		hub.Tick(now) // sets the next sweep of the counters
		step()
	}
	login(9, "10.0.1.1", "123")                                                            // the owner, held back: the name is under attack
	h.Step(now, statemachine.Input{Kind: statemachine.InOpen, Conn: 20, Text: "10.0.0.1"}) // a connection from an address that failed
	twin = snapshotTwin(t, h, nil, cfg)
	hub.hs = []*statemachine.Hub{h, twin}
	// its password for the name under attack is refused: its address has
	// failed, and the notice names the address
	hub.Receive(now, 20, segment.Name(segment.Info, "Albert"))
	for _, ch := range step() {
		hub.Answer(now, ch.ID, statemachine.Found)
	}
	step()
	hub.Receive(now, 20, segment.Name(segment.Passwd, "guess"))
	if rd := h.Ready(); len(rd.Notices) != 1 || rd.Notices[0].Source != "10.0.0.1" {
		t.Fatalf("notices %+v", rd.Notices)
	}
	step()
	at, ok := h.NextDeadline()
	if at2, ok2 := twin.NextDeadline(); !ok || at != at2 || ok2 != ok {
		t.Fatalf("next deadline %d %v, the original's %d %v", at2, ok2, at, ok)
	}
	login(10, "10.0.1.2", "123") // held back after the first: the spacing survived
	held := false
	for range 40 {
		now += int64(10 * time.Second)
		hub.Tick(now)
		for _, ch := range step() {
			held = true
			hub.Answer(now, ch.ID, statemachine.Found)
		}
		step()
		a, _ := h.NextDeadline()
		if b, _ := twin.NextDeadline(); a != b {
			t.Fatalf("next deadline %d, the original's %d", b, a)
		}
	}
	if !held || h.Stats().Throttled == 0 && h.Stats().LoginsOK == 0 {
		t.Fatalf("nothing was held back: %+v", *h.Stats())
	}
	if *h.Stats() != *twin.Stats() {
		t.Fatalf("stats differ:\n%+v\n%+v", *h.Stats(), *twin.Stats())
	}
}

// TestSnapshotChatHistory: a table's chat past its 50 kept lines (a ring)
// comes back in order: who sits down after a restore is sent the same
// history as without one.
func TestSnapshotChatHistory(t *testing.T) {
	run := func(restore bool) []msg {
		x := newHarness(t, statemachine.Config{})
		a, b, c := x.login("Albert"), x.login("Beth"), x.login("Cindy")
		x.send(a, segment.Create, segment.CreateMsg{Game: "aeroplane", Seats: 3}.Append(nil))
		x.send(b, segment.Join, segment.JoinMsg{Table: 1, Seat: 0xFF}.Append(nil))
		for i := range 73 {
			x.now += int64(time.Second)
			x.send([]statemachine.ConnID{a, b}[i%2], segment.Chat, segment.ChatBody{Scope: 1, Text: fmt.Sprint("line ", i)}.Append(nil))
		}
		if restore {
			x.swap(statemachine.Config{Games: statemachine.Catalogue()})
		}
		x.take(c)
		x.send(c, segment.Join, segment.JoinMsg{Table: 1, Seat: 0xFF}.Append(nil))
		return x.take(c)
	}
	want, got := run(false), run(true)
	if len(want) < 50 || !slices.EqualFunc(want, got, sameMsg) {
		t.Fatalf("the history after a restore differs (%d and %d messages)", len(got), len(want))
	}
}

// TestSnapshotRandomRuns runs FuzzHub's property over random inputs that
// log four users in and then mostly send extended messages, answer bots
// and let time pass, restoring copies at random steps: clocks, offers,
// held seats, bots and rate limits all meet restores without a fuzzing run.
func TestSnapshotRandomRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	runs := 300
	if testing.Short() {
		runs = 30
	}
	for run := range runs {
		var ops []byte
		for w := range byte(3) {
			ops = append(ops, 20, w, 0, 6, w, w, 4, 0, 0, 7, w, 1, 4, 0, 0)
		}
		for range 150 + rng.IntN(150) {
			who := byte(rng.IntN(4))
			if rng.IntN(12) == 0 {
				who |= 0x80 // restore a copy here
			}
			arg := byte(rng.IntN(256))
			var op byte
			switch k := rng.IntN(100); {
			case k < 45:
				op = 21 + byte(rng.IntN(3))
			case k < 57:
				op = 17 // a bot's answer
			case k < 70:
				op, arg = 2, arg%12 // time passes
			case k < 75:
				op = 18 // resume
			case k < 80:
				op = 4 + byte(rng.IntN(2))
			case k < 83:
				op = 1 // a connection drops
			case k < 86:
				ops = append(ops, 20, who, 0, 6, who, who, 4, 0, 0, 7, who, 1, 4, 0, 0)
				continue
			default:
				op = 6 + byte(rng.IntN(11))
			}
			ops = append(ops, op, who, arg)
		}
		if run%3 == 0 {
			ops = append(ops, 0) // with login throttling and rate limits
		}
		t.Run(fmt.Sprint(run), func(t *testing.T) { runHub(t, ops) })
	}
}

// TestTableOpsWaitForInvitations: a user inviting with the reference
// protocol, or playing a reference match, cannot sit down at a table (its
// peer would be left dangling) nor chat into the match (its players are
// reference clients); found by TestSnapshotRandomRuns. A user invited that
// way who sits down instead refuses the invitation, so neither waits.
func TestTableOpsWaitForInvitations(t *testing.T) {
	x := newHarness(t, statemachine.Config{})
	a, b := x.login("Albert"), x.login("Beth")
	x.raw(a, segment.Name(segment.SendInvit, "Beth"))
	x.take(a)
	x.take(b)
	x.send(a, segment.Create, segment.CreateMsg{Game: "dots", Seats: 2}.Append(nil))
	if code := x.errorCode(a); code != segment.ErrCodeAtTable {
		t.Fatalf("the inviter created a table while inviting: error %d", code)
	}
	x.send(b, segment.Create, segment.CreateMsg{Game: "dots", Seats: 2}.Append(nil))
	x.expect(b, segment.Joined)
	if got := x.expect(a, segment.InvitResponse); len(got.body) != 1 || got.body[0] != segment.CodeRefused {
		t.Fatalf("the inviter got %v when the invitee sat down: want refused", got.body)
	}
	x.send(b, segment.Leave, nil)
	x.raw(a, segment.Name(segment.SendInvit, "Beth"))
	x.raw(b, segment.Code(segment.InvitResponse, 1))
	x.take(a)
	x.take(b)
	x.send(a, segment.Chat, segment.ChatBody{Scope: 1, Text: "hi"}.Append(nil))
	if code := x.errorCode(a); code != segment.ErrCodeNotSeated {
		t.Fatalf("players' chat in a reference match: error %d", code)
	}
	x.send(a, segment.Leave, nil)
	if code := x.errorCode(a); code != segment.ErrCodeAtTable {
		t.Fatalf("left a reference match with Leave: error %d", code)
	}
}

// TestSnapshotPausedClock: a player whose clock stands paused (clock.pause)
// while his seat is held drops and comes back on his move, and the hub is
// restored from snapshots in the middle of the pauses: the move time he used
// and the pause budget he spent come back, so he runs out of time at the
// same moment as without the restores.
func TestSnapshotPausedClock(t *testing.T) {
	run := func(restore bool) *harness {
		cfg := statemachine.Config{Games: statemachine.Catalogue(), ResumeGrace: time.Minute}
		x := newSeededHarness(t, cfg, statemachine.SeedInput(5).Seed)
		features := segment.FeatureTables | segment.FeatureResume | segment.FeatureClocks
		a, b := x.loginWith("Albert", features), x.loginWith("Beth", features)
		opts := []segment.KV{{Key: "clock.move", Value: "10"}, {Key: "clock.pause", Value: "true"}}
		x.table("checkers", opts, []statemachine.ConnID{a, b})
		x.send(a, segment.Ready, nil)
		x.send(b, segment.Ready, nil)
		wait := func(d time.Duration) {
			x.now += int64(d)
			statemachine.StepTime(x.h, x.now)
			x.pump()
		}
		wait(5 * time.Second)
		for range 3 {
			x.h.Step(x.now, statemachine.Input{Kind: statemachine.InClosed, Conn: a})
			x.pump()
			wait(20 * time.Second)
			if restore {
				x.swap(cfg)
			}
			wait(30 * time.Second)
			var sb segment.SeatedBody // the resume token Albert holds
			for _, m := range x.all[a] {
				if m.t == segment.Seated {
					sb, _ = segment.DecodeSeatedBody(m.body)
				}
			}
			a = x.loginWith("Albert", features)
			x.send(a, segment.Resume, segment.ResumeMsg{Table: sb.Table, Seat: sb.Seat, Token: sb.Token}.Append(nil))
		}
		for i := 0; len(x.records) == 0; i++ {
			if i > 100 {
				t.Fatal("the clock never ran out")
			}
			wait(time.Second)
		}
		return x
	}
	x, y := run(false), run(true)
	if len(x.records) != 1 || x.records[0].Reason != "timeout" {
		t.Fatalf("records %+v", x.records)
	}
	if !reflect.DeepEqual(x.records, y.records) {
		t.Fatalf("the game ended otherwise after restores:\n%+v\n%+v", x.records, y.records)
	}
	if !slices.EqualFunc(x.all[2], y.all[2], sameMsg) {
		t.Fatal("Beth received different messages after restores")
	}
}

// TestSnapshotClocksAndOffers: a game with a time control and a standing
// draw offer, restored mid-game: the offer expires, the clocks run out and
// the game ends by timeout exactly as without the restore.
func TestSnapshotClocksAndOffers(t *testing.T) {
	run := func(restore bool) (*harness, []statemachine.ConnID) {
		cfg := statemachine.Config{Games: statemachine.Catalogue()}
		x := newSeededHarness(t, cfg, statemachine.SeedInput(3).Seed)
		a, b := x.login("Albert"), x.login("Beth")
		opts := []segment.KV{{Key: "clock.move", Value: "120"}, {Key: "clock.total", Value: "200"}, {Key: "clock.increment", Value: "2"}}
		x.table("checkers", opts, []statemachine.ConnID{a, b})
		x.send(a, segment.Ready, nil)
		x.send(b, segment.Ready, nil)
		g, _ := statemachine.Catalogue()[1].Spec.New(2, rules.Options{}, nil)
		for i := range 6 {
			x.now += int64(time.Duration(i+3) * time.Second)
			statemachine.StepTime(x.h, x.now)
			x.pump()
			p := g.ToMove(nil)[0]
			m := g.Legal(p, nil)[0]
			x.send([]statemachine.ConnID{a, b}[p], segment.MoveText, []byte(g.FormatMove(m)))
			g.Play(p, m, nil)
		}
		// an offer declined, and another made later: the first's timer
		// must not withdraw the second
		x.send(a, segment.Offer, segment.OfferMsg{What: 1}.Append(nil))
		x.send(b, segment.Offer, segment.OfferMsg{What: 1, Answer: 2}.Append(nil))
		x.now += int64(10 * time.Second)
		x.send(a, segment.Offer, segment.OfferMsg{What: 1}.Append(nil))
		if restore {
			x.swap(cfg)
		}
		x.send(a, segment.ViewReq, nil) // with the clocks as they stand
		for range 8 {
			x.now += int64(3 * time.Second)
			statemachine.StepTime(x.h, x.now)
			x.pump()
		}
		// past the first offer's expiry, within the second's
		x.send(b, segment.Offer, segment.OfferMsg{What: 1, Answer: 1}.Append(nil))
		if len(x.records) != 1 || x.records[0].Reason != "agreed" {
			t.Fatalf("the second offer did not stand: %+v", x.records)
		}
		// a rematch with the clock, run out
		x.send(a, segment.Offer, segment.OfferMsg{What: 2}.Append(nil))
		x.send(b, segment.Offer, segment.OfferMsg{What: 2, Answer: 1}.Append(nil))
		if restore {
			x.swap(cfg)
		}
		for range 100 {
			x.now += int64(3 * time.Second)
			statemachine.StepTime(x.h, x.now)
			x.pump()
			if len(x.records) > 1 {
				break
			}
		}
		return x, []statemachine.ConnID{a, b}
	}
	x, conns := run(false)
	y, _ := run(true)
	if len(x.records) != 2 || x.records[1].Reason != "timeout" {
		t.Fatalf("records %+v", x.records)
	}
	for _, c := range conns {
		if !slices.EqualFunc(x.all[c], y.all[c], sameMsg) {
			t.Fatalf("conn %d received different messages after a restore", c)
		}
	}
	if !reflect.DeepEqual(x.records, y.records) || *x.h.Stats() != *y.h.Stats() {
		t.Fatalf("records or stats differ:\n%+v\n%+v", x.records, y.records)
	}
}
