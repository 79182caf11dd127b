package statemachine

import (
	"errors"
	"fmt"
)

// CheckInvariants verifies the hub's internal consistency: every online user
// is in exactly one logged-in state and listed once; the online list is the
// set of logged-in sessions; every match has two live players who point at
// it; invitations are mutual. It is for tests and fuzzing.
func (h *Hub) CheckInvariants() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
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
			m := s.match
			if m == nil || m.players[s.seat] != s {
				bad("%q plays without a match", s.name)
				continue
			}
			o := m.players[1-s.seat]
			if o.closed || o.match != m || o.state != s.state {
				bad("%q plays %q, who is not in the match (state %v, closed %v)", s.name, o.name, o.state, o.closed)
			}
			if h.users[o.name] != o {
				bad("%q plays %q, who is not online", s.name, o.name)
			}
		}
		if s.state != Draw && s.state != Game && s.match != nil {
			bad("%q in %v still holds a match", s.name, s.state)
		}
	}
	for id, s := range h.checks {
		// a closed session's check waits for its answer, which still counts
		if s.check != id {
			bad("check %d belongs to a session that moved on", id)
		}
	}
	return errors.Join(errs...)
}
