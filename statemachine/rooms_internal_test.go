package statemachine

import (
	"fmt"
	"testing"
	"unicode/utf8"

	"github.com/bomber-game/bomber/rules"
)

// TestRefusalsReadAsReasons: a player refused by the rules reads what is
// wrong, not the names of the game's package or of the kind of refusal
// (the Error's code says that), and a long reason is cut at the end of a
// word, marked, never inside a character.
func TestRefusalsReadAsReasons(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("dots: %w: a1-b1 is already drawn", rules.ErrIllegal), "a1-b1 is already drawn"},
		{fmt.Errorf("%w: plane 2: planes overlap", rules.ErrIllegal), "plane 2: planes overlap"},
		{fmt.Errorf("%w: White is to move", rules.ErrNotYourTurn), "White is to move"},
		{rules.ErrNotYourTurn, "not your turn"},
		{fmt.Errorf("%w: \"99-98-\" is not a PDN move such as 11-15 or 22x15x8", rules.ErrNotation), "\"99-98-\" is not a PDN move such as 11-15 or 22x15x8"},
		{fmt.Errorf("%w: %s", rules.ErrNotation, "this reason goes on and on well past what one Error message can carry"), "this reason goes on and on well past what one Error…"},
	} {
		if got := refusal(c.err); got != c.want {
			t.Errorf("%v reads %q, want %q", c.err, got, c.want)
		}
	}
	long := fmt.Errorf("%w: %s", rules.ErrIllegal, "ééééééééééééééééééééééééééééééééééééééééééééééééééé")
	if got := refusal(long); len(got) > maxReason || !utf8.ValidString(got) {
		t.Errorf("a reason without spaces reads %q (%d bytes): want at most %d bytes of whole characters", got, len(got), maxReason)
	}
}
