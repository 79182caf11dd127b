package statemachine

import (
	"fmt"

	"github.com/bomber-game/bomber/rules/games"
)

// RunBot chooses the move a BotRequest asks for with the game's computer
// player, which sees nothing but req.View. The shell runs it on its worker
// pool; tests and replays call it directly.
func RunBot(req BotRequest) (BotAnswer, error) {
	spec, _ := games.Lookup(req.Game)
	if spec.NewBot == nil {
		return BotAnswer{}, fmt.Errorf("no computer player for %q", req.Game)
	}
	b := spec.NewBot(req.Seed)
	m, err := b.Choose(req.View)
	if err != nil {
		return BotAnswer{}, fmt.Errorf("%s bot: %w", req.Game, err)
	}
	return BotAnswer{Table: req.Table, Seat: req.Seat, Seq: req.Seq, Move: req.View.Game().FormatMove(m)}, nil
}
