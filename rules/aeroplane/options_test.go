package aeroplane

import (
	"slices"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

func TestSettingsDefaultsAndRoundTrip(t *testing.T) {
	s, err := ParseSettings(nil)
	if err != nil || s != (Settings{SixBias: true}) {
		t.Fatalf("defaults %+v, %v; want only the six bias on", s, err)
	}
	all := Settings{SixBias: false, Stack: true, ExactFinish: true, LaunchOnFive: true, FlightCapture: true}
	back, err := ParseSettings(all.Options())
	if err != nil || back != all {
		t.Fatalf("%+v -> %v -> %+v, %v", all, all.Options(), back, err)
	}
}

func TestStacking(t *testing.T) {
	tests := []struct {
		name   string
		stack  string
		yellow []int // before: piece 0 moves with a 3 onto 11 where piece 1 stands
		want   [Pieces]int
	}{
		{"off: pieces share the space but move alone", "off", []int{8, 11, Camp, Camp}, [4]int{11, 11, Camp, Camp}},
		{"on: pieces stack", "on", []int{8, 11, Camp, Camp}, [4]int{11, 11, Camp, Camp}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, _ := scripted(t, 2, rules.Options{OptStack: tt.stack}, 3, 1, 3)
			place(g, Yellow, tt.yellow...)
			rollMove(t, g, Yellow, 0)
			if got := positions(g, Yellow); got != tt.want {
				t.Fatalf("after landing: %v, want %v", got, tt.want)
			}
			g.turn = Yellow
			rollMove(t, g, Yellow, 1) // a 1 from 11 to 12
			wantOther := 11
			if tt.stack == "on" {
				wantOther = 12
			}
			if got := g.Position(Yellow, 0); got != wantOther {
				t.Fatalf("moving piece 1 left piece 0 at %d, want %d", got, wantOther)
			}
		})
	}
}

func TestStackIsCapturedWholeAndJumpsTogether(t *testing.T) {
	g, _ := scripted(t, 2, rules.Options{OptStack: "on"}, 2, 4)
	place(g, Yellow, 20, 20)
	steps := rollMove(t, g, Yellow, 1) // 22 jumps to 26
	if got := positions(g, Yellow); got[0] != 26 || got[1] != 26 || len(steps) != 6 {
		t.Fatalf("stack split: %v (steps %+v)", got, steps)
	}
	// Yellow 26 is track 25, blue progress 13. Blue rolls 4 from 9 to 13.
	place(g, Blue, 9)
	steps = rollMove(t, g, Blue, 0)
	if got := positions(g, Yellow); got != [4]int{Camp, Camp, Camp, Camp} {
		t.Fatalf("a piece landing on a stack left %v (steps %+v)", got, steps)
	}
}

func TestStackSentBackByThreeSixes(t *testing.T) {
	g, _ := scripted(t, 2, rules.Options{OptStack: "on"}, 6, 6, 6)
	place(g, Yellow, 20, 20, 3)
	rollMove(t, g, Yellow, 0) // the stack moves 20 -> 26 -> jumps 30
	rollMove(t, g, Yellow, 2) // 3 -> 9
	mustPlay(t, g, Yellow, Roll())
	if got := positions(g, Yellow); got != [4]int{Camp, Camp, Camp, Camp} {
		t.Fatalf("after three sixes: %v", got)
	}
}

func TestExactFinish(t *testing.T) {
	tests := []struct {
		name        string
		exact       string
		from, face  int
		want        int
		wantBounced bool
	}{
		{"off: a larger roll finishes", "off", 53, 6, Centre, false},
		{"on: the exact roll finishes", "on", 53, 3, Centre, false},
		{"on: the excess bounces back", "on", 53, 6, 53, true},
		{"on: from the first bridge space", "on", 51, 6, 55, true},
		{"on: from the track into the bridge", "on", 48, 6, 54, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, _ := scripted(t, 2, rules.Options{OptExactFinish: tt.exact}, tt.face)
			place(g, Yellow, tt.from)
			steps := rollMove(t, g, Yellow, 0)
			if got := g.Position(Yellow, 0); got != tt.want {
				t.Errorf("%d + %d ends at %d, want %d", tt.from, tt.face, got, tt.want)
			}
			if got := slices.Contains(kinds(steps), StepBounce); got != tt.wantBounced {
				t.Errorf("bounce reported %v, want %v: %+v", got, tt.wantBounced, steps)
			}
		})
	}
}

func TestLaunchOnFive(t *testing.T) {
	for _, on := range []bool{false, true} {
		g, _ := scripted(t, 2, rules.Options{OptLaunchOnFive: onOff(on)}, 5)
		steps := mustPlay(t, g, Yellow, Roll())
		if got := len(g.Legal(Yellow, nil)) == Pieces; got != on {
			t.Fatalf("launch-on-5=%v: a 5 launches %v (steps %+v)", on, got, steps)
		}
		if !on {
			continue
		}
		mustPlay(t, g, Yellow, MovePiece(0))
		if g.Position(Yellow, 0) != Start || g.Turn() != Blue {
			t.Fatalf("a 5 launched to %d and gave the turn to %s; want start and no extra roll", g.Position(Yellow, 0), ColourName(g.Turn()))
		}
	}
}

func TestFlightCapture(t *testing.T) {
	tests := []struct {
		name    string
		opt     string
		players int
		red     int // red piece's progress
		caught  bool
	}{
		{"off: the bridge is safe", "off", 3, CrossedBridge, false},
		{"on: the crossed bridge space is hit", "on", 3, CrossedBridge, true},
		{"on: other bridge spaces are safe", "on", 3, CrossedBridge + 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, _ := scripted(t, tt.players, rules.Options{OptFlightCapture: tt.opt}, 3)
			place(g, Yellow, 15)
			place(g, Red, tt.red)
			steps := rollMove(t, g, Yellow, 0)
			if got := g.Position(Red, 0) == Camp; got != tt.caught {
				t.Fatalf("red piece caught %v, want %v; steps %+v", got, tt.caught, steps)
			}
		})
	}
	// Blue's flight passes over green's bridge.
	g, _ := scripted(t, 4, rules.Options{OptFlightCapture: "on"}, 3)
	g.turn = Blue
	place(g, Blue, 15)
	place(g, Green, CrossedBridge, CrossedBridge)
	steps := rollMove(t, g, Blue, 0)
	want := []uint8{StepRoll, StepMove, StepFlight, StepCapture, StepCapture, StepTurn}
	if !slices.Equal(kinds(steps), want) {
		t.Fatalf("blue's flight gave %v, want %v", kinds(steps), want)
	}
}
