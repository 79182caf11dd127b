package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bomber-game/bomber/client/ext"
	"github.com/bomber-game/bomber/segment"
)

// Play now from the terminal (quick pairing): p asks for a game, minutes
// each and "rated", then the server pairs the player; x stops looking, o
// takes the computer once the server offers it. --play GAME does the same
// at login.

// playRequest reads "GAME [MINUTES[+INCREMENT]] [rated]" (e.g. "dots 3",
// "checkers 10+5 rated"): the game, its clock options and the rated flag.
func playRequest(text string) (game string, clock []segment.KV, rated bool, err error) {
	f := strings.Fields(text)
	if len(f) == 0 {
		return "", nil, false, fmt.Errorf("type a game, e.g. dots 3 rated")
	}
	game = f[0]
	for _, w := range f[1:] {
		if w == "rated" {
			rated = true
			continue
		}
		mins, inc, _ := strings.Cut(w, "+")
		n, err := strconv.Atoi(mins)
		if err != nil || n < 1 {
			return "", nil, false, fmt.Errorf("%q: minutes each, e.g. 3 or 10+5", w)
		}
		clock = append(clock, segment.KV{Key: "clock.total", Value: strconv.Itoa(60 * n)})
		if inc != "" {
			if _, err := strconv.Atoi(inc); err != nil {
				return "", nil, false, fmt.Errorf("%q: seconds added a move after the +", w)
			}
			clock = append(clock, segment.KV{Key: "clock.increment", Value: inc})
		}
	}
	return game, clock, rated, nil
}

// play seeks a game as the prompt or --play asked.
func (m *tmodel) play(text string) {
	game, clock, rated, err := playRequest(text)
	if err != nil {
		m.err = err.Error()
		return
	}
	m.act(m.c.Seek(game, rated, clock))
}

// seekLine is the lobby's line about the player's seek ("" when none).
func (m *tmodel) seekLine() string {
	s := m.c.Seeking()
	if s == nil {
		return ""
	}
	hint := "  x stops"
	if s.Flags&segment.SeekComputerOffered != 0 {
		hint = "  o plays it, x stops"
	}
	return m.st.ok.Render(segment.SafeText(ext.SeekingText(*s)) + hint)
}
