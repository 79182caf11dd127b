package statemachine_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bomber-game/bomber/client/tables"
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/rules/games"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// msg is one whole message (or reference segment) a connection received.
type msg struct {
	t    segment.Type
	body []byte
}

// harness drives a hub in-process with extended-protocol clients.
type harness struct {
	tb      testing.TB
	h       *statemachine.Hub
	now     int64
	next    statemachine.ConnID
	asm     map[statemachine.ConnID]*segment.Assembler
	inbox   map[statemachine.ConnID][]msg
	all     map[statemachine.ConnID][]msg // everything ever received
	closed  map[statemachine.ConnID]bool
	records []record.Game
	sent    []input // every segment clients sent, when logging
	logging bool
}

// input is one segment a client sent.
type input struct {
	conn statemachine.ConnID
	seg  segment.Segment
}

func newHarness(tb testing.TB, cfg statemachine.Config) *harness {
	return newSeededHarness(tb, cfg, statemachine.SeedInput(7).Seed)
}

// newSeededHarness is newHarness on a hub whose generator starts at seed.
func newSeededHarness(tb testing.TB, cfg statemachine.Config, seed [32]byte) *harness {
	if cfg.Games == nil {
		cfg.Games = statemachine.Catalogue()
	}
	h := statemachine.New(cfg)
	h.Step(0, statemachine.Input{Kind: statemachine.InSeed, Seed: seed})
	return &harness{tb: tb, h: h, asm: map[statemachine.ConnID]*segment.Assembler{},
		inbox: map[statemachine.ConnID][]msg{}, all: map[statemachine.ConnID][]msg{}, closed: map[statemachine.ConnID]bool{}}
}

// pump collects the hub's outputs, answering account checks as found.
func (x *harness) pump() {
	x.tb.Helper()
	for {
		rd := x.h.Ready()
		if rd.Empty() {
			return
		}
		var checks []statemachine.Check
		checks = append(checks, rd.Checks...)
		for _, s := range rd.Sends {
			var m msg
			if s.Seg.Type.Extended() {
				a := x.asm[s.Conn]
				if a == nil {
					a = &segment.Assembler{}
					x.asm[s.Conn] = a
				}
				t, body, done, err := a.Add(s.Seg)
				if err != nil {
					x.tb.Fatalf("conn %d: the hub sent a bad fragment: %v", s.Conn, err)
				}
				if !done {
					continue
				}
				m = msg{t, bytes.Clone(body)}
			} else {
				seg := s.Seg
				m = msg{seg.Type, bytes.Clone(seg.Payload())}
			}
			x.inbox[s.Conn] = append(x.inbox[s.Conn], m)
			x.all[s.Conn] = append(x.all[s.Conn], m)
		}
		for _, c := range rd.Closes {
			x.closed[c] = true
		}
		x.records = append(x.records, rd.Records...)
		x.h.Advance()
		for _, c := range checks {
			x.h.Step(x.now, statemachine.Input{Kind: statemachine.InAnswer, Check: c.ID, Answer: statemachine.Found})
		}
		if err := x.h.CheckInvariants(); err != nil {
			x.tb.Fatal(err)
		}
	}
}

// login opens an extended-protocol connection logged in as name.
func (x *harness) login(name string) statemachine.ConnID {
	x.tb.Helper()
	return x.loginWith(name, segment.FeatureTables|segment.FeatureChat)
}

// loginWith is login asking for the given features.
func (x *harness) loginWith(name string, features uint32) statemachine.ConnID {
	x.tb.Helper()
	x.next++
	c := x.next
	x.h.Step(x.now, statemachine.Input{Kind: statemachine.InOpen, Conn: c})
	x.send(c, segment.Hello, segment.HelloMsg{Version: 1, Features: features}.Append(nil))
	x.raw(c, segment.Name(segment.Info, name))
	x.raw(c, segment.Name(segment.Passwd, "123"))
	x.take(c)
	return c
}

// raw sends one reference segment from c.
func (x *harness) raw(c statemachine.ConnID, s segment.Segment) {
	if x.logging {
		x.sent = append(x.sent, input{c, s})
	}
	x.h.Step(x.now, statemachine.Input{Kind: statemachine.InReceive, Conn: c, Seg: s})
	x.pump()
}

// send sends one message from c.
func (x *harness) send(c statemachine.ConnID, t segment.Type, body []byte) {
	x.tb.Helper()
	for _, s := range segment.AppendMessage(nil, t, body) {
		if x.logging {
			x.sent = append(x.sent, input{c, s})
		}
		x.h.Step(x.now, statemachine.Input{Kind: statemachine.InReceive, Conn: c, Seg: s})
	}
	x.pump()
}

// take returns and forgets what c received since the last take.
func (x *harness) take(c statemachine.ConnID) []msg {
	m := x.inbox[c]
	x.inbox[c] = nil
	return m
}

// expect fails unless c received a message of type t since the last take,
// and returns the first such.
func (x *harness) expect(c statemachine.ConnID, t segment.Type) msg {
	x.tb.Helper()
	for _, m := range x.take(c) {
		if m.t == t {
			return m
		}
	}
	x.tb.Fatalf("conn %d got no %v", c, t)
	return msg{}
}

// errorCode returns the code of the Error c received last, or 0.
func (x *harness) errorCode(c statemachine.ConnID) uint8 {
	var code uint8
	for _, m := range x.take(c) {
		if m.t == segment.ErrorMsg {
			e, _ := segment.DecodeErrorBody(m.body)
			code = e.Code
		}
	}
	return code
}

// table seats players at a new table of game and adds a watcher; it returns
// the table id.
func (x *harness) table(game string, opts []segment.KV, players []statemachine.ConnID, watchers ...statemachine.ConnID) uint32 {
	x.tb.Helper()
	x.send(players[0], segment.Create, segment.CreateMsg{Game: game, Seats: uint8(len(players)), Options: opts}.Append(nil))
	j, err := segment.DecodeJoinedBody(x.expect(players[0], segment.Joined).body)
	if err != nil || j.Seat != 0 {
		x.tb.Fatalf("create %s: joined %+v %v", game, j, err)
	}
	for _, p := range players[1:] {
		x.send(p, segment.Join, segment.JoinMsg{Table: j.Table, Seat: 0xFF}.Append(nil))
		x.expect(p, segment.Joined)
	}
	for _, w := range watchers {
		x.send(w, segment.Watch, segment.WatchMsg{Table: j.Table}.Append(nil))
		x.expect(w, segment.Joined)
	}
	return j.Table
}

// play runs the driver over the seats until the game ends.
func (x *harness) play(d *tables.Driver, players []statemachine.ConnID) {
	x.tb.Helper()
	x.playWith(d, players, nil)
	if len(d.Errors) > 0 {
		x.tb.Fatalf("the server refused moves of a replica in step: %v", d.Errors)
	}
}

// playWith runs the driver over the seats until the game ends, calling
// between (when set) with the number of moves played before each move.
func (x *harness) playWith(d *tables.Driver, players []statemachine.ConnID, between func(moves int)) {
	x.tb.Helper()
	for _, p := range players {
		x.send(p, segment.Ready, nil)
	}
	for i := 0; !d.Ended(); i++ {
		if i > 20000 {
			x.tb.Fatalf("game did not end after %d moves", d.Moves())
		}
		for seat, p := range players {
			for _, m := range x.take(p) {
				if err := d.Receive(seat, m.t, m.body); err != nil {
					x.tb.Fatal(err)
				}
			}
		}
		if between != nil {
			between(d.Moves())
		}
		out, ok, err := d.Next()
		if err != nil {
			x.tb.Fatal(err)
		}
		if d.Ended() {
			break
		}
		if !ok {
			x.tb.Fatalf("driver waits for nothing after %d moves (errors %v)", d.Moves(), d.Errors)
		}
		x.send(players[out.Seat], out.Type, out.Body)
	}
}

var names = []string{"Novate", "Twofyw", "Larry", "Albert", "Beth", "Cindy"}

// TestEveryGameToTheEnd plays each game to the end through the hub, with its
// largest number of seats and a watcher, moves sent alternately in binary
// and in notation, and checks the watcher saw the end, the record replays to
// the same outcome, and the revealed seed matches the commitment.
func TestEveryGameToTheEnd(t *testing.T) {
	small := map[string][]segment.KV{"dots": {{Key: "rows", Value: "3"}, {Key: "cols", Value: "3"}}, "paisho": {{Key: "move-limit", Value: "60"}}}
	for gi, e := range statemachine.Catalogue() {
		for _, text := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/text=%v", e.Spec.Name, text), func(t *testing.T) {
				x := newHarness(t, statemachine.Config{})
				var players []statemachine.ConnID
				for i := range e.Spec.MaxPlayers {
					players = append(players, x.login(names[i]))
				}
				w := x.login(names[5])
				x.table(e.Spec.Name, small[e.Spec.Name], players, w)
				opts := rules.Options{}
				for _, kv := range small[e.Spec.Name] {
					opts[kv.Key] = kv.Value
				}
				d := tables.New(e.Spec, opts, len(players), uint64(gi))
				d.Text = text
				d.MaxMoves = 400
				x.play(d, players)
				var started segment.StartedBody
				var end segment.GameEndBody
				var commits []segment.CommitBody
				boards := map[uint8]string{}
				for _, m := range x.all[w] {
					switch m.t {
					case segment.Started:
						started, _ = segment.DecodeStartedBody(m.body)
					case segment.GameEnd:
						end, _ = segment.DecodeGameEndBody(m.body)
					case segment.Commit:
						c, _ := segment.DecodeCommitBody(m.body)
						commits = append(commits, c)
					case segment.Moved:
						if mv, _ := segment.DecodeMovedBody(m.body); e.Spec.Name == "bomber" && mv.Kind == bomber.KindBoard {
							if end.Status == 0 {
								t.Fatalf("the watcher was shown a hidden board before the end: %q", mv.Notation)
							}
							boards[mv.Seat] = mv.Notation
						}
					}
				}
				// anyone can check the boards revealed at the end against the
				// commitments sent when they were placed (docs/protocol.md, Commit)
				for _, c := range commits {
					if verifyCommit(end.Seed, c.Seat, boards[c.Seat]) != c.Hash {
						t.Fatalf("seat %d's revealed board %q does not match its commitment", c.Seat, boards[c.Seat])
					}
				}
				if e.Spec.Name == "bomber" && len(commits) != 2 {
					t.Fatalf("%d board commitments, want 2", len(commits))
				}
				if sha256.Sum256(end.Seed[:]) != started.SeedCommit {
					t.Fatalf("revealed seed does not match the commitment published at the start")
				}
				if len(x.records) != 1 {
					t.Fatalf("%d records", len(x.records))
				}
				rec := x.records[0]
				if len(rec.Seats) != len(players) || len(rec.Moves) != d.Moves() || rec.Seed != end.Seed {
					t.Fatalf("record: %d seats, %d moves (played %d)", len(rec.Seats), len(rec.Moves), d.Moves())
				}
				g, err := record.Replay(e.Spec, &rec)
				if err != nil {
					t.Fatalf("record does not replay: %v", err)
				}
				if got := g.Outcome(); got.Status != rec.Outcome.Status || !slices.Equal(got.Winners, rec.Outcome.Winners) {
					t.Fatalf("replayed outcome %+v, recorded %+v", got, rec.Outcome)
				}
			})
		}
	}
}

// TestHiddenBoardsDoNotLeak: two games differ only in seat 1's board, and
// seat 0 guesses only cells that answer the same on both boards. Everything
// seat 0 and a watcher receive must then be the same bytes in both games
// (but for the commitments, which are hashes of the boards), so nothing sent
// to them depends on seat 1's secret.
func TestHiddenBoardsDoNotLeak(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 30 {
		b0 := randomBoard(rng)
		b1, b2 := randomBoard(rng), randomBoard(rng)
		c1, _ := b1.Cells()
		c2, _ := b2.Cells()
		var safe []bomber.Cell // empty on both boards: a miss either way
		for c := bomber.Cell(0); c < 100; c++ {
			if !c1.Has(c) && !c2.Has(c) {
				safe = append(safe, c)
			}
		}
		rng.Shuffle(len(safe), func(i, j int) { safe[i], safe[j] = safe[j], safe[i] })
		guesses := safe[:min(len(safe), 25)]
		run := func(hidden bomber.Board) (seat0, watcher, seat1 []msg) {
			x := newSeededHarness(t, statemachine.Config{}, statemachine.SeedInput(uint64(round)).Seed)
			a, b, w := x.login("Albert"), x.login("Beth"), x.login("Cindy")
			x.table("bomber", nil, []statemachine.ConnID{a, b}, w)
			x.send(a, segment.Ready, nil)
			x.send(b, segment.Ready, nil)
			g := bomber.New(0)
			x.send(a, segment.MoveText, []byte(g.FormatMove(bomber.BoardMove(b0))))
			x.send(b, segment.MoveText, []byte(g.FormatMove(bomber.BoardMove(hidden))))
			for i, c := range guesses {
				x.send(a, segment.MoveText, []byte(g.FormatMove(bomber.SingleMove(c))))
				x.send(b, segment.MoveText, []byte(g.FormatMove(bomber.SingleMove(bomber.Cell(i)))))
			}
			if x.closed[a] || x.closed[b] {
				t.Fatal("a player was closed")
			}
			drop := func(ms []msg) []msg {
				return slices.DeleteFunc(slices.Clone(ms), func(m msg) bool { return m.t == segment.Commit })
			}
			return drop(x.all[a]), drop(x.all[w]), x.all[b]
		}
		a1, w1, s1 := run(b1)
		a2, w2, s2 := run(b2)
		if !slices.EqualFunc(a1, a2, sameMsg) {
			t.Fatalf("round %d: seat 0 received different bytes when only seat 1's board differed", round)
		}
		if !slices.EqualFunc(w1, w2, sameMsg) {
			t.Fatalf("round %d: the watcher received different bytes when only seat 1's board differed", round)
		}
		// the comparison can fail: seat 1 itself is shown its own board
		if slices.EqualFunc(s1, s2, sameMsg) {
			t.Fatalf("round %d: seat 1's own stream does not show its board", round)
		}
	}
}

// verifyCommit is what a player computes from the revealed seed and move:
// SHA-256(HMAC-SHA256(seed, "board" || seat) || notation).
func verifyCommit(seed [32]byte, seat uint8, notation string) [32]byte {
	mac := hmac.New(sha256.New, seed[:])
	mac.Write(append([]byte("board"), seat))
	return sha256.Sum256(append(mac.Sum(nil), notation...))
}

func sameMsg(a, b msg) bool { return a.t == b.t && bytes.Equal(a.body, b.body) }

// randomBoard draws a valid board from the rules' own legal boards.
func randomBoard(rng *rand.Rand) bomber.Board {
	g := bomber.New(0)
	for {
		var b bomber.Board
		for i := range b {
			h := bomber.CellAt(rng.IntN(10), rng.IntN(10))
			d := [4][2]int{{3, 0}, {-3, 0}, {0, 3}, {0, -3}}[rng.IntN(4)]
			b[i] = bomber.Plane{Head: h, Tail: bomber.CellAt(h.X()+d[0], h.Y()+d[1])}
		}
		if _, err := g.Clone().Play(0, bomber.BoardMove(b), nil); err == nil {
			return b
		}
	}
}

// TestCatalogueListsEveryGameWhole: each game of the catalogue arrives as a
// Game message that decodes, with its Spec's seats and every option it
// lists; a client that asked for the game facts also gets each Spec's
// title and whether it allows takebacks and draws, one that did not gets
// the Game layout without them.
func TestCatalogueListsEveryGameWhole(t *testing.T) {
	x := newHarness(t, statemachine.Config{})
	for _, facts := range []bool{false, true} {
		features := segment.FeatureTables
		if facts {
			features |= segment.FeatureGameFacts
		}
		c := x.loginWith(map[bool]string{false: "Albert", true: "Beth"}[facts], features)
		x.send(c, segment.CatalogReq, nil)
		var got []segment.GameInfoBody
		for _, m := range x.take(c) {
			if m.t == segment.GameInfo {
				g, err := segment.DecodeGameInfoBody(m.body)
				if err != nil {
					t.Fatalf("Game message does not decode: %v", err)
				}
				got = append(got, g)
			}
		}
		specs := games.All()
		if len(got) != len(specs) {
			t.Fatalf("%d games in the catalogue, want %d", len(got), len(specs))
		}
		for i, s := range specs {
			g := got[i]
			if g.Name != s.Name || int(g.Min) != s.MinPlayers || int(g.Max) != s.MaxPlayers || len(g.Options) != len(s.Options) {
				t.Errorf("game %d: %q for %d..%d with %d options, want %q for %d..%d with %d", i,
					g.Name, g.Min, g.Max, len(g.Options), s.Name, s.MinPlayers, s.MaxPlayers, len(s.Options))
			}
			if !facts {
				if g.Facts != nil {
					t.Errorf("%s: facts %+v sent to a client that did not ask for them", s.Name, *g.Facts)
				}
				continue
			}
			if g.Facts == nil {
				t.Fatalf("%s: no facts", s.Name)
			}
			want := segment.GameFacts{Title: s.Title}
			if s.Takeback {
				want.Flags |= segment.GameTakeback
			}
			if s.Draws {
				want.Flags |= segment.GameDraws
			}
			if *g.Facts != want {
				t.Errorf("%s: facts %+v, want %+v", s.Name, *g.Facts, want)
			}
		}
	}
}
