package statemachine

// Account queries: a logged-in session asks the account store something (a
// Check whose kind is a Query, such as Ratings) and the shell answers with
// an InReply carrying the store's data. The session waits for the reply as
// it waits for a password check: what it sends meanwhile is queued and
// handled after, so its requests are answered in order.

// replied acts on the store's reply a (with data) to query kind asked,
// which logged-in session s asked. A kind this build does not ask about is
// ignored.
func (h *Hub) replied(now int64, s *session, a Answer, asked CheckKind, data string) {
	switch asked {
	case Ratings:
		if s.x != nil && s.x.seek != nil && !s.x.seek.known {
			h.seekRated(now, s, a, data) // asked for a seek (pairing.go)
		}
	case Profile, GamesPage, RatingHist, Leaders:
		h.historyRows(s, a, asked, data)
	case ReplayGame:
		h.replayed(s, a, data)
	case ChangePassword, DeleteAccount:
		h.accountDone(now, s, a, asked)
	}
}
