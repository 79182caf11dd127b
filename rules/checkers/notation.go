package checkers

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bomber-game/bomber/rules"
)

// formatMove writes m in PDN: "11-15" for a simple move, "22x15" or
// "11x18x25" for jumps (always the full path, so it reads back unchanged).
func formatMove(m rules.Move) string {
	switch m.Kind {
	case KindMove, KindJump:
		sep := "-"
		if m.Kind == KindJump {
			sep = "x"
		}
		var b strings.Builder
		for i := 0; i < int(m.Len) && i < rules.MoveArgs; i++ {
			if i > 0 {
				b.WriteString(sep)
			}
			b.WriteString(strconv.Itoa(int(m.Arg[i])))
		}
		return b.String()
	case rules.KindOfferDraw:
		return textOfferDraw
	case rules.KindAcceptDraw:
		return textAcceptDraw
	case rules.KindDeclineDraw:
		return textDeclineDraw
	case rules.KindResign:
		return textResign
	}
	return fmt.Sprintf("?kind%d", m.Kind)
}

// parseText reads move text without looking at a position. A path joined by
// "x" is a jump; two squares joined by "-" a simple move; a longer "-" path
// is taken as a jump, as some older PDN files write them.
func parseText(text string) (rules.Move, error) {
	text = strings.TrimSpace(text)
	switch strings.ToLower(text) {
	case textOfferDraw:
		return rules.Move{Kind: rules.KindOfferDraw}, nil
	case textAcceptDraw:
		return rules.Move{Kind: rules.KindAcceptDraw}, nil
	case textDeclineDraw:
		return rules.Move{Kind: rules.KindDeclineDraw}, nil
	case textResign:
		return rules.Move{Kind: rules.KindResign}, nil
	}
	jump := strings.ContainsAny(text, "xX")
	if jump && strings.Contains(text, "-") {
		return rules.Move{}, fmt.Errorf("%w: %q mixes - and x", rules.ErrNotation, text)
	}
	parts := strings.FieldsFunc(text, func(r rune) bool { return r == '-' || r == 'x' || r == 'X' })
	if len(parts) < 2 || len(parts) > rules.MoveArgs || strings.Count(text, "-")+strings.Count(strings.ToLower(text), "x") != len(parts)-1 {
		return rules.Move{}, fmt.Errorf("%w: %q is not a PDN move such as 11-15 or 11x18x25", rules.ErrNotation, text)
	}
	var m rules.Move
	for i, s := range parts {
		sq, err := strconv.Atoi(s)
		if err != nil || sq < 1 || sq > 32 || s[0] == '+' || s[0] == '-' {
			return rules.Move{}, fmt.Errorf("%w: %q: %q is not a square from 1 to 32", rules.ErrNotation, text, s)
		}
		m.Arg[i] = uint8(sq)
	}
	m.Len = uint8(len(parts))
	m.Kind = KindMove
	if jump || len(parts) > 2 {
		m.Kind = KindJump
	}
	return m, nil
}

// resolve matches parsed move text against the legal moves: an exact path
// wins; a two-square text names the one legal move with that start and end
// (PDN's short form of a multi-jump), and is an error when several match.
// Text that matches nothing is returned as read, for Play to refuse.
func resolve(m rules.Move, text string, legal []move) (rules.Move, error) {
	if m.Kind != KindMove && m.Kind != KindJump {
		return m, nil
	}
	for _, l := range legal {
		if l.m == m {
			return m, nil
		}
	}
	if m.Len != 2 {
		return m, nil
	}
	var found rules.Move
	n := 0
	for _, l := range legal {
		if l.m.Arg[0] == m.Arg[0] && l.m.Arg[l.m.Len-1] == m.Arg[1] {
			found = l.m
			n++
		}
	}
	switch n {
	case 0:
		return m, nil
	case 1:
		return found, nil
	}
	return rules.Move{}, fmt.Errorf("%w: %q is ambiguous: %d jump paths lead from %d to %d; give the full path",
		rules.ErrNotation, text, n, m.Arg[0], m.Arg[1])
}
