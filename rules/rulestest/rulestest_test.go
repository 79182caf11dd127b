package rulestest_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/rulestest"
)

// race is a toy game for testing the suite: two seats take turns adding 1
// or 2, or a die roll of 1 or 2, to a total; whoever brings it to the
// target wins. bugs switches on the faults the suite must catch.
type race struct {
	rng    rules.Rand
	target int
	total  int
	turn   rules.Player
	added  [2]int
	over   bool
	winner rules.Player
	cells  []byte // the Observe buffer, reused only with bugs.aliasObserve
	bugs   bugs
}

type bugs struct {
	refusedDraw    bool // a refused move still draws from the generator
	aliasObserve   bool // Observe hands out the game's own buffer
	resignOnTurn   bool // resignation only on the seat's turn
	specMaxTooLow  bool // Spec.Options says less than New accepts
	refusedNoError bool // a move by the seat not to move is played anyway
	offersDraw     bool // lists a draw offer though it has no draws by agreement
	claimsDraws    bool // says draws may be agreed, against its documentation
}

const (
	kindAdd  uint8 = 1 // Arg[0] is 1 or 2
	kindRoll uint8 = 2
)

func raceSpec(b bugs) rules.Spec {
	max := 30
	if b.specMaxTooLow {
		max = 20
	}
	return rules.Spec{
		Name: "race", MinPlayers: 2, MaxPlayers: 2,
		Options: []rules.OptionSpec{{Key: "target", Doc: "the total that wins", Kind: rules.OptionInt, Default: "10", Min: 5, Max: max}},
		New: func(players int, opts rules.Options, rng rules.Rand) (rules.Game, error) {
			if players != 2 {
				return nil, rules.ErrPlayers
			}
			if err := opts.Check("target"); err != nil {
				return nil, err
			}
			target, err := opts.Int("target", 10, 5, 30)
			if err != nil {
				return nil, err
			}
			return &race{rng: rng, target: target, winner: rules.Spectator, bugs: b}, nil
		},
	}
}

func (g *race) Name() string { return "race" }
func (g *race) Players() int { return 2 }
func (g *race) ToMove(buf []rules.Player) []rules.Player {
	if g.over {
		return buf
	}
	return append(buf, g.turn)
}
func (g *race) Legal(p rules.Player, buf []rules.Move) []rules.Move {
	if g.over || p != g.turn {
		return buf
	}
	buf = append(buf, rules.Move{Kind: kindAdd, Len: 1, Arg: [16]uint8{1}}, rules.Move{Kind: kindAdd, Len: 1, Arg: [16]uint8{2}}, rules.Move{Kind: kindRoll})
	if g.bugs.offersDraw {
		buf = append(buf, rules.Move{Kind: rules.KindOfferDraw})
	}
	return buf
}
func (g *race) Play(p rules.Player, m rules.Move, steps []rules.Step) ([]rules.Step, error) {
	if g.over {
		return steps, rules.ErrGameOver
	}
	if p != 0 && p != 1 {
		return steps, rules.ErrNotYourTurn
	}
	if m.Kind == rules.KindResign && (p == g.turn || !g.bugs.resignOnTurn) {
		g.over, g.winner = true, 1-p
		return append(steps, rules.Step{Kind: 3, Player: p}), nil
	}
	if p != g.turn && !g.bugs.refusedNoError {
		if g.bugs.refusedDraw {
			g.rng.IntN(2)
		}
		return steps, rules.ErrNotYourTurn
	}
	var n int
	switch {
	case m.Kind == kindAdd && m.Len == 1 && (m.Arg[0] == 1 || m.Arg[0] == 2):
		n = int(m.Arg[0])
	case m == rules.Move{Kind: kindRoll}:
		n = 1 + g.rng.IntN(2)
	default:
		return steps, rules.ErrIllegal
	}
	g.total += n
	g.added[p] += n
	steps = append(steps, rules.Step{Kind: m.Kind, Player: p, A: int16(n), B: int16(g.total)})
	if g.total >= g.target {
		g.over, g.winner = true, p
	}
	g.turn = 1 - p
	return steps, nil
}
func (g *race) Outcome() rules.Outcome {
	if !g.over {
		return rules.Outcome{}
	}
	return rules.Outcome{Status: rules.Won, Winners: []rules.Player{g.winner}, Reason: "target reached"}
}
func (g *race) DrawByAgreement() bool  { return g.bugs.claimsDraws }
func (g *race) Scores(buf []int) []int { return append(buf, g.added[0], g.added[1]) }
func (g *race) FormatMove(m rules.Move) string {
	switch m.Kind {
	case kindAdd:
		return fmt.Sprint(m.Arg[0])
	case kindRoll:
		return "roll"
	case rules.KindResign:
		return "resign"
	}
	return "?"
}
func (g *race) ParseMove(_ rules.Player, text string) (rules.Move, error) {
	switch text {
	case "1", "2":
		return rules.Move{Kind: kindAdd, Len: 1, Arg: [16]uint8{text[0] - '0'}}, nil
	case "roll":
		return rules.Move{Kind: kindRoll}, nil
	case "resign":
		return rules.Move{Kind: rules.KindResign}, nil
	}
	return rules.Move{}, rules.ErrNotation
}
func (g *race) View(rules.Player) string {
	return fmt.Sprintf("total %d of %d, seat %d to move, over %v winner %d", g.total, g.target, g.turn, g.over, g.winner)
}
func (g *race) Observe(v rules.Player) rules.View {
	cells := []byte{byte(g.total), byte(g.target)}
	if g.bugs.aliasObserve {
		g.cells = append(g.cells[:0], cells...)
		cells = g.cells
	}
	return rules.View{Viewer: v, Status: g.Outcome().Status, ToMove: g.ToMove(nil), Scores: g.Scores(nil), Cells: cells, Extra: []byte{byte(g.turn)}}
}
func (g *race) Clone() rules.Game {
	c := *g
	c.rng = rand.New(rand.NewPCG(uint64(g.total), uint64(g.turn)))
	c.cells = nil
	return &c
}
func (g *race) Redact(rules.Player) rules.Game {
	c := g.Clone().(*race)
	c.rng = rand.New(rand.NewPCG(99, 99))
	return c
}

// fakeT records the suite's verdict instead of failing the test.
type fakeT struct {
	testing.TB
	failed bool
	msg    string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Errorf(format string, args ...any) {
	if !f.failed {
		f.msg = fmt.Sprintf(format, args...)
	}
	f.failed = true
}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	runtime.Goexit()
}
func (f *fakeT) Failed() bool { return f.failed }

// verdict runs the suite on spec and returns its first complaint, "" if none.
func verdict(t *testing.T, spec rules.Spec) string {
	f := &fakeT{TB: t}
	done := make(chan struct{})
	go func() { // Fatalf ends this goroutine, as it ends a test's
		defer close(done)
		rulestest.Conformance(f, spec, rulestest.Config{Games: 9, Seed: 5})
	}()
	<-done
	return f.msg
}

func TestSoundGamePasses(t *testing.T) {
	if msg := verdict(t, raceSpec(bugs{})); msg != "" {
		t.Fatalf("a sound game fails the suite: %s", msg)
	}
}

func TestSuiteCatchesFaults(t *testing.T) {
	tests := []struct {
		name string
		bugs bugs
		want string
	}{
		// Nothing a viewer sees changes: only the replay, which makes no
		// refused move, can tell.
		{"refused move draws from the generator", bugs{refusedDraw: true}, "replayed move"},
		{"Observe shares memory", bugs{aliasObserve: true}, "shared memory"},
		{"resignation off turn refused", bugs{resignOnTurn: true}, "may not resign"},
		{"option spec narrower than New", bugs{specMaxTooLow: true}, "outside the spec"},
		{"move out of turn played", bugs{refusedNoError: true}, "should be refused"},
		{"draw offer listed without draws", bugs{offersDraw: true}, "may offer a draw"},
		{"draws claimed against the docs", bugs{claimsDraws: true}, "its documentation says false"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg := verdict(t, raceSpec(tt.bugs))
			if !strings.Contains(msg, tt.want) {
				t.Fatalf("suite verdict %q, want a complaint containing %q", msg, tt.want)
			}
		})
	}
}
