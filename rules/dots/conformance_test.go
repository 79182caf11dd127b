package dots

import (
	"fmt"
	"testing"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/rulestest"
)

func TestConformance(t *testing.T) {
	for players := 2; players <= 4; players++ {
		for _, opts := range []rules.Options{nil, {OptRows: "3", OptCols: "8"}, {OptRows: "8", OptCols: "8"}} {
			t.Run(fmt.Sprintf("%dp-%v", players, opts), func(t *testing.T) {
				rulestest.Conformance(t, Spec(), rulestest.Config{Players: players, Options: opts, Games: 10, Seed: uint64(players)})
			})
		}
	}
}
