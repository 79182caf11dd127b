// Package games lists the games Bomber hosts, in catalogue order.
package games

import (
	"math/rand/v2"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/aeroplane"
	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/rules/bomber/bot"
	"github.com/bomber-game/bomber/rules/checkers"
	"github.com/bomber-game/bomber/rules/dots"
	"github.com/bomber-game/bomber/rules/paisho"
)

// All returns the Spec of every game, Bomber first.
func All() []rules.Spec {
	return []rules.Spec{bomber.Spec(), checkers.Spec(), dots.Spec(), aeroplane.Spec(), paisho.Spec()}
}

// Bot returns the computer player of the named game, its choices drawn
// from seed; nil for a game it does not know.
func Bot(game string, seed uint64) rules.Bot {
	rng := rand.New(rand.NewPCG(seed, 0xb07))
	switch game {
	case "bomber":
		return bot.NewSeatBot(rng)
	case "checkers":
		return checkers.NewBot(seed)
	case "dots":
		return dots.NewBot(rng)
	case "aeroplane":
		return aeroplane.NewBot(seed)
	case "paisho":
		return paisho.NewBot(rng)
	}
	return nil
}
