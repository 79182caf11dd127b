package main

import (
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/bomber-game/bomber/rules/aeroplane"
	"github.com/bomber-game/bomber/segment"
)

// typeText types s into a model's prompt, one key at a time.
func (l *hubLink) typeText(m *tmodel, s string) {
	for _, k := range s {
		l.press(m, string(k))
	}
}

// TestTablesErrorsInWords: a refusal reads as words, not as the protocol's
// code names ("NoTable:", "AtTable:").
func TestTablesErrorsInWords(t *testing.T) {
	l := newHubLink(t)
	a := l.model("Albert")
	l.press(a, "J")
	l.typeText(a, "99")
	l.press(a, "enter")
	s := shows(t, a, "no such table")
	if strings.Contains(s, "NoTable") {
		t.Fatalf("the error shows the code's name:\n%s", s)
	}
	if w := errWords(segment.ErrorBody{Code: segment.ErrCodeNotYourTurn, Text: "seat 1 is to move, not 0"}); w != "not your turn" {
		t.Errorf("another seat's turn reads %q", w)
	}
	if w := errWords(segment.ErrorBody{Code: segment.ErrCodeIllegal, Text: "a1-b1 is already drawn"}); w != "that move is not allowed: a1-b1 is already drawn" {
		t.Errorf("an illegal move reads %q", w)
	}
	for code := uint8(1); code <= 20; code++ {
		w := errWords(segment.ErrorBody{Code: code})
		if w == "" || w == segment.ErrCodeName(code) || regexp.MustCompile(`^[A-Z][a-z]+[A-Z]`).MatchString(w) {
			t.Errorf("code %d reads %q", code, w)
		}
	}
}

// TestTablesOneComputerSeat: b gives the computer one empty seat of a
// waiting table, not all of them.
func TestTablesOneComputerSeat(t *testing.T) {
	l := newHubLink(t)
	a := l.model("Albert")
	l.press(a, "c", "l", "l", "j", "l", "enter") // dots, 3 seats
	shows(t, a, "table #1 Dots and Boxes", "1 Albert  2 -  3 -")
	l.press(a, "b")
	shows(t, a, "1 Albert*  2 computer*  3 -") // a computer is its creator's Ready
	l.press(a, "b")
	shows(t, a, "1 Albert  2 computer*  3 computer*", "[playing]") // every seat ready: the game starts
}

// TestTablesBomberBoardsAtRandom: at a Bomber table the hint offers a
// random board, not one fixed board, and enter places it.
func TestTablesBomberBoardsAtRandom(t *testing.T) {
	hints := map[string]bool{}
	for range 6 {
		l := newHubLink(t)
		a, b := l.model("Albert"), l.model("Beth")
		l.press(a, "c", "enter") // bomber
		l.press(b, "r", "enter")
		l.press(a, "r")
		l.press(b, "r")
		s := shows(t, a, "Your turn.")
		m := regexp.MustCompile(`enter places (\d\d-\d\d \d\d-\d\d \d\d-\d\d)`).FindStringSubmatch(s)
		if m == nil {
			t.Fatalf("no board offered:\n%s", s)
		}
		hints[m[1]] = true
		l.press(a, "enter")
		s = shows(t, a, "Albert "+m[1])
		if n := strings.Count(strings.Join(regexp.MustCompile(`(?m)^ [A-J] .{20}`).FindAllString(s, -1), ""), "@"); n != 3 {
			t.Fatalf("the board offered is not on our grid (%d heads):\n%s", n, s)
		}
	}
	if len(hints) < 3 {
		t.Errorf("six games offered %d different boards", len(hints))
	}
}

// TestTablesWatcherSeesTheMoveCount: a watcher who comes in the middle of
// a game sees how many moves were played, not "moves 0", and the moves
// that follow numbered after them.
func TestTablesWatcherSeesTheMoveCount(t *testing.T) {
	l := newHubLink(t)
	a := l.model("Albert")
	b := l.client("Beth")
	w := l.model("Cindy")
	l.press(a, "c", "l", "enter") // checkers
	l.do(b)(b.RequestList())
	l.do(b)(b.Join(b.Tables()[0].ID, segment.SeatAny, ""))
	l.press(a, "r")
	l.do(b)(b.Ready())
	l.press(a, ":")
	l.typeText(a, "11-15")
	l.press(a, "enter")
	l.do(b)(b.MoveText("22-18"))
	l.press(w, "r", "w")
	s := shows(t, w, "watching", "moves 2")
	if strings.Contains(s, "moves 0") {
		t.Fatalf("the watcher sees no moves:\n%s", s)
	}
	l.press(a, ":")
	l.typeText(a, "15x22")
	l.press(a, "enter")
	shows(t, w, "moves 3", "  3 Albert 15x22")
}

// TestTablesUseTheWholeWidth: in a terminal wider than 80 columns nothing
// is cut at column 80; at 80 columns every line still fits.
func TestTablesUseTheWholeWidth(t *testing.T) {
	l := newHubLink(t)
	a := l.model("Albert")
	long := "a line of lobby chat long enough to run past the eightieth column of the screen, to its end"
	l.press(a, "t")
	l.typeText(a, long)
	l.press(a, "enter")
	a.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
	shows(t, a, "Albert: "+long)
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, line := range strings.Split(ansi.Strip(a.render()), "\n") {
		if ansi.StringWidth(line) > 80 {
			t.Fatalf("a line wider than 80 columns: %q", line)
		}
	}
}

// TestTablesAeroplaneShowsTheDice: at Aeroplane Chess the move list shows
// each roll's face and what each move did, and the last roll stays on
// screen after the turn has passed (a roll that could not move too).
func TestTablesAeroplaneShowsTheDice(t *testing.T) {
	l := newHubLink(t)
	a := l.model("Albert")
	b := l.client("Beth")
	l.press(a, "c", "l", "l", "l", "enter") // aeroplane
	l.do(b)(b.RequestList())
	l.do(b)(b.Join(b.Tables()[0].ID, segment.SeatAny, ""))
	l.press(a, "r")
	l.do(b)(b.Ready())
	seen := map[string]bool{}
	want := map[string]*regexp.Regexp{
		"a roll's face":         regexp.MustCompile(`(?m)Albert roll [1-6]`),
		"a roll without a move": regexp.MustCompile(`roll [1-6], no move`),
		"the last roll":         regexp.MustCompile(`last roll: (yellow|blue) \[[1-6]\]`),
		"a piece taking off":    regexp.MustCompile(`move [0-3] [^\n]*takes off`),
	}
	for range 400 {
		g := a.c.Game()
		if g == nil || g.Over() || len(seen) == len(want) {
			break
		}
		s := ansi.Strip(a.render())
		for name, re := range want {
			if re.MatchString(s) {
				seen[name] = true
			}
		}
		switch {
		case a.c.MyTurn():
			l.press(a, "tab", "enter")
		case b.MyTurn():
			legal := b.Game().Legal(b.Seat())
			if len(legal) == 0 {
				t.Fatalf("Beth is to move but has no legal move")
			}
			l.do(b)(b.Move(legal[0]))
		default:
			t.Fatalf("nobody is to move:\n%s", s)
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("the screen never showed %s", name)
		}
	}
}

// TestAeroNote: what a move did reads in words: jumps, flights, captures,
// a piece home, a lost third six.
func TestAeroNote(t *testing.T) {
	for _, tt := range []struct {
		steps []segment.StepBody
		want  string
	}{
		{[]segment.StepBody{{Kind: aeroplane.StepRoll, A: 4}, {Kind: aeroplane.StepNoMove, A: 4}, {Kind: aeroplane.StepTurn, Player: 1}}, "4, no move"},
		{[]segment.StepBody{{Kind: aeroplane.StepMove, A: 2, B: 10, C: 14}, {Kind: aeroplane.StepJump, A: 2, B: 14, C: 18},
			{Kind: aeroplane.StepFlight, A: 2, B: 18, C: 30}, {Kind: aeroplane.StepCapture, Player: 1, A: 3, B: 30}}, "jumps, flies, takes B3"},
		{[]segment.StepBody{{Kind: aeroplane.StepMove, A: 0, B: 50, C: 56}, {Kind: aeroplane.StepFinish, A: 0}}, "home"},
		{[]segment.StepBody{{Kind: aeroplane.StepRoll, A: 6, B: 3}, {Kind: aeroplane.StepThreeSixes, A: 6},
			{Kind: aeroplane.StepReturn, Player: 2, A: 1, B: 20}}, "6, third six, R1 to camp"},
	} {
		if got := aeroNote(tt.steps); got != tt.want {
			t.Errorf("%v: %q, want %q", tt.steps, got, tt.want)
		}
	}
}
