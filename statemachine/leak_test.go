package statemachine_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/bomber-game/bomber/client/tables"
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/aeroplane"
	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// replayInputs feeds clients' segments to a hub whose only table draws seed
// and returns every message each connection received.
func replayInputs(t *testing.T, seed [32]byte, ins []input) map[statemachine.ConnID][]msg {
	x := newSeededHarness(t, statemachine.Config{}, seed)
	opened := map[statemachine.ConnID]bool{}
	for _, in := range ins {
		if !opened[in.conn] {
			opened[in.conn] = true
			x.h.Step(0, statemachine.Input{Kind: statemachine.InOpen, Conn: in.conn})
		}
		x.raw(in.conn, in.seg)
	}
	return x.all
}

// TestFutureDiceDoNotLeak: an Aeroplane Chess game is played, then its
// clients' input is replayed with a second seed whose first three rolls are
// the same and whose fourth differs. Up to the fourth roll every byte sent
// to every seat and watcher must be the same under both seeds (but for the
// commitment in Started), so nothing sent reveals a roll before it is
// made; just after it, the streams must differ (so the check can fail).
func TestFutureDiceDoNotLeak(t *testing.T) {
	spec := aeroplane.Spec()
	s1 := [32]byte{1}
	x := newSeededHarness(t, statemachine.Config{}, s1)
	x.logging = true
	players := []statemachine.ConnID{x.login("Albert"), x.login("Beth"), x.login("Larry")}
	x.table("aeroplane", nil, players, x.login("Cindy"))
	d := tables.New(spec, rules.Options{}, len(players), 5)
	d.Text, d.MaxMoves = true, 60
	x.play(d, players)
	rec := x.records[0]
	// the input index of the fourth roll, and the move index of it
	cut, rolls := -1, 0
	for i, in := range x.sent {
		if in.seg.Type == segment.MoveText && string(in.seg.Payload()) == "roll" {
			if rolls++; rolls == 4 {
				cut = i
				break
			}
		}
	}
	fourth, rolls := -1, 0
	for i, m := range rec.Moves {
		if m.Text == "roll" {
			if rolls++; rolls == 4 {
				fourth = i
				break
			}
		}
	}
	if cut < 0 || fourth < 0 {
		t.Fatalf("the game had fewer than four rolls")
	}
	// a seed whose first three rolls agree with s1's and whose fourth does not
	steps := func(seed [32]byte) [][]rules.Step {
		g, _ := spec.New(len(rec.Seats), rec.Options, record.Rand(seed))
		var out [][]rules.Step
		for _, m := range rec.Moves[:fourth+1] {
			mv, err := g.ParseMove(m.Seat, m.Text)
			if err != nil {
				return nil
			}
			st, err := g.Play(m.Seat, mv, nil)
			if err != nil {
				return nil // this seed's dice make a later recorded move illegal
			}
			out = append(out, st)
		}
		return out
	}
	// s1 seeds the hub's generator, which seeds the table's own as it
	// opens (from some offset on: it drew join codes first, or nothing);
	// the table's seed is its own generator's bytes from some offset on (it
	// drew resume tokens first): find both, so the search below can tell
	// which table seed another hub seed gives
	read := func(r *rand.ChaCha8, skip int) (b [32]byte) {
		_, _ = r.Read(make([]byte, skip))
		_, _ = r.Read(b[:])
		return b
	}
	drawn := func(seed [32]byte, hubSkip, tableSkip int) [32]byte {
		return read(rand.NewChaCha8(read(rand.NewChaCha8(seed), hubSkip)), tableSkip)
	}
	hubSkip, tableSkip := -1, -1
	for h := 0; h < 64 && tableSkip < 0; h++ {
		for k := 0; k < 256; k++ {
			if drawn(s1, h, k) == [32]byte(rec.Seed) {
				hubSkip, tableSkip = h, k
				break
			}
		}
	}
	if tableSkip < 0 {
		t.Fatal("the table's seed is not among the first bytes of a generator seeded by the hub's first bytes")
	}
	want := steps([32]byte(rec.Seed))
	var s2 [32]byte
	found := false
	for c := uint32(2); c < 200000 && !found; c++ {
		s2 = [32]byte{byte(c), byte(c >> 8), byte(c >> 16), 7}
		got := steps(drawn(s2, hubSkip, tableSkip))
		found = got != nil && slices.EqualFunc(got[:fourth], want[:fourth], slices.Equal) && !slices.Equal(got[fourth], want[fourth])
	}
	if !found {
		t.Fatal("no second seed with the same first three rolls")
	}
	same := func(a, b map[statemachine.ConnID][]msg) bool {
		for c := range a {
			ma := slices.DeleteFunc(slices.Clone(a[c]), func(m msg) bool { return m.t == segment.Started })
			mb := slices.DeleteFunc(slices.Clone(b[c]), func(m msg) bool { return m.t == segment.Started })
			if !slices.EqualFunc(ma, mb, sameMsg) {
				return false
			}
		}
		return true
	}
	if !same(replayInputs(t, s1, x.sent[:cut]), replayInputs(t, s2, x.sent[:cut])) {
		t.Fatal("before the fourth roll, what clients received depended on the dice to come")
	}
	if same(replayInputs(t, s1, x.sent[:cut+1]), replayInputs(t, s2, x.sent[:cut+1])) {
		t.Fatal("the fourth roll differs but nobody was shown a difference: the check cannot fail")
	}
}

// TestRandomGamesKeepSecrets plays many random games of every game through
// the hub, two watchers at each table, the hub's invariants checked after
// every step, and checks that no seat or watcher is ever shown another
// seat's secret move (a Bomber board) before the game ends, and that every
// game's record replays.
func TestRandomGamesKeepSecrets(t *testing.T) {
	// make test runs this once more without the race detector with
	// BOMBER_LEAK_GAMES=400: two thousand games in all
	games := 40
	if n, err := strconv.Atoi(os.Getenv("BOMBER_LEAK_GAMES")); err == nil && n > 0 {
		games = n
	}
	small := map[string][]segment.KV{"dots": {{Key: "rows", Value: "3"}, {Key: "cols", Value: "4"}}, "paisho": {{Key: "move-limit", Value: "30"}}}
	for _, e := range statemachine.Catalogue() {
		t.Run(e.Spec.Name, func(t *testing.T) {
			for g := range games {
				x := newSeededHarness(t, statemachine.Config{}, statemachine.SeedInput(uint64(g)).Seed)
				n := e.Spec.MinPlayers + g%(e.Spec.MaxPlayers-e.Spec.MinPlayers+1)
				var players []statemachine.ConnID
				for i := range n {
					players = append(players, x.loginWith(names[i], withLegal))
				}
				w1, w2 := x.loginWith(names[4], withLegal), x.loginWith(names[5], withLegal)
				x.table(e.Spec.Name, small[e.Spec.Name], players, w1, w2)
				opts := rules.Options{}
				for _, kv := range small[e.Spec.Name] {
					opts[kv.Key] = kv.Value
				}
				d := tables.New(e.Spec, opts, n, uint64(g))
				d.Text, d.MaxMoves = g%2 == 0, 150
				// before each move every player and watcher asks for
				// placement hints with planes of its own choosing
				var asks []hintAsk
				conns := append(slices.Clone(players), w1, w2)
				x.playWith(d, players, func(moves int) {
					r := rand.New(rand.NewPCG(uint64(g), uint64(moves)))
					for _, c := range conns {
						var chosen []byte
						planes := r.IntN(3)
						if moves == 0 {
							planes = 0 // an empty board: hints for every seat of every game
						}
						for range planes {
							p := bomber.Placements()[r.IntN(168)]
							chosen = append(chosen, byte(p.Head.X()), byte(p.Head.Y()), byte(p.Tail.X()), byte(p.Tail.Y()))
						}
						x.take(c) // a watcher's updates (x.all keeps them)
						x.send(c, segment.HintReq, segment.HintReqMsg{Table: 1, Chosen: chosen}.Append(nil))
						asks = append(asks, hintAsk{c, moves, chosen, x.take(c)})
					}
				})
				if len(d.Errors) > 0 {
					t.Fatalf("the server refused moves of a replica in step: %v", d.Errors)
				}
				seatOf := map[statemachine.ConnID]int{w1: -1, w2: -1}
				for i, p := range players {
					seatOf[p] = i
				}
				for c, ms := range x.all {
					ended := false
					for _, m := range ms {
						switch m.t {
						case segment.GameEnd:
							ended = true
						case segment.Moved:
							mv, _ := segment.DecodeMovedBody(m.body)
							if e.Spec.Name == "bomber" && mv.Kind == bomber.KindBoard && !ended && int(mv.Seat) != seatOf[c] {
								t.Fatalf("game %d: %d (seat %d) was shown seat %d's board before the end", g, c, seatOf[c], mv.Seat)
							}
						}
					}
				}
				if len(x.records) != 1 {
					t.Fatalf("game %d: %d records", g, len(x.records))
				}
				checkLegalKeptSecret(t, e.Spec, x.records[0], x.all, seatOf)
				checkHintsKeptSecret(t, e.Spec, x.records[0], asks, seatOf)
				if _, err := record.Replay(e.Spec, &x.records[0]); err != nil {
					t.Fatalf("game %d: %v", g, err)
				}
			}
		})
	}
}

// withLegal is what the players and watchers of the random games ask for:
// tables, chat and the legal moves of the seat to move.
const withLegal = segment.FeatureTables | segment.FeatureChat | segment.FeatureLegal

// checkLegalKeptSecret replays rec and checks every Legal a connection
// received: it went to the seat it names (never to a watcher), and lists
// exactly the legal moves of that seat's redacted game (rules.SeatOf) after
// that many moves, so it says nothing the seat may not know. A seat that
// was to move after a move got its list.
func checkLegalKeptSecret(t *testing.T, spec rules.Spec, rec record.Game, all map[statemachine.ConnID][]msg, seatOf map[statemachine.ConnID]int) {
	t.Helper()
	g, err := spec.New(len(rec.Seats), rec.Options, record.Rand(rec.Seed))
	if err != nil {
		t.Fatal(err)
	}
	// want[k][p]: seat p's legal moves after k moves, from its redacted game
	want := []map[rules.Player][]string{}
	add := func() {
		w := map[rules.Player][]string{}
		for _, p := range g.ToMove(nil) {
			var l []string
			for _, m := range rules.SeatOf(g, p).Game().Legal(p, nil) {
				if m.Kind < rules.KindOfferDraw {
					l = append(l, fmt.Sprint(m.Kind, m.Arg[:m.Len]))
				}
			}
			slices.Sort(l)
			w[p] = l
		}
		want = append(want, w)
	}
	add()
	for _, m := range rec.Moves {
		mv, err := g.ParseMove(m.Seat, m.Text)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Play(m.Seat, mv, nil); err != nil {
			t.Fatal(err)
		}
		add()
	}
	for c, ms := range all {
		var got []string
		told := map[uint32]bool{}
		for _, m := range ms {
			if m.t != segment.Legal {
				continue
			}
			l, err := segment.DecodeLegalBody(m.body)
			if err != nil {
				t.Fatal(err)
			}
			if int(l.Seat) != seatOf[c] || seatOf[c] < 0 {
				t.Fatalf("connection %d (seat %d) was sent seat %d's legal moves", c, seatOf[c], l.Seat)
			}
			if int(l.Seq) >= len(want) {
				t.Fatalf("Legal for update %d of a game of %d moves", l.Seq, len(want)-1)
			}
			w, ok := want[l.Seq][rules.Player(l.Seat)]
			if !ok {
				t.Fatalf("seat %d was sent legal moves at update %d, when it was not to move", l.Seat, l.Seq)
			}
			for _, gr := range l.Groups {
				for _, a := range gr.Moves() {
					got = append(got, fmt.Sprint(gr.Kind, a))
				}
			}
			if l.Flags&segment.LegalMore != 0 {
				continue
			}
			slices.Sort(got)
			if l.Flags&segment.LegalTooMany != 0 {
				if len(got) != 0 || len(w) < 1000 {
					t.Fatalf("seat %d at update %d: too many to list, with %d listed and %d legal", l.Seat, l.Seq, len(got), len(w))
				}
			} else if !slices.Equal(got, w) {
				t.Fatalf("seat %d at update %d was sent legal moves\n%v\nits own game has\n%v", l.Seat, l.Seq, got, w)
			}
			told[l.Seq] = true
			got = got[:0]
		}
		if p := seatOf[c]; p >= 0 {
			for k := 1; k < len(want); k++ {
				if _, ok := want[k][rules.Player(p)]; ok && !told[uint32(k)] {
					t.Fatalf("seat %d was to move after update %d and was not sent its legal moves", p, k)
				}
			}
		}
	}
}

// hintAsk is one HintReq of the random games: who sent it, after how many
// moves, the parts it named, and everything the hub sent back.
type hintAsk struct {
	c      statemachine.ConnID
	moves  int
	chosen []byte
	got    []msg
}

// checkHintsKeptSecret replays rec and checks the answer to every HintReq:
// a watcher or a seat not building a move in parts got an Error and no
// Hints; a seat that was got Hints naming it, for that update, listing
// exactly the parts its own redacted game (rules.SeatOf) gives for the
// parts it chose, so it says nothing the seat may not know.
func checkHintsKeptSecret(t *testing.T, spec rules.Spec, rec record.Game, asks []hintAsk, seatOf map[statemachine.ConnID]int) {
	t.Helper()
	g, err := spec.New(len(rec.Seats), rec.Options, record.Rand(rec.Seed))
	if err != nil {
		t.Fatal(err)
	}
	hinted := 0
	check := func(k int) {
		for _, a := range asks {
			if a.moves != k {
				continue
			}
			var want []string
			wantErr := seatOf[a.c] < 0
			if !wantErr {
				p := rules.Player(seatOf[a.c])
				ph, ok := rules.SeatOf(g, p).Game().(rules.PartHints)
				var ms []rules.Move
				if ok {
					ms, err = ph.NextParts(p, a.chosen, nil)
				}
				wantErr = !ok || err != nil
				for _, m := range ms {
					want = append(want, fmt.Sprint(m.Kind, m.Arg[:m.Len]))
				}
				slices.Sort(want)
			}
			var got []string
			errs, whole := 0, false
			for _, m := range a.got {
				switch m.t {
				case segment.ErrorMsg:
					errs++
				case segment.Hints:
					l, err := segment.DecodeHintsBody(m.body)
					if err != nil {
						t.Fatal(err)
					}
					if int(l.Seat) != seatOf[a.c] || int(l.Seq) != k {
						t.Fatalf("connection %d (seat %d) was sent seat %d's hints for update %d after %d moves", a.c, seatOf[a.c], l.Seat, l.Seq, k)
					}
					for _, gr := range l.Groups {
						for _, m := range gr.Moves() {
							got = append(got, fmt.Sprint(gr.Kind, m))
						}
					}
					whole = l.Flags&segment.LegalMore == 0
				default:
					t.Fatalf("connection %d was sent %v in answer to HintReq", a.c, m.t)
				}
			}
			slices.Sort(got)
			switch {
			case wantErr && (errs != 1 || got != nil):
				t.Fatalf("connection %d (seat %d) after %d moves, chosen %v: %d errors and hints %v, want one error", a.c, seatOf[a.c], k, a.chosen, errs, got)
			case !wantErr && (errs != 0 || !whole || !slices.Equal(got, want)):
				t.Fatalf("connection %d (seat %d) after %d moves, chosen %v: %d errors, hints\n%v\nits own game has\n%v", a.c, seatOf[a.c], k, a.chosen, errs, got, want)
			case !wantErr:
				hinted++
			}
		}
	}
	check(0)
	for i, m := range rec.Moves {
		mv, err := g.ParseMove(m.Seat, m.Text)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Play(m.Seat, mv, nil); err != nil {
			t.Fatal(err)
		}
		check(i + 1)
	}
	if _, ok := g.(rules.PartHints); ok && hinted == 0 {
		t.Fatalf("no seat of a %s game was ever sent hints", spec.Name)
	}
}
