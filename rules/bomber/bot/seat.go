package bot

import (
	"fmt"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/bomber"
)

// SeatBot is a rules.Bot for Bomber: it draws a random board, then guesses
// with a Guesser. It is given only its rules.Seat, whose redacted game holds
// the enemy planes erased, so it learns only what its seat may know: the
// cells it guessed and what they showed, the doubles it tried and whether
// they were right. It keeps no state between moves, so it can take over a
// seat at any point of a game.
type SeatBot struct {
	rng rules.Rand
}

var _ rules.Bot = (*SeatBot)(nil)

// NewSeatBot returns a bot whose boards and tie-breaks come from rng, so a
// seed fixes its play.
func NewSeatBot(rng rules.Rand) *SeatBot { return &SeatBot{rng: rng} }

// Spec is bomber.Spec with its computer player, a SeatBot: the Bomber that
// rules/games lists (package bomber cannot name this one, which builds on it).
func Spec() rules.Spec {
	s := bomber.Spec()
	s.NewBot = func(seed uint64) rules.Bot { return NewSeatBot(rules.BotRand(seed)) }
	return s
}

// Choose implements rules.Bot: a random valid board while drawing, the
// Guesser's next guess while guessing.
func (b *SeatBot) Choose(s rules.Seat) (rules.Move, error) {
	p := s.Player()
	g, ok := s.Game().(*bomber.Game)
	switch {
	case !ok:
		return rules.Move{}, fmt.Errorf("%w: the bomber bot needs a *bomber.Game, not %T", rules.ErrIllegal, s.Game())
	case p != 0 && p != 1:
		return rules.Move{}, fmt.Errorf("%w: seat %d", rules.ErrNotYourTurn, p)
	case g.Phase() == bomber.Over:
		return rules.Move{}, rules.ErrGameOver
	case g.Phase() == bomber.Drawing && !g.Placed(p):
		return bomber.BoardMove(RandomBoard(b.rng)), nil
	case g.Phase() != bomber.Guessing || g.Turn() != p:
		return rules.Move{}, rules.ErrNotYourTurn
	}
	q := Observed(g, p, b.rng).Next()
	if q.Double {
		return bomber.DoubleMove(q.Plane), nil
	}
	return bomber.SingleMove(q.Cell), nil
}

// Observed returns a Guesser that has observed every guess seat p made in
// g, as far as p may know them: its singles with what they showed (a head,
// a body or nothing) and its doubles with whether they were right. It reads
// only p's own guesses and what they revealed, so g may be p's redacted
// game. rng breaks the Guesser's ties.
func Observed(g *bomber.Game, p rules.Player, rng rules.Rand) *Guesser {
	gs := NewGuesser(rng)
	enemy := 1 - p
	hit, heads := g.Revealed(enemy), g.RevealedHeads(enemy)
	guessed := g.Guessed(p)
	for c := bomber.Cell(0); c < bomber.Size*bomber.Size; c++ {
		if !guessed.Has(c) {
			continue
		}
		r := bomber.Wrong
		switch {
		case heads.Has(c):
			r = bomber.Head
		case hit.Has(c):
			r = bomber.Body
		}
		gs.ObserveSingle(c, r)
	}
	tried, right := g.Doubles(p)
	for i, pl := range geo.places {
		if tried[i/64]&(1<<(i%64)) != 0 {
			gs.ObserveDouble(pl, right[i/64]&(1<<(i%64)) != 0)
		}
	}
	return gs
}
