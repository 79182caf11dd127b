package statemachine

import (
	"errors"
	"fmt"
	"slices"

	"github.com/bomber-game/bomber/rules"
)

// CheckInvariants verifies the hub's internal consistency: every online user
// is in exactly one logged-in state and listed once; the online list is the
// set of logged-in sessions; every match has two live players who point at
// it; invitations are mutual; tables, their seats, watchers, clocks and
// computer players agree with the sessions. It is for tests and fuzzing.
func (h *Hub) CheckInvariants() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	seen := h.checkOnline(bad)
	h.checkSessions(bad, seen)
	seated := make(map[*session]int)
	for id, t := range h.tables {
		h.checkTable(bad, id, t, seated)
	}
	for s, n := range seated {
		if n > 1 {
			bad("%q sits or watches at %d places", s.name, n)
		}
	}
	for _, s := range h.sessions {
		if s.state == AtTable && seated[s] != 1 {
			bad("%q at a table that does not hold it", s.name)
		}
	}
	h.checkPairing(bad)
	for id, s := range h.checks {
		// a closed session's check waits for its answer, which still counts
		if s.check != id {
			bad("check %d belongs to a session that moved on", id)
		}
	}
	// the metrics' count of states agrees with the operators' list
	var listed [NumStates]int
	for _, info := range h.Sessions(nil) {
		listed[info.State]++
	}
	if n := h.CountStates(); n != listed {
		bad("states counted %v, listed %v", n, listed)
	}
	return errors.Join(errs...)
}

// badFunc reports one broken invariant.
type badFunc func(format string, args ...any)

// checkOnline checks the online list against the user map and returns the
// sessions it lists.
func (h *Hub) checkOnline(bad badFunc) map[*session]bool {
	seen := make(map[*session]bool)
	for _, s := range h.online {
		if seen[s] {
			bad("%q listed twice", s.name)
		}
		seen[s] = true
		if !s.state.LoggedIn() || s.closed {
			bad("%q listed online in state %v (closed %v)", s.name, s.state, s.closed)
		}
		if h.users[s.name] != s {
			bad("%q in the online list but not the user map", s.name)
		}
		if h.sessions[s.conn] != s {
			bad("%q online without a connection", s.name)
		}
	}
	if len(h.users) != len(h.online) {
		bad("%d users mapped, %d online", len(h.users), len(h.online))
	}
	return seen
}

// checkSessions checks each session's state against its peer, its match or
// its table.
func (h *Hub) checkSessions(bad badFunc, seen map[*session]bool) {
	for c, s := range h.sessions {
		if s.conn != c || s.closed {
			bad("connection %d maps to session %d (closed %v)", c, s.conn, s.closed)
		}
		if s.state.LoggedIn() && !seen[s] {
			bad("%q logged in (%v) but not listed online", s.name, s.state)
		}
		switch s.state {
		case WaitInvitationResponse:
			if p := s.peer; p == nil || p.peer != s || p.state != Responding {
				bad("%q invites without a responding peer", s.name)
			}
		case Responding:
			if p := s.peer; (p == nil) != s.orphan || p != nil && (p.peer != s || p.state != WaitInvitationResponse) {
				bad("%q responds to an invitation that does not match", s.name)
			}
		case Draw, Game:
			t := s.table
			if t == nil || t.ext() || len(t.seats) != 2 || t.seats[s.seat].s != s {
				bad("%q plays without a match", s.name)
				continue
			}
			o := t.seats[1-s.seat].s
			if o == nil || o.closed || o.table != t || o.state != s.state {
				bad("%q plays an opponent who is not in the match", s.name)
				continue
			}
			if h.users[o.name] != o {
				bad("%q plays %q, who is not online", s.name, o.name)
			}
		case AtTable:
			if s.table == nil || !s.table.ext() {
				bad("%q at no table", s.name)
			}
		}
		if s.state != Draw && s.state != Game && s.state != AtTable && s.table != nil {
			bad("%q in %v still holds a table", s.name, s.state)
		}
	}
}

// checkTable checks table t (listed as id): its seats, watchers, game,
// clocks and computer players, counting in seated where each session sits
// or watches.
func (h *Hub) checkTable(bad badFunc, id uint32, t *table, seated map[*session]int) {
	if t.id != id || t.phase == phaseOver || !t.ext() {
		bad("table %d listed but closed or misfiled", id)
	}
	if t.code != "" && h.codes[t.code] != t {
		bad("table %d's join code is not indexed", id)
	}
	for i, sl := range t.seats {
		p := sl.s
		if p != nil && (sl.bot || sl.away) {
			bad("table %d seat %d is held for someone or the computer but %q sits there", id, i, p.name)
		}
		if sl.gone && (sl.away || sl.bot) || sl.away && sl.bot {
			// seatLife reads one life from these; two would make a
			// transition the hub cannot take
			bad("table %d seat %d is in two lives at once (gone %v, held %v, computer %v)", id, i, sl.gone, sl.away, sl.bot)
		}
		if t.phase != phasePlaying && (sl.auto || sl.ticking) {
			bad("table %d seat %d has a running clock or a timeout action with no game", id, i)
		}
		if sl.left > maxLeft || sl.pauseLeft < 0 || sl.pauseLeft > pauseBudget {
			bad("table %d seat %d has %d ns left or %d ns of pause budget", id, i, sl.left, sl.pauseLeft)
		}
		if p == nil {
			continue
		}
		seated[p]++
		if p.table != t || p.seat != rules.Player(i) || p.state != AtTable {
			bad("%q sits at table %d seat %d but points elsewhere", p.name, id, i)
		}
		if p.closed || h.users[p.name] != p {
			bad("%q sits at table %d but is not online", p.name, id)
		}
		if sl.gone {
			bad("table %d seat %d is gone but still held", id, i)
		}
	}
	if t.phase == phasePlaying && t.game == nil {
		bad("table %d plays without a game", id)
	}
	h.checkTurn(bad, id, t)
	for _, w := range t.watchers {
		seated[w]++
		if w.table != t || w.seat != rules.Spectator || w.state != AtTable {
			bad("%q watches table %d but points elsewhere", w.name, id)
		}
	}
	if len(t.watchers) > h.cfg.MaxWatchers {
		bad("table %d has %d watchers, over the cap", id, len(t.watchers))
	}
}

// checkTurn checks a running game's turn: a computer to move has been
// asked for its move (a table never waits for one nobody asked), and
// clocks run for the seats to move and only for them.
func (h *Hub) checkTurn(bad badFunc, id uint32, t *table) {
	if t.phase != phasePlaying || t.game == nil {
		return
	}
	toMove := t.game.ToMove(nil)
	for _, p := range toMove {
		if sl := &t.seats[p]; (sl.bot || sl.auto) && sl.asked != t.seq+1 {
			bad("table %d seat %d: the computer is to move and was not asked", id, p)
		}
	}
	if t.clock == nil {
		return
	}
	for i := range t.seats {
		if moving := slices.Contains(toMove, rules.Player(i)); moving != t.seats[i].ticking {
			bad("table %d seat %d: to move %v, clock running %v", id, i, moving, t.seats[i].ticking)
		}
	}
}

// checkPairing checks the pairing pools: a seeker is logged in and seated
// nowhere; one whose ratings arrived is in the pools once, one still waiting
// for them is not and waits for a check; the pools hold seeks and nothing
// else, and a round is due while anyone waits.
func (h *Hub) checkPairing(bad badFunc) {
	inPool := make(map[*seeker]int, len(h.seekers))
	for _, sk := range h.seekers {
		inPool[sk]++
		if sk.s.x == nil || sk.s.x.seek != sk {
			bad("%q is in a pairing pool without seeking", sk.s.name)
		}
	}
	for _, s := range h.sessions {
		if s.x == nil || s.x.seek == nil {
			continue
		}
		sk := s.x.seek
		switch {
		case sk.s != s:
			bad("%q holds another session's seek", s.name)
		case !s.state.LoggedIn() || s.closed:
			bad("%q seeks without being logged in", s.name)
		case s.table != nil:
			bad("%q seeks while at table %d", s.name, s.table.id)
		case sk.known && inPool[sk] != 1:
			bad("%q is in the pools %d times", s.name, inPool[sk])
		case !sk.known && (inPool[sk] != 0 || s.check == 0):
			bad("%q is pooled before its ratings came", s.name)
		case h.games[sk.game] == nil:
			bad("%q seeks %q, which is not offered", s.name, sk.game)
		}
	}
	for sk := range inPool {
		if h.sessions[sk.s.conn] != sk.s {
			bad("the pools hold %q, which is gone", sk.s.name)
		}
	}
	if len(h.seekers) > 0 && h.pairAt == 0 {
		bad("%d players wait and no pairing round is due", len(h.seekers))
	}
}
