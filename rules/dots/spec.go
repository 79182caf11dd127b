package dots

import (
	"fmt"
	"strconv"

	"github.com/bomber-game/bomber/rules"
)

// Name is the game's short name.
const Name = "dots"

// Option keys and their default: a grid of 5x5 dots (4x4 boxes).
const (
	OptRows     = "rows" // dot rows, 3..8
	OptCols     = "cols" // dot columns, 3..8
	defaultDots = 5
)

// Spec describes Dots and Boxes for two to four players: no chance and no
// secrets, so a move can be taken back; no draw offers.
func Spec() rules.Spec {
	return rules.Spec{Name: Name, Title: "Dots and Boxes", MinPlayers: 2, MaxPlayers: 4, Takeback: true,
		NewBot: func(seed uint64) rules.Bot { return NewBot(rules.BotRand(seed)) }, Options: optionSpecs(), New: New}
}

// optionSpecs lists the keys New accepts.
func optionSpecs() []rules.OptionSpec {
	def := strconv.Itoa(defaultDots)
	return []rules.OptionSpec{
		{Key: OptRows, Doc: "rows of dots", Kind: rules.OptionInt, Default: def, Min: minDots, Max: maxDots},
		{Key: OptCols, Doc: "columns of dots", Kind: rules.OptionInt, Default: def, Min: minDots, Max: maxDots},
	}
}

// New starts a game for players seats on the grid the options ask for;
// seat 0, the host, moves first. Dots and Boxes has no chance, so rng is
// not used.
func New(players int, opts rules.Options, _ rules.Rand) (rules.Game, error) {
	return newFromOptions(players, opts)
}

func newFromOptions(players int, opts rules.Options) (*Game, error) {
	if players < 2 || players > 4 {
		return nil, fmt.Errorf("dots: %w: %d players, want 2 to 4", rules.ErrPlayers, players)
	}
	if err := opts.Check(OptRows, OptCols); err != nil {
		return nil, fmt.Errorf("dots: %w", err)
	}
	rows, err := opts.Int(OptRows, defaultDots, minDots, maxDots)
	if err != nil {
		return nil, fmt.Errorf("dots: %w", err)
	}
	cols, err := opts.Int(OptCols, defaultDots, minDots, maxDots)
	if err != nil {
		return nil, fmt.Errorf("dots: %w", err)
	}
	return newGame(rows, cols, players), nil
}
