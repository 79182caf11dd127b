package statemachine

// Room options: how a table's chat and its start work. Like the clock and
// rated keys they are the hub's own: checked at Create and kept out of the
// game's options, so the rules never see them (parseClock takes them out).

import (
	"fmt"

	"github.com/bomber-game/bomber/rules/record"
)

// Room option keys and their values; the first value of each is the default.
const (
	// chatOption "one" (default): players and watchers share one table room,
	// as the seeds' rooms do; "separate": players and watchers each have
	// their own room, as lichess keeps spectators apart.
	chatOption   = record.ChatOption
	chatOne      = "one"
	chatSeparate = "separate"
	// startOption "ready" (default): the game starts when every seat is
	// filled and ready; "host": the table's host (the person in its lowest seat)
	// starts it with Ready once every seat is filled, as the seeds' Start
	// button does; the other players need not be ready.
	startOption = record.StartOption
	startReady  = "ready"
	startHost   = "host"
)

// checkRoomOption checks the value of a chat or start option, so that a
// typo is refused at Create rather than silently meaning the default.
func checkRoomOption(k, v string) error {
	switch {
	case k == chatOption && (v == chatOne || v == chatSeparate):
	case k == startOption && (v == startReady || v == startHost):
	case k == chatOption:
		return fmt.Errorf("%s=%q: want %s or %s", k, v, chatOne, chatSeparate)
	default:
		return fmt.Errorf("%s=%q: want %s or %s", k, v, startReady, startHost)
	}
	return nil
}

// separateChat reports whether t's watchers chat in a room of their own.
func (t *table) separateChat() bool { return t.opts[chatOption] == chatSeparate }

// hostStarts reports whether t's host starts its games.
func (t *table) hostStarts() bool { return t.opts[startOption] == startHost }

// host is the seat of t's host: the lowest seat a person holds. The creator
// sits at seat 0, so it is the creator's until the creator leaves; then
// someone else can still start the table. Every client can tell it from the
// Table message alone. -1 for none.
func (t *table) host() int {
	for i, sl := range t.seats {
		if sl.s != nil && !sl.bot {
			return i
		}
	}
	return -1
}
