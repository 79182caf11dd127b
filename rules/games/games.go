// Package games lists the games Bomber hosts, in catalogue order. Adding a
// game is adding its Spec here; everything else reads the Spec.
package games

import (
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/aeroplane"
	"github.com/bomber-game/bomber/rules/bomber/bot"
	"github.com/bomber-game/bomber/rules/checkers"
	"github.com/bomber-game/bomber/rules/dots"
	"github.com/bomber-game/bomber/rules/paisho"
)

// All returns the Spec of every game, Bomber first.
func All() []rules.Spec {
	return []rules.Spec{bot.Spec(), checkers.Spec(), dots.Spec(), aeroplane.Spec(), paisho.Spec()}
}

// Lookup returns the Spec of the named game, and false for a game this
// build does not host.
func Lookup(name string) (rules.Spec, bool) {
	for _, s := range All() {
		if s.Name == name {
			return s, true
		}
	}
	return rules.Spec{}, false
}
