package dots

import (
	"fmt"
	"strings"

	"github.com/bomber-game/bomber/rules"
)

// KindLine is the only move kind of Dots and Boxes: draw one line.
const KindLine uint8 = 1

// Step kinds.
const (
	// StepLine: Player drew the line from dot (A, B) to its right neighbour
	// (C = 0) or to the dot below (C = 1); rows and columns count from 0.
	StepLine uint8 = 1
	// StepBox: Player scored the box whose top-left dot is (A, B); C is the
	// player's score after it.
	StepBox uint8 = 2
	// StepResign: Player resigned and left the game; A, B and C are 0.
	StepResign uint8 = 3
)

// Resign returns the move giving the game up ("resign" in text).
func Resign() rules.Move { return rules.Move{Kind: rules.KindResign} }

// resignText is the notation of Resign.
const resignText = "resign"

// Line returns the move joining dot (r1, c1) to dot (r2, c2), rows and
// columns counted from 0 at the top left. The dots are stored top-left
// first, so both orders give the same move.
func Line(r1, c1, r2, c2 int) rules.Move {
	if r2 < r1 || (r2 == r1 && c2 < c1) {
		r1, c1, r2, c2 = r2, c2, r1, c1
	}
	return rules.Move{Kind: KindLine, Len: 4, Arg: [rules.MoveArgs]uint8{uint8(r1), uint8(c1), uint8(r2), uint8(c2)}}
}

// lineMove is the move drawing line l of b.
func (b *board) lineMove(l int) rules.Move {
	r1, c1, r2, c2, _ := b.dots(l)
	return Line(r1, c1, r2, c2)
}

// lineIndex maps a move to its line on b, or -1 when m is not a line of b
// in canonical form.
func (b *board) lineIndex(m rules.Move) int {
	if m.Kind != KindLine || m.Len != 4 {
		return -1
	}
	for _, a := range m.Arg[4:] {
		if a != 0 {
			return -1
		}
	}
	r1, c1, r2, c2 := int(m.Arg[0]), int(m.Arg[1]), int(m.Arg[2]), int(m.Arg[3])
	if r2 < r1 || (r2 == r1 && c2 < c1) {
		return -1
	}
	return b.lineOf(r1, c1, r2, c2)
}

// dotName writes a dot as column letter and row number: "a1" is the top left.
func dotName(r, c int) string { return fmt.Sprintf("%c%d", 'a'+c, r+1) }

// formatMove writes m as its two dots, "a1-b1"; anything that is not a line
// of b is written in a bracketed debug form that ParseMove refuses.
func (b *board) formatMove(m rules.Move) string {
	if m == Resign() {
		return resignText
	}
	l := b.lineIndex(m)
	if l < 0 {
		return fmt.Sprintf("[kind %d %v]", m.Kind, m.Arg[:min(int(m.Len), rules.MoveArgs)])
	}
	r1, c1, r2, c2, _ := b.dots(l)
	return dotName(r1, c1) + "-" + dotName(r2, c2)
}

// parseDot reads "a1".."h8": one column letter, then the row number.
func parseDot(s string) (r, c int, err error) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'z' || s[1] < '1' || s[1] > '9' {
		return 0, 0, fmt.Errorf("%w: dot %q is not a column letter and a row number like a1", rules.ErrNotation, s)
	}
	return int(s[1] - '1'), int(s[0] - 'a'), nil
}

// parseMove reads "a1-b1" (either dot first, letters in either case) or
// "resign".
func (b *board) parseMove(text string) (rules.Move, error) {
	text = strings.ToLower(strings.TrimSpace(text))
	if text == resignText {
		return Resign(), nil
	}
	from, to, ok := strings.Cut(text, "-")
	if !ok {
		return rules.Move{}, fmt.Errorf("%w: %q: want two dots joined by '-', like a1-b1", rules.ErrNotation, text)
	}
	r1, c1, err := parseDot(from)
	if err != nil {
		return rules.Move{}, err
	}
	r2, c2, err := parseDot(to)
	if err != nil {
		return rules.Move{}, err
	}
	l := b.lineOf(r1, c1, r2, c2)
	if l < 0 {
		return rules.Move{}, fmt.Errorf("%w: %q does not join two neighbouring dots of a %dx%d grid", rules.ErrNotation, text, b.rows, b.cols)
	}
	return b.lineMove(l), nil
}
