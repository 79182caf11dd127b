package statemachine

import (
	"math/rand/v2"

	"github.com/bomber-game/bomber/rules/games"
)

// Catalogue is every game Bomber hosts, as the daemon offers them, with
// takeback allowed where the game's Spec allows it.
func Catalogue() []GameEntry {
	var out []GameEntry
	for _, s := range games.All() {
		out = append(out, GameEntry{Spec: s, Takeback: s.Takeback})
	}
	return out
}

// SeededEntropy is a deterministic entropy source for tests and replays:
// the same seed gives the same table seeds and join codes.
func SeededEntropy(seed uint64) *rand.ChaCha8 {
	var s [32]byte
	for i := range 8 {
		s[i] = byte(seed >> (8 * i))
	}
	return rand.NewChaCha8(s)
}
