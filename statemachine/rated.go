package statemachine

// Rated tables: the "rated" option (record.RatedOption) says whether the
// store updates the players' ratings with a table's games. The hub only
// checks it and keeps it out of the game's options; the record carries it.

import (
	"fmt"

	"github.com/bomber-game/bomber/rules/record"
)

// checkRated checks a rated option's value: exactly "true" or "false", so
// that the record holds one spelling and the store reads it without doubt.
func checkRated(v string) error {
	if v != "true" && v != "false" {
		return fmt.Errorf("%s=%q: want true or false", record.RatedOption, v)
	}
	return nil
}
