package aeroplane

import (
	"testing"

	"github.com/bomber-game/bomber/rules"
)

func TestTrackHasThirteenSpacesOfEachColourInARepeatingPattern(t *testing.T) {
	var count [maxColours]int
	for i := range TrackLen {
		c := SpaceColour(i)
		count[c]++
		if next := SpaceColour((i + 1) % TrackLen); next != (c+1)%4 {
			t.Errorf("space %d is %s but space %d is %s: pattern broken", i, ColourName(c), (i+1)%TrackLen, ColourName(next))
		}
	}
	for c, n := range count {
		if n != 13 {
			t.Errorf("%s has %d track spaces, want 13", ColourName(rules.Player(c)), n)
		}
	}
}

func TestEveryColourRoute(t *testing.T) {
	for c := Yellow; c <= Green; c++ {
		t.Run(ColourName(c), func(t *testing.T) {
			seen := map[int]bool{}
			own := 0
			for k := 1; k <= LastTrack; k++ {
				ti := TrackIndex(c, k)
				if ti < 0 || ti >= TrackLen || seen[ti] {
					t.Fatalf("progress %d maps to track %d (seen before: %v)", k, ti, seen[ti])
				}
				seen[ti] = true
				if k > 1 && ti != (TrackIndex(c, k-1)+1)%TrackLen {
					t.Errorf("progress %d is not clockwise next to progress %d", k, k-1)
				}
				if ownColour(k) != (SpaceColour(ti) == c) {
					t.Errorf("progress %d (track %d, %s) own colour %v", k, ti, ColourName(SpaceColour(ti)), ownColour(k))
				}
				if ownColour(k) {
					own++
				}
			}
			if own != 13 {
				t.Errorf("route crosses %d spaces of its colour, want all 13", own)
			}
			for k := LastTrack + 1; k <= Centre; k++ {
				if TrackIndex(c, k) != -1 {
					t.Errorf("bridge progress %d maps onto the track", k)
				}
			}
			if got := Centre - Start; got != 56 {
				t.Errorf("launch to centre is %d steps, want 56", got)
			}
			if n := BridgeLen; n != 6 {
				t.Errorf("bridge has %d spaces, want 6", n)
			}
			for _, sp := range []int{TurningSpace(c), ShortcutSpace(c), FlightEndSpace(c)} {
				if SpaceColour(sp) != c {
					t.Errorf("special space %d is %s", sp, ColourName(SpaceColour(sp)))
				}
			}
			// The flight crosses the opposite colour's bridge halfway.
			if mid := (ShortcutSpace(c) + FlightLen/2) % TrackLen; mid != TurningSpace(Opposite(c)) {
				t.Errorf("flight midpoint %d, opposite turning space %d", mid, TurningSpace(Opposite(c)))
			}
		})
	}
}

func TestGeometryTable(t *testing.T) {
	// The documented board, as a client author draws it.
	tests := []struct {
		c                              rules.Player
		entry, turning, shortcut, land int
	}{
		{Yellow, 0, 49, 17, 29},
		{Blue, 13, 10, 30, 42},
		{Red, 26, 23, 43, 3},
		{Green, 39, 36, 4, 16},
	}
	for _, tt := range tests {
		got := [4]int{EntrySpace(tt.c), TurningSpace(tt.c), ShortcutSpace(tt.c), FlightEndSpace(tt.c)}
		if want := [4]int{tt.entry, tt.turning, tt.shortcut, tt.land}; got != want {
			t.Errorf("%s entry/turning/shortcut/flight end = %v, want %v", ColourName(tt.c), got, want)
		}
	}
}

func TestJumpAndFlightDistances(t *testing.T) {
	tests := []struct {
		name       string
		from, face int
		land       int
		final      int
	}{
		{"plain move", 3, 2, 5, 5},
		{"jump +4", Start, 2, 2, 6},
		{"flight +12, not followed by a jump", 15, 3, Shortcut, Shortcut + 12},
		{"jump then flight +16", 10, 4, 14, Shortcut + 12},
		{"flight end reached by the die jumps", 27, 3, FlightEnd, FlightEnd + 4},
		{"jump onto the turning space", 43, 3, 46, LastTrack},
		{"turning space does not jump", 47, 3, LastTrack, LastTrack},
		{"into the bridge", 48, 4, 52, 52},
		{"no jumps on the bridge", 51, 3, 54, 54},
	}
	for _, tt := range tests {
		for c := Yellow; c <= Green; c++ {
			t.Run(tt.name+"/"+ColourName(c), func(t *testing.T) {
				g, _ := scripted(t, 4, nil, tt.face)
				g.turn = c
				place(g, c, tt.from)
				steps := rollMove(t, g, c, 0)
				if got := g.Position(c, 0); got != tt.final {
					t.Errorf("piece at %d with %d ends at %d, want %d (steps %v)", tt.from, tt.face, got, tt.final, steps)
				}
				if steps[1].Kind != StepMove || int(steps[1].C) != tt.land {
					t.Errorf("die count reported as %+v, want a move to %d", steps[1], tt.land)
				}
			})
		}
	}
}
