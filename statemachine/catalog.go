package statemachine

import "github.com/bomber-game/bomber/rules/games"

// Catalogue is every game Bomber hosts, as the daemon offers them.
func Catalogue() []GameEntry {
	var out []GameEntry
	for _, s := range games.All() {
		out = append(out, GameEntry{Spec: s})
	}
	return out
}
