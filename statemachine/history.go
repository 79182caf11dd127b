package statemachine

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
)

// Profiles, game history, leaderboards and replay (HistoryReq and
// ReplayReq, feature 1024): each request is an account query (the kinds
// Profile to ReplayGame) whose reply the hub turns into messages. The
// store's data arrives as JSON: rows in the layout of the segment bodies
// (RatingRowBody, GameRowBody) or, for a replay, the requested ply on a line
// of its own and then the stored record. The hub, not the store, replays a
// record through the game's rules: clients never re-implement them.
//
// What a replay shows: each position as a watcher saw it while the game
// was on (the rules' view for rules.Spectator), so a secret the rules hid
// from watchers stays hidden in the board; the Replay message names the
// move in full, as the record and its export do, since the game is over
// and GameEnd has revealed the seed that lets anyone check it.

// historyKinds maps HistoryReq's what to its query kind.
var historyKinds = map[uint8]CheckKind{
	segment.HistProfile: Profile,
	segment.HistGames:   GamesPage,
	segment.HistRatings: RatingHist,
	segment.HistLeaders: Leaders,
}

// historyReq asks the store what a HistoryReq asks.
func (h *Hub) historyReq(s *session, body []byte) {
	m, err := segment.DecodeHistoryReqMsg(body)
	kind, ok := historyKinds[m.What]
	switch {
	case !s.has(segment.FeatureHistory):
		h.fail(s, segment.HistoryReq, segment.ErrCodeBadRequest, "HistoryReq needs feature 1024")
		return
	case err != nil || !ok || (m.What == segment.HistLeaders && m.Game == ""):
		h.fail(s, segment.HistoryReq, segment.ErrCodeBadRequest, "malformed HistoryReq")
		return
	}
	user := m.User
	if user == "" {
		user = s.name
	}
	arg := m.Game
	if kind == GamesPage {
		arg = strconv.Itoa(int(m.Page)) + " " + m.Game
	}
	h.ask(s, Check{Kind: kind, User: user, Arg: arg})
}

// replayReq asks the store for the record a ReplayReq names.
func (h *Hub) replayReq(s *session, body []byte) {
	m, err := segment.DecodeReplayReqMsg(body)
	switch {
	case !s.has(segment.FeatureHistory):
		h.fail(s, segment.ReplayReq, segment.ErrCodeBadRequest, "ReplayReq needs feature 1024")
		return
	case err != nil || m.ID == 0:
		h.fail(s, segment.ReplayReq, segment.ErrCodeBadRequest, "malformed ReplayReq")
		return
	}
	h.ask(s, Check{Kind: ReplayGame, Arg: strconv.FormatUint(m.ID, 10) + " " + strconv.Itoa(int(m.Ply))})
}

// historyRows sends the rows of a HistoryReq's answer, then Ack.
func (h *Hub) historyRows(s *session, a Answer, asked CheckKind, data string) {
	switch a {
	case Found:
	case NotFound:
		h.fail(s, segment.HistoryReq, segment.ErrCodeNoUser, "no such user")
		return
	default:
		h.fail(s, segment.HistoryReq, segment.ErrCodeUnavailable, "account store unavailable: try later")
		return
	}
	if asked == GamesPage {
		var rows []segment.GameRowBody
		if json.Unmarshal([]byte(data), &rows) != nil {
			h.fail(s, segment.HistoryReq, segment.ErrCodeUnavailable, "account store answered badly")
			return
		}
		for _, r := range rows {
			h.sendMsg(s, segment.GameRow, r.Append(h.body()))
		}
	} else {
		var rows []segment.RatingRowBody
		if json.Unmarshal([]byte(data), &rows) != nil {
			h.fail(s, segment.HistoryReq, segment.ErrCodeUnavailable, "account store answered badly")
			return
		}
		what := segment.HistProfile
		for w, k := range historyKinds {
			if k == asked {
				what = w
			}
		}
		for _, r := range rows {
			r.What = what
			h.sendMsg(s, segment.RatingRow, r.Append(h.body()))
		}
	}
	h.sendMsg(s, segment.Ack, segment.AckBody{Req: segment.HistoryReq}.Append(h.body()))
}

// replayed answers a ReplayReq: the record replayed through its game's
// rules up to the ply asked (the last when past it), as Replay and a View.
func (h *Hub) replayed(s *session, a Answer, data string) {
	switch a {
	case Found:
	case NotFound:
		h.fail(s, segment.ReplayReq, segment.ErrCodeNoTable, "no such game")
		return
	default:
		h.fail(s, segment.ReplayReq, segment.ErrCodeUnavailable, "account store unavailable: try later")
		return
	}
	plyText, js, _ := strings.Cut(data, "\n")
	ply, err := strconv.Atoi(plyText)
	var rec record.Game
	if err != nil || json.Unmarshal([]byte(js), &rec) != nil {
		h.fail(s, segment.ReplayReq, segment.ErrCodeUnavailable, "account store answered badly")
		return
	}
	e := h.games[rec.Game]
	if e == nil {
		h.fail(s, segment.ReplayReq, segment.ErrCodeUnknownGame, "this server does not host that game")
		return
	}
	ply = min(max(ply, 0), len(rec.Moves))
	upTo := rec
	upTo.Moves = rec.Moves[:ply]
	upTo.Outcome = rules.Outcome{Status: rules.Running} // the position at ply, not the end
	g, err := record.Replay(e.Spec, &upTo)
	if err != nil {
		h.fail(s, segment.ReplayReq, segment.ErrCodeIllegal, "the record does not replay")
		return
	}
	b := segment.ReplayBody{ID: rec.ID, Game: rec.Game, Ply: uint16(ply), Plies: uint16(len(rec.Moves)), Seat: -1, Reason: string(rec.Reason)}
	if ply > 0 {
		m := rec.Moves[ply-1]
		b.Seat, b.Notation = int8(m.Seat), m.Text
	}
	switch rec.Outcome.Status {
	case rules.Won:
		b.Status = segment.EndWon
	case rules.Drawn:
		b.Status = segment.EndDrawn
	}
	for _, st := range rec.Seats {
		b.Seats = append(b.Seats, st.Name)
	}
	keys := make([]string, 0, len(rec.Options))
	for k := range rec.Options {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		b.Options = append(b.Options, segment.KV{Key: k, Value: rec.Options[k]})
	}
	h.sendMsg(s, segment.Replay, b.Append(h.body()))
	h.sendMsg(s, segment.ViewMsg, viewBody(g.Observe(rules.Spectator), uint32(ply)).Append(h.body()))
}

// GameRowFor is record g as a GameRow shows it to user: their result, the
// other seats' players, and change, what it did to their rating.
func GameRowFor(g record.Game, user string, change int16) segment.GameRowBody {
	row := segment.GameRowBody{ID: g.ID, Game: g.Game, Result: segment.GameNoResult, Change: change,
		Ended: uint32(max(g.End/1e9, 0)), Moves: uint16(min(g.MoveCount, 0xFFFF)), Reason: string(g.Reason)}
	if g.Rated() {
		row.Flags |= segment.RowRated
	}
	seat := rules.Spectator
	for i, st := range g.Seats {
		if st.Bot {
			row.Flags |= segment.RowBot
		}
		if st.Name == user && seat == rules.Spectator {
			seat = rules.Player(i)
		} else {
			row.Opponents = append(row.Opponents, st.Name)
		}
	}
	switch {
	case !g.Reason.HasResult():
	case g.Outcome.Status == rules.Drawn:
		row.Result = segment.GameDrawn
	case g.Outcome.Status == rules.Won && slices.Contains(g.Outcome.Winners, seat):
		row.Result = segment.GameWon
	case g.Outcome.Status == rules.Won:
		row.Result = segment.GameLost
	}
	return row
}
