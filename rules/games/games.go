// Package games lists the games Bomber hosts, in catalogue order.
package games

import (
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/aeroplane"
	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/rules/checkers"
	"github.com/bomber-game/bomber/rules/dots"
	"github.com/bomber-game/bomber/rules/paisho"
)

// All returns the Spec of every game, Bomber first.
func All() []rules.Spec {
	return []rules.Spec{bomber.Spec(), checkers.Spec(), dots.Spec(), aeroplane.Spec(), paisho.Spec()}
}
