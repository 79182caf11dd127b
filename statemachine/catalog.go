package statemachine

import "github.com/bomber-game/bomber/rules/games"

// Catalogue is every game Bomber hosts, as the daemon offers them. Takeback
// is allowed where the game has neither chance nor secret moves (Checkers,
// Dots and Boxes, Pai Sho): there undoing a move shows nobody anything new.
func Catalogue() []GameEntry {
	var out []GameEntry
	for _, s := range games.All() {
		takeback := s.Name == "checkers" || s.Name == "dots" || s.Name == "paisho"
		out = append(out, GameEntry{Spec: s, Takeback: takeback})
	}
	return out
}
