package aeroplane

import (
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
)

// TestObserve: doc.go's example position gives the documented bytes to
// every viewer, and a resignation and the end show as documented.
func TestObserve(t *testing.T) {
	g, _ := scripted(t, 2, nil, 6, 3)
	mustPlay(t, g, Yellow, Roll())
	mustPlay(t, g, Yellow, MovePiece(0))
	mustPlay(t, g, Yellow, Roll())
	for _, viewer := range []rules.Player{rules.Spectator, Yellow, Blue} {
		v := g.Observe(viewer)
		if v.Viewer != viewer || v.Status != rules.Running || !slices.Equal(v.ToMove, []rules.Player{Yellow}) || !slices.Equal(v.Scores, []int{0, 0}) ||
			!slices.Equal(v.Cells, []byte{1, 0, 0, 0, 0, 0, 0, 0}) || !slices.Equal(v.Extra, []byte{2, 0, 1, 3, 1, 1, 0}) {
			t.Errorf("viewer %d: %+v; want cells [1 0 0 0 0 0 0 0], extra [2 0 1 3 1 1 0]", viewer, v)
		}
	}

	all := rules.Options{OptSixBias: "off", OptStack: "on", OptExactFinish: "on", OptLaunchOnFive: "on", OptFlightCapture: "on"}
	g, _ = scripted(t, 3, all, 2)
	place(g, Yellow, Start, 20, LastTrack+2, Centre)
	mustPlay(t, g, Blue, Resign())
	v := g.Observe(rules.Spectator)
	want := []byte{1, 21, 53, 57, CellGone, CellGone, CellGone, CellGone, 0, 0, 0, 0}
	if !slices.Equal(v.Cells, want) || !slices.Equal(v.Extra, []byte{3, 0, PhaseRoll, 0, 0, 30, 1 << Blue}) || !slices.Equal(v.Scores, []int{1, 0, 0}) {
		t.Errorf("after blue resigned: cells %v extra %v scores %v; want cells %v extra [3 0 0 0 0 30 2]", v.Cells, v.Extra, v.Scores, want)
	}
	mustPlay(t, g, Yellow, Resign())
	v = g.Observe(Red)
	if v.Status != rules.Won || len(v.ToMove) != 0 || !slices.Equal(v.Extra[:3], []byte{3, byte(Red), PhaseOver}) || v.Extra[6] != 1<<Yellow|1<<Blue {
		t.Errorf("red left alone: %+v", v)
	}
}

// advance plays n legal moves (never resigning) on g, choosing by k.
func advance(t *testing.T, g *Game, n, k int) {
	t.Helper()
	for j := range n {
		if g.winner >= 0 {
			return
		}
		legal := g.Legal(g.turn, nil)
		mustPlay(t, g, g.turn, legal[(k+j)%len(legal)])
	}
}

// TestRedactDiceUnrelated: a seat's redacted copy shows the whole position,
// but rolling on it neither disturbs the real game's dice nor predicts
// them: across many seeds its next roll matches the real next roll only at
// chance rate (1 in 6).
func TestRedactDiceUnrelated(t *testing.T) {
	opts := rules.Options{OptSixBias: "off"}
	const games = 1200
	agree := 0
	for i := range games {
		var seed [32]byte
		binary.LittleEndian.PutUint64(seed[:], uint64(i))
		g, err := New(2, opts, record.Rand(seed))
		if err != nil {
			t.Fatal(err)
		}
		twin, _ := New(2, opts, record.Rand(seed))
		advance(t, g, i%9, i)
		advance(t, twin, i%9, i)
		for g.winner < 0 && g.die != 0 { // bring the game to a roll
			advance(t, g, 1, i)
			advance(t, twin, 1, i)
		}
		if g.View(rules.Spectator) != twin.View(rules.Spectator) {
			t.Fatalf("seed %d: twins diverged before the test", i)
		}
		p := g.turn
		r := g.Redact(p)
		if r.View(p) != g.View(p) {
			t.Fatalf("seed %d: redacted copy shows\n%s\nwant\n%s", i, r.View(p), g.View(p))
		}
		rs, err := r.Play(p, Roll(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for range 5 { // roll on and on: the real game's generator must not move
			if m := r.Legal(r.(*Game).turn, nil); len(m) > 0 {
				r.Play(r.(*Game).turn, m[0], nil)
			}
		}
		gs := mustPlay(t, g, p, Roll())
		ts := mustPlay(t, twin, p, Roll())
		if gs[0] != ts[0] {
			t.Fatalf("seed %d: rolling on the redacted copy changed the real roll: %+v, untouched twin %+v", i, gs[0], ts[0])
		}
		if rs[0].A == gs[0].A {
			agree++
		}
	}
	if rate := float64(agree) / games; rate < 0.10 || rate > 0.24 {
		t.Errorf("redacted copies predicted the real roll %d times in %d (%.3f), want about 1/6", agree, games, rate)
	}
}

// TestResignTwoPlayers: the seat not to play resigns and the other wins.
func TestResignTwoPlayers(t *testing.T) {
	g, _ := scripted(t, 2, nil, 6)
	mustPlay(t, g, Yellow, Roll())
	steps := mustPlay(t, g, Blue, Resign())
	if !slices.Equal(steps, []rules.Step{{Kind: StepResign, Player: Blue}, {Kind: StepWin, Player: Yellow}}) {
		t.Errorf("steps %+v", steps)
	}
	if out := g.Outcome(); out.Status != rules.Won || !slices.Equal(out.Winners, []rules.Player{Yellow}) || len(g.ToMove(nil)) != 0 || len(g.Legal(Yellow, nil)) != 0 {
		t.Errorf("after blue resigned: %+v, to move %v", out, g.ToMove(nil))
	}
	if _, err := g.Play(Yellow, Resign(), nil); !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("resign after the end: %v", err)
	}
	if !strings.Contains(g.View(rules.Spectator), "winner yellow\n") {
		t.Errorf("view:\n%s", g.View(rules.Spectator))
	}
}

// TestResignManyPlayers: in a game of four, a seat that resigns with a
// rolled die loses the turn, its pieces leave the board, its turns are
// skipped, and the last seat left wins.
func TestResignManyPlayers(t *testing.T) {
	g, _ := scripted(t, 4, nil, 6, 3, 6, 6)
	place(g, Red, 10) // red's progress 10 is track 35
	mustPlay(t, g, Yellow, Roll())
	steps := mustPlay(t, g, Yellow, Resign())
	if !slices.Equal(steps, []rules.Step{{Kind: StepResign, Player: Yellow}, {Kind: StepTurn, Player: Blue}}) {
		t.Errorf("yellow resigns on turn: steps %+v", steps)
	}
	if g.turn != Blue || g.die != 0 || g.sixes != 0 || !g.Gone(Yellow) || positions(g, Yellow) != [Pieces]int{Camp, Camp, Camp, Camp} {
		t.Fatalf("after yellow resigned: turn %s die %d, yellow %v", ColourName(g.turn), g.die, positions(g, Yellow))
	}
	mustPlay(t, g, Blue, Roll()) // 3: blue has nothing to launch
	if g.turn != Red {
		t.Fatalf("%s to play, want red", ColourName(g.turn))
	}
	if steps := mustPlay(t, g, Green, Resign()); !slices.Equal(steps, []rules.Step{{Kind: StepResign, Player: Green}}) { // off turn
		t.Errorf("green resigns off turn: steps %+v", steps)
	}
	if _, err := g.Play(Green, Resign(), nil); !errors.Is(err, rules.ErrNotYourTurn) {
		t.Errorf("green resigns twice: %v", err)
	}
	if _, err := g.Play(Green, Roll(), nil); !errors.Is(err, rules.ErrNotYourTurn) {
		t.Errorf("green rolls after leaving: %v", err)
	}
	mustPlay(t, g, Red, Roll())
	mustPlay(t, g, Red, MovePiece(1)) // a six: red launches and rolls again
	mustPlay(t, g, Red, Roll())       // a six
	mustPlay(t, g, Red, MovePiece(0))
	if !strings.Contains(g.View(rules.Spectator), "yellow left\n") || !strings.Contains(g.View(rules.Spectator), "green left\n") {
		t.Errorf("view does not show who left:\n%s", g.View(rules.Spectator))
	}
	if out := g.Outcome(); out.Status != rules.Running {
		t.Fatalf("two seats left but %+v", out)
	}
	mustPlay(t, g, Red, Resign())
	if out := g.Outcome(); out.Status != rules.Won || !slices.Equal(out.Winners, []rules.Player{Blue}) || out.Reason == "" {
		t.Errorf("blue left alone: %+v", out)
	}
}

// TestResignedPiecesCannotBeCaptured: a seat that left has no piece on the
// track for others to capture.
func TestResignedPiecesCannotBeCaptured(t *testing.T) {
	g, _ := scripted(t, 3, nil, 3)
	place(g, Yellow, 1)
	place(g, Blue, 43) // blue's 43 is track 3: yellow's progress 4
	mustPlay(t, g, Blue, Resign())
	steps := rollMove(t, g, Yellow, 0)
	for _, s := range steps {
		if s.Kind == StepCapture {
			t.Errorf("captured a piece of a seat that left: %+v", s)
		}
	}
}

// TestNotationEveryKind: roll, every piece move and resign round-trip
// through notation, and a game's notation replays from its seed through
// rules/record to the same game, resignations included.
func TestNotationEveryKind(t *testing.T) {
	g0, _ := New(2, nil, valueDie(0))
	for _, m := range []rules.Move{Roll(), MovePiece(0), MovePiece(1), MovePiece(2), MovePiece(3), Resign()} {
		text := g0.FormatMove(m)
		if back, err := g0.ParseMove(Yellow, text); err != nil || back != m {
			t.Errorf("%+v formats as %q, parses back as %+v, %v", m, text, back, err)
		}
	}
	var seed [32]byte
	seed[0] = 9
	opts := rules.Options{OptStack: "on"}
	g, err := Spec().New(4, opts, record.Rand(seed))
	if err != nil {
		t.Fatal(err)
	}
	rec := &record.Game{Game: Name, Options: opts, Seats: make([]record.Seat, 4), Seed: seed, Reason: "won"}
	bots := []*Bot{NewBot(1), NewBot(2), NewBot(3), NewBot(4)}
	for n := 0; g.Outcome().Status == rules.Running; n++ {
		p := g.ToMove(nil)[0]
		var m rules.Move
		switch n {
		case 40:
			p, m = (p+1)%4, Resign() // off turn
		case 200:
			m = Resign() // on turn
		default:
			if m, err = bots[p].Choose(rules.SeatOf(g, p)); err != nil {
				t.Fatal(err)
			}
		}
		text := g.FormatMove(m)
		if back, err := g.ParseMove(p, text); err != nil || back != m {
			t.Fatalf("%+v formats as %q, parses back as %+v, %v", m, text, back, err)
		}
		if _, err := g.Play(p, m, nil); err != nil {
			t.Fatalf("move %d %s by %s: %v", n, text, ColourName(p), err)
		}
		rec.Moves = append(rec.Moves, record.Move{Seat: p, Text: text})
	}
	rec.Outcome = g.Outcome()
	back, err := record.Replay(Spec(), rec)
	if err != nil {
		t.Fatal(err)
	}
	if back.View(rules.Spectator) != g.View(rules.Spectator) {
		t.Errorf("replay from the seed ends as\n%s\nwant\n%s", back.View(rules.Spectator), g.View(rules.Spectator))
	}
	// The game's own record, with its resignations, reads back and replays.
	text := g.(*Game).Record().String()
	if strings.Count(text, " resign\n") != 2 {
		t.Fatalf("record lacks the two resignations:\n%s", text)
	}
	pr, err := ParseRecord(text)
	if err != nil {
		t.Fatal(err)
	}
	re, err := Replay(pr, valueDie(0))
	if err != nil || re.View(rules.Spectator) != g.View(rules.Spectator) {
		t.Errorf("record replays to %v:\n%s", err, text)
	}
}

// TestOptionSpecs: Spec.Options lists every key New accepts, with the
// defaults New uses.
func TestOptionSpecs(t *testing.T) {
	spec := Spec()
	var keys []string
	def := rules.Options{}
	for _, o := range spec.Options {
		keys = append(keys, o.Key)
		if o.Kind != rules.OptionBool || o.Doc == "" {
			t.Errorf("%+v", o)
		}
		def[o.Key] = o.Default
	}
	want := optionKeys()
	if !slices.Equal(keys, want[:]) {
		t.Errorf("keys %v, want %v", keys, want)
	}
	s, err := ParseSettings(def)
	if err != nil || s != DefaultSettings() {
		t.Errorf("the listed defaults give %+v, %v; want %+v", s, err, DefaultSettings())
	}
}
