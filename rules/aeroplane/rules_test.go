package aeroplane

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

func TestLaunchOnlyOnASix(t *testing.T) {
	g, _ := scripted(t, 2, nil, 3, 6, 2)
	steps := mustPlay(t, g, Yellow, Roll())
	if want := []uint8{StepRoll, StepNoMove, StepTurn}; !slices.Equal(kinds(steps), want) {
		t.Fatalf("a 3 with all pieces in camp gave steps %v, want %v", kinds(steps), want)
	}
	if g.Turn() != Blue {
		t.Fatalf("turn passed to %s, want blue", ColourName(g.Turn()))
	}
	mustPlay(t, g, Blue, Roll())
	if got := len(g.Legal(Blue, nil)); got != 4 {
		t.Fatalf("a 6 offers %d pieces, want all 4", got)
	}
	steps = mustPlay(t, g, Blue, MovePiece(2))
	if steps[0].Kind != StepLaunch || g.Position(Blue, 2) != Start {
		t.Fatalf("launch gave %+v, piece at %d", steps, g.Position(Blue, 2))
	}
	if last := steps[len(steps)-1]; last.Kind != StepTurn || last.Player != Blue || last.A != 1 {
		t.Fatalf("a six did not give another roll: %+v", last)
	}
	mustPlay(t, g, Blue, Roll())
	if got := g.Legal(Blue, nil); !slices.Equal(got, []rules.Move{MovePiece(2)}) {
		t.Fatalf("with a 2 only the launched piece may move, got %v", got)
	}
}

func TestAnySixGivesAnotherRoll(t *testing.T) {
	g, _ := scripted(t, 2, nil, 6, 4)
	place(g, Yellow, 20)
	steps := rollMove(t, g, Yellow, 0)
	if g.Turn() != Yellow || steps[len(steps)-1].A != 1 {
		t.Fatalf("after moving a 6 the turn is %s (steps %v)", ColourName(g.Turn()), steps)
	}
	rollMove(t, g, Yellow, 0)
	if g.Turn() != Blue {
		t.Fatalf("after a 4 the turn is %s, want blue", ColourName(g.Turn()))
	}
}

func TestThreeSixes(t *testing.T) {
	tests := []struct {
		name  string
		start []int
		moves []int // pieces moved with the first two sixes
		want  [Pieces]int
		back  []int // pieces reported returning
	}{
		{"launched then moved piece returns", []int{Camp, Camp, Camp, Camp}, []int{0, 0}, [4]int{Camp, Camp, Camp, Camp}, []int{0}},
		{"both launched pieces return", []int{Camp, Camp, 20, Camp}, []int{0, 1}, [4]int{Camp, Camp, 20, Camp}, []int{0, 1}},
		{"untouched pieces stay", []int{7, 11, 20, Camp}, []int{0, 2}, [4]int{Camp, 11, Camp, Camp}, []int{0, 2}},
		{"a piece that reached home stays home", []int{52, 11, Camp, Camp}, []int{0, 1}, [4]int{Centre, Camp, Camp, Camp}, []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, _ := scripted(t, 2, nil, 6, 6, 6, 1)
			place(g, Yellow, tt.start...)
			for _, i := range tt.moves {
				rollMove(t, g, Yellow, i)
			}
			steps := mustPlay(t, g, Yellow, Roll())
			var returned []int
			for _, s := range steps {
				if s.Kind == StepReturn {
					returned = append(returned, int(s.A))
				}
			}
			if !slices.Contains(kinds(steps), StepThreeSixes) || !slices.Equal(returned, tt.back) {
				t.Errorf("third six gave steps %+v, want pieces %v back", steps, tt.back)
			}
			if got := positions(g, Yellow); got != tt.want {
				t.Errorf("pieces at %v, want %v", got, tt.want)
			}
			if g.Turn() != Blue {
				t.Errorf("turn is %s after three sixes, want blue", ColourName(g.Turn()))
			}
		})
	}
}

func TestSixesCountOnlyWithinATurn(t *testing.T) {
	// Yellow: 6, 6, 2; blue: 1; yellow: 6 is a first six again.
	g, _ := scripted(t, 2, nil, 6, 6, 2, 1, 6)
	place(g, Yellow, 20)
	place(g, Blue, 20)
	rollMove(t, g, Yellow, 0)
	rollMove(t, g, Yellow, 0)
	rollMove(t, g, Yellow, 0)
	rollMove(t, g, Blue, 0)
	steps := mustPlay(t, g, Yellow, Roll())
	if steps[0].B != 1 || slices.Contains(kinds(steps), StepThreeSixes) {
		t.Fatalf("a six in a new turn was counted as %d in a row: %+v", steps[0].B, steps)
	}
}

func TestCaptures(t *testing.T) {
	tests := []struct {
		name     string
		yellow   int // yellow piece 0's progress before a roll of face
		face     int
		blue     []int // blue pieces (progress in blue's terms)
		red      []int
		captured int
	}{
		// Yellow progress 9 is track 8; blue progress 48 is track 13+47=60%52=8.
		{"one piece", 5, 4, []int{48}, nil, 1},
		{"several pieces of several colours", 5, 4, []int{48, 48, 3}, []int{35}, 3},
		{"pieces on their starting space are safe", 5, 4, []int{Start, Start}, nil, 0},
		// Yellow lands on 14 (track 13), jumps to 18, flies to 30 (track 29).
		{"only where the piece comes to rest", 10, 4, []int{1}, []int{4}, 1},
		{"pieces on a bridge are out of reach", 47, 3, []int{LastTrack + 3}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, _ := scripted(t, 3, nil, tt.face)
			place(g, Yellow, tt.yellow)
			place(g, Blue, tt.blue...)
			place(g, Red, tt.red...)
			steps := rollMove(t, g, Yellow, 0)
			n := 0
			for _, s := range steps {
				if s.Kind == StepCapture {
					n++
					if g.Position(s.Player, int(s.A)) != Camp || s.C != int16(Yellow) {
						t.Errorf("captured %s piece %d is at %d (step %+v)", ColourName(s.Player), s.A, g.Position(s.Player, int(s.A)), s)
					}
				}
			}
			if n != tt.captured {
				t.Errorf("%d captures, want %d; steps %+v", n, tt.captured, steps)
			}
		})
	}
}

func TestJumpFlightCaptureStepsInOrder(t *testing.T) {
	g, _ := scripted(t, 2, nil, 4)
	place(g, Yellow, 10)
	place(g, Blue, 17) // track 29 = yellow's flight end
	steps := rollMove(t, g, Yellow, 0)
	want := []rules.Step{
		{Kind: StepRoll, Player: Yellow, A: 4},
		{Kind: StepMove, Player: Yellow, A: 0, B: 10, C: 14},
		{Kind: StepJump, Player: Yellow, A: 0, B: 14, C: 18},
		{Kind: StepFlight, Player: Yellow, A: 0, B: 18, C: 30},
		{Kind: StepCapture, Player: Blue, A: 0, B: 17, C: int16(Yellow)},
		{Kind: StepTurn, Player: Blue},
	}
	if !slices.Equal(steps, want) {
		t.Fatalf("steps\n%+v\nwant\n%+v", steps, want)
	}
}

func TestFinishingWithALargerRollAndWinning(t *testing.T) {
	g, _ := scripted(t, 2, nil, 6, 5)
	place(g, Yellow, 53, Centre, Centre, 52)
	steps := rollMove(t, g, Yellow, 0)
	if g.Position(Yellow, 0) != Centre || !slices.Contains(kinds(steps), StepFinish) {
		t.Fatalf("53 + 6 did not finish: at %d, steps %+v", g.Position(Yellow, 0), steps)
	}
	if g.Outcome().Status != rules.Running {
		t.Fatal("game over with a piece still out")
	}
	steps = rollMove(t, g, Yellow, 3)
	if last := steps[len(steps)-1]; last.Kind != StepWin || last.Player != Yellow {
		t.Fatalf("last piece home did not win: %+v", steps)
	}
	out := g.Outcome()
	if out.Status != rules.Won || !slices.Equal(out.Winners, []rules.Player{Yellow}) {
		t.Fatalf("outcome %+v", out)
	}
	if len(g.ToMove(nil)) != 0 || len(g.Legal(Blue, nil)) != 0 {
		t.Fatal("someone may still move after the win")
	}
	if _, err := g.Play(Blue, Roll(), nil); !errors.Is(err, rules.ErrGameOver) {
		t.Fatalf("roll after the win: %v", err)
	}
	if got := g.Scores(nil); !slices.Equal(got, []int{4, 0}) {
		t.Fatalf("scores %v", got)
	}
}

func TestSixBias(t *testing.T) {
	tests := []struct {
		name  string
		opts  rules.Options
		setup []int
		n     int
	}{
		{"all in camp: biased", nil, nil, 8},
		{"only camp and home: biased", nil, []int{Centre, Centre}, 8},
		{"a piece on its starting space: fair", nil, []int{Start}, 6},
		{"a piece on the bridge: fair", nil, []int{Centre, 52}, 6},
		{"option off: fair", rules.Options{OptSixBias: "off"}, nil, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, d := scripted(t, 2, tt.opts, 1)
			place(g, Yellow, tt.setup...)
			mustPlay(t, g, Yellow, Roll())
			if d.asked[0] != tt.n {
				t.Errorf("die drawn with IntN(%d), want IntN(%d)", d.asked[0], tt.n)
			}
		})
	}
}

// valueDie answers one fixed IntN value.
type valueDie int

func (v valueDie) IntN(int) int { return int(v) }

func TestBiasedDieIsThreeEighthsSix(t *testing.T) {
	var count [7]int
	for v := range 8 {
		g, _ := New(2, nil, valueDie(v))
		steps := mustPlay(t, g, Yellow, Roll())
		count[steps[0].A]++
	}
	if want := [7]int{0, 1, 1, 1, 1, 1, 3}; count != want {
		t.Fatalf("faces over IntN(8) values: %v, want %v (6 on 3 of 8 = 37.5%%)", count, want)
	}
}

func TestRefusedMoves(t *testing.T) {
	g, _ := scripted(t, 2, nil, 3)
	place(g, Yellow, 5)
	tests := []struct {
		name string
		p    rules.Player
		m    rules.Move
		want error
	}{
		{"move before rolling", Yellow, MovePiece(0), rules.ErrIllegal},
		{"other player rolls", Blue, Roll(), rules.ErrNotYourTurn},
		{"bad kind", Yellow, rules.Move{Kind: 9}, rules.ErrIllegal},
	}
	for _, tt := range tests {
		before := g.View(rules.Spectator)
		if _, err := g.Play(tt.p, tt.m, nil); !errors.Is(err, tt.want) {
			t.Errorf("%s: err %v, want %v", tt.name, err, tt.want)
		}
		if g.View(rules.Spectator) != before {
			t.Errorf("%s changed the game", tt.name)
		}
	}
	mustPlay(t, g, Yellow, Roll())
	for _, m := range []rules.Move{Roll(), MovePiece(1), MovePiece(4), {Kind: KindMove, Len: 2}} {
		if _, err := g.Play(Yellow, m, nil); !errors.Is(err, rules.ErrIllegal) {
			t.Errorf("%+v with a 3 and one piece out: err %v, want ErrIllegal", m, err)
		}
	}
}

func TestNewRefusesBadSetups(t *testing.T) {
	tests := []struct {
		players int
		opts    rules.Options
		want    error
	}{
		{1, nil, rules.ErrPlayers},
		{5, nil, rules.ErrPlayers},
		{2, rules.Options{"stack": "maybe"}, rules.ErrOption},
		{2, rules.Options{"colours": "6"}, rules.ErrOption},
	}
	for _, tt := range tests {
		if _, err := New(tt.players, tt.opts, valueDie(0)); !errors.Is(err, tt.want) {
			t.Errorf("New(%d, %v): err %v, want %v", tt.players, tt.opts, err, tt.want)
		}
	}
}

func TestNotation(t *testing.T) {
	g, _ := scripted(t, 2, nil)
	for _, m := range []rules.Move{Roll(), MovePiece(0), MovePiece(3)} {
		text := g.FormatMove(m)
		back, err := g.ParseMove(Yellow, text)
		if err != nil || back != m {
			t.Errorf("%+v -> %q -> %+v, %v", m, text, back, err)
		}
	}
	for _, bad := range []string{"", "rol", "move", "move 4", "move -1", "move 01", "roll 6"} {
		if _, err := g.ParseMove(Yellow, bad); !errors.Is(err, rules.ErrNotation) {
			t.Errorf("ParseMove(%q): err %v, want ErrNotation", bad, err)
		}
	}
}

func TestRollingOnACloneLeavesTheGamesDiceAlone(t *testing.T) {
	faces := func(g rules.Game, n int) []int16 {
		var out []int16
		for range n {
			p := g.ToMove(nil)[0]
			steps, err := g.Play(p, g.Legal(p, nil)[0], nil)
			if err != nil {
				t.Fatal(err)
			}
			if steps[0].Kind == StepRoll {
				out = append(out, steps[0].A)
			}
		}
		return out
	}
	a, _ := New(2, nil, rand.New(rand.NewPCG(5, 5)))
	b, _ := New(2, nil, rand.New(rand.NewPCG(5, 5)))
	faces(a.Clone(), 40)
	if fa, fb := faces(a, 40), faces(b, 40); !slices.Equal(fa, fb) {
		t.Fatalf("after rolling on a clone the game rolled %v, want %v", fa, fb)
	}
}
