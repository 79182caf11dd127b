package paisho

import (
	"testing"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/rulestest"
)

// Every configuration has draws by agreement (docs/games/paisho.md, "Draws").

// boardOnly keeps random players from ending games at once by resigning or
// agreeing draws, so the games run until a White Lotus falls.
func boardOnly(m rules.Move) bool { return isBoardKind(m.Kind) }

func TestConformanceBoardMoves(t *testing.T) {
	rulestest.Conformance(t, Spec(), rulestest.Config{Games: 20, MaxPlies: 2000, Seed: 1, MoveFilter: boardOnly, DrawByAgreement: true})
}

func TestConformanceAllActions(t *testing.T) {
	rulestest.Conformance(t, Spec(), rulestest.Config{Games: 20, MaxPlies: 600, Seed: 100, DrawByAgreement: true})
}

func TestConformanceMoveLimit(t *testing.T) {
	rulestest.Conformance(t, Spec(), rulestest.Config{Games: 5, MaxPlies: 400, Seed: 200,
		Options: rules.Options{OptMoveLimit: "300"}, MoveFilter: boardOnly, DrawByAgreement: true})
}
