package checkers

import (
	"testing"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/rulestest"
)

func onBoard(m rules.Move) bool { return m.Kind == KindMove || m.Kind == KindJump }

func TestConformance(t *testing.T) {
	// Draws by agreement as docs/games/checkers.md says: the option
	// draw_agreement, on by default.
	tests := []struct {
		name string
		cfg  rulestest.Config
	}{
		{"standard rules, board moves", rulestest.Config{Seed: 1, MoveFilter: onBoard, DrawByAgreement: true}},
		{"capture optional", rulestest.Config{Seed: 100, Options: rules.Options{OptCompulsoryCapture: "off"}, MoveFilter: onBoard, DrawByAgreement: true}},
		{"no draw rules", rulestest.Config{Seed: 200, Games: 5, Options: rules.Options{OptDrawRepetition: "off", OptDraw40Moves: "off"}, MoveFilter: onBoard, DrawByAgreement: true}},
		// Unfiltered: random offers, answers and resignations end games early.
		{"offers and resignations", rulestest.Config{Seed: 300, DrawByAgreement: true}},
		{"no draw offers", rulestest.Config{Seed: 600, Games: 5, Options: rules.Options{OptDrawAgreement: "off"}}},
		{"bots in seats", rulestest.Config{Seed: 500, Games: 2, BotGames: 2, MoveFilter: onBoard, DrawByAgreement: true, Bot: func(_ rules.Player, seed uint64) rules.Bot {
			b := NewBot(seed)
			b.MaxDepth, b.MaxNodes = 4, 2000 // quick: the suite checks the contract, bot_test the strength
			return b
		}}},
		{"set-up start", rulestest.Config{Seed: 400, Options: rules.Options{OptFEN: "W:WK26,K27,30:B5,K8,9"}, MoveFilter: onBoard, DrawByAgreement: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rulestest.Conformance(t, Spec(), tt.cfg)
		})
	}
}
