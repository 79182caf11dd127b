package main

import (
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/bomber-game/bomber/segment"
)

// tablesMain runs the tables client (--tables) or a replay (--replay).
func tablesMain(cfg config) int {
	opts := []tea.ProgramOption{}
	if cfg.mono || os.Getenv("NO_COLOR") != "" {
		opts = append(opts, tea.WithColorProfile(colorprofile.ASCII))
	}
	m := newTModel(cfg, newTStyles(), func(gen int) tea.Cmd { return dialExtCmd(cfg.addr, gen) })
	if cfg.replay != "" {
		rp, err := replayFile(cfg.replay)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bomber:", err)
			return 1
		}
		m.replay = rp
		m.dialer = func(int) tea.Cmd { return nil } // a replay needs no server
	}
	if _, err := tea.NewProgram(m, opts...).Run(); err != nil {
		fmt.Fprintln(os.Stderr, "bomber:", err)
		return 1
	}
	return 0
}

// dialExtCmd dials a connection that reads the extended dialect.
func dialExtCmd(addr string, gen int) tea.Cmd {
	return func() tea.Msg {
		l, err := dial(addr, gen, segment.DialectExtended)
		if err != nil {
			return downMsg{gen: gen, err: err}
		}
		return upMsg{gen: gen, l: l}
	}
}
