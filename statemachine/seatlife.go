package statemachine

import (
	"fmt"

	"github.com/bomber-game/bomber/rules"
)

// A seat's life (docs/protocol.md section 9.4). The seat's flags (s, bot,
// took, away, gone) are its storage; life reads them and seatTo is the only
// place that changes them, by one of the transitions below.

// seatLife is where a seat of an extended table stands.
type seatLife uint8

const (
	lifeEmpty      seatLife = iota // nobody: anyone may join a waiting table
	lifePerson                     // a person sits there, connected
	lifeHeld                       // its person's connection dropped: held for them, their token resumes it
	lifeBotHolding                 // the computer plays it for its absent person, whose token still resumes it
	lifeBot                        // the computer's own seat, given it by the table's creator
	lifeGone                       // its person left the running game; empty once the game ends
)

var seatLifeNames = [...]string{"empty", "person", "held", "computer holding", "computer", "gone"}

func (l seatLife) String() string { return seatLifeNames[l] }

// life is where sl stands.
func (sl *seatSlot) life() seatLife {
	switch {
	case sl.gone:
		return lifeGone
	case sl.away:
		return lifeHeld
	case sl.bot && sl.took:
		return lifeBotHolding
	case sl.bot:
		return lifeBot
	case sl.s != nil:
		return lifePerson
	}
	return lifeEmpty
}

// seatTransitions are every move a seat may make, by where it stands and
// where it goes, with when it makes it (as docs/protocol.md lists them);
// anything else is a bug in the hub (CheckInvariants keeps restored
// snapshots to seats in one life each, so none can start one), which
// seatTo refuses rather than stop the daemon: a panic would come back at
// every restart that replays the same inputs.
var seatTransitions = map[[2]seatLife]string{
	{lifeEmpty, lifePerson}:      "a person joins (or creates the table)",
	{lifeEmpty, lifeBot}:         "the creator sends Bot for a waiting table",
	{lifePerson, lifeEmpty}:      "its person leaves a waiting table",
	{lifePerson, lifeHeld}:       "its person's connection drops (or a newer login kicks it) with feature 4",
	{lifePerson, lifeGone}:       "its person leaves, or drops without feature 4, during the game",
	{lifeHeld, lifePerson}:       "its person resumes with the token",
	{lifeHeld, lifeEmpty}:        "the grace runs out at a waiting table",
	{lifeHeld, lifeGone}:         "the grace runs out in a running game of two: its person resigns",
	{lifeHeld, lifeBotHolding}:   "the grace runs out in a running game of three or four",
	{lifeBotHolding, lifePerson}: "its person resumes with the token",
	{lifeBotHolding, lifeEmpty}:  "the game ends",
	{lifeGone, lifeEmpty}:        "the game ends",
}

// seatTo moves seat i of t to life to, with s its person for lifePerson.
// It keeps the seat's name and token (they name who may resume it) until
// the seat is empty again, and clears whatever the old life kept. A move
// the seat's life does not allow changes nothing: it is counted
// (Stats.SeatsRefused, which the hub's model and fuzz tests hold at 0), told the operator
// as a Notice, and seatTo says false.
func (h *Hub) seatTo(t *table, i int, to seatLife, s *session) bool {
	sl := &t.seats[i]
	from := sl.life()
	if _, ok := seatTransitions[[2]seatLife{from, to}]; !ok {
		h.stats.SeatsRefused++
		n := Notice{Kind: NoticeSeatRefused, User: sl.name, Detail: fmt.Sprintf("table %d seat %d cannot go from %v to %v", t.id, i, from, to)}
		if s != nil {
			n.Conn, n.User, n.Source = s.conn, s.name, s.source
		}
		h.ready.Notices = append(h.ready.Notices, n)
		return false
	}
	switch to {
	case lifeEmpty:
		*sl = seatSlot{}
	case lifePerson:
		if from == lifeEmpty {
			*sl = seatSlot{name: s.name}
		}
		// took stays until the next game: the record marks a seat the
		// computer played for a while
		sl.s, sl.away, sl.bot, sl.auto, sl.asked = s, false, false, false, 0
	case lifeBot:
		*sl = seatSlot{bot: true, ready: true}
	case lifeHeld:
		sl.s, sl.away = nil, true
	case lifeBotHolding:
		sl.away, sl.bot, sl.took = false, true, true
	case lifeGone:
		sl.s, sl.away, sl.gone = nil, false, true
	}
	return true
}

// occupant is the table whose seat s occupies, or nil: a session acts for a
// seat only while it is that seat's occupant (a watcher occupies none).
func occupant(s *session) *table {
	t := s.table
	if t == nil || s.seat == rules.Spectator || int(s.seat) >= len(t.seats) || t.seats[s.seat].s != s {
		return nil
	}
	return t
}
