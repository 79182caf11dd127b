package checkers

import (
	"fmt"

	"github.com/bomber-game/bomber/rules"
)

// Option keys (rules.Options), each documented in the package doc.
const (
	OptCompulsoryCapture = "compulsory_capture" // bool, default true
	OptDrawAgreement     = "draw_agreement"     // bool, default true
	OptDrawRepetition    = "draw_repetition"    // bool, default true
	OptDraw40Moves       = "draw_40_moves"      // bool, default true
	OptResign            = "resign"             // bool, default true
	OptFEN               = "fen"                // PDN FEN, default StartFEN
)

// config is the parsed form of rules.Options.
type config struct {
	compulsory bool
	agreement  bool
	repetition bool
	fortyMoves bool
	resign     bool
	start      pos
}

func parseOptions(o rules.Options) (config, error) {
	c := config{start: startPos()}
	if err := o.Check(OptCompulsoryCapture, OptDrawAgreement, OptDrawRepetition, OptDraw40Moves, OptResign, OptFEN); err != nil {
		return c, err
	}
	for _, b := range []struct {
		key string
		dst *bool
	}{
		{OptCompulsoryCapture, &c.compulsory},
		{OptDrawAgreement, &c.agreement},
		{OptDrawRepetition, &c.repetition},
		{OptDraw40Moves, &c.fortyMoves},
		{OptResign, &c.resign},
	} {
		v, err := o.Bool(b.key, true)
		if err != nil {
			return c, err
		}
		*b.dst = v
	}
	if text, ok := o[OptFEN]; ok {
		p, err := parseFEN(text)
		if err != nil {
			return c, fmt.Errorf("%w: %s: %w", rules.ErrOption, OptFEN, err)
		}
		c.start = p
	}
	return c, nil
}
