package ext

import (
	"fmt"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/segment"
)

// Profiles, game histories, leaderboards and replays (FeatureHistory):
// the client asks, the server answers with rows and an Ack, or with a
// Replay and the View of the position it names (computed by the server's
// rules: a client shows any stored game without knowing its rules).

// Event kinds of history.
const (
	EvHistory EventKind = iota + 120 // a HistoryReq's rows are complete (Client.History)
	EvReplay                         // a replayed position arrived (Client.Replayed)
)

// History is the answer to the last HistoryReq.
type History struct {
	What    uint8 // segment.HistProfile ...
	Ratings []segment.RatingRowBody
	Games   []segment.GameRowBody
}

// Replayed is one position of a stored game: the Replay message and the
// View that followed it.
type Replayed struct {
	segment.ReplayBody
	View rules.View
}

type history struct {
	cur      History             // rows arriving
	last     *History            // the last complete answer
	replay   *segment.ReplayBody // a Replay whose View has not come yet
	replayed *Replayed
}

// History is the last complete answer to RequestHistory, or nil.
func (c *Client) History() *History { return c.hist.last }

// Replayed is the last replayed position, or nil.
func (c *Client) Replayed() *Replayed { return c.hist.replayed }

// RequestHistory asks for a profile (segment.HistProfile), a page of games
// (HistGames), a rating history (HistRatings) or a leaderboard
// (HistLeaders); user "" is the logged-in user.
func (c *Client) RequestHistory(what uint8, user, game string, page int) (Out, error) {
	if c.features&segment.FeatureHistory == 0 {
		return Out{}, fmt.Errorf("%w: the server does not offer history", ErrState)
	}
	c.hist.cur = History{What: what}
	return c.request(segment.HistoryReqMsg{What: what, User: user, Game: game, Page: uint16(page)})
}

// RequestReplay asks for the position after ply moves of stored game id.
func (c *Client) RequestReplay(id uint64, ply int) (Out, error) {
	if c.features&segment.FeatureHistory == 0 {
		return Out{}, fmt.Errorf("%w: the server does not offer replays", ErrState)
	}
	return c.request(segment.ReplayReqMsg{ID: id, Ply: uint16(max(0, min(ply, 0xFFFF)))})
}

// handleHistory takes rows, their Ack, Replay and the View that follows it.
func (c *Client) handleHistory(o *Out, t segment.Type, body []byte) (bool, error) {
	h := &c.hist
	switch t {
	case segment.RatingRow:
		return true, decoded(body, segment.DecodeRatingRowBody, func(r segment.RatingRowBody) { h.cur.Ratings = append(h.cur.Ratings, r) })
	case segment.GameRow:
		return true, decoded(body, segment.DecodeGameRowBody, func(g segment.GameRowBody) { h.cur.Games = append(h.cur.Games, g) })
	case segment.Ack:
		a, err := segment.DecodeAckBody(body)
		if err != nil || a.Req != segment.HistoryReq {
			return false, nil
		}
		done := h.cur
		h.last, h.cur = &done, History{}
		o.ev(Event{Kind: EvHistory})
		return true, nil
	case segment.Replay:
		return true, decoded(body, segment.DecodeReplayBody, func(r segment.ReplayBody) { h.replay = &r })
	case segment.ViewMsg:
		if h.replay == nil {
			return false, nil // our table's View
		}
		return true, decoded(body, segment.DecodeViewBody, func(v segment.ViewBody) {
			rv := rules.View{Viewer: rules.Player(v.Viewer), Status: rules.Status(v.Status), Cells: v.Cells, Extra: v.Extra}
			for _, p := range v.ToMove {
				rv.ToMove = append(rv.ToMove, rules.Player(p))
			}
			for _, s := range v.Scores {
				rv.Scores = append(rv.Scores, int(s))
			}
			h.replayed, h.replay = &Replayed{ReplayBody: *h.replay, View: rv}, nil
			o.ev(Event{Kind: EvReplay})
		})
	}
	return false, nil
}
