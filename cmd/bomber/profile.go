package main

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/bomber-game/bomber/client/ext"
	"github.com/bomber-game/bomber/rules/games"
	"github.com/bomber-game/bomber/segment"
)

// The profile screen (p in the lobby): a player's ratings, a page of their
// games, their rating history and a game's leaderboard; enter replays the
// chosen game. The server computes every replayed position: the client
// asks for each ply in turn (ReplayReq) and steps through the Views it
// gets with the usual replay keys.

// profileView is what the profile screen shows.
type profileView struct {
	user    string
	ratings []segment.RatingRowBody
	games   []segment.GameRowBody
	history []segment.RatingRowBody
	leaders []segment.RatingRowBody
	board   string // the game of the leaderboard shown
	page    int
	sel     int
	fetch   *replayer // a replay whose positions are still arriving
	fetchID uint64
}

var resultWords = [...]string{"lost", "won", "drawn", "no result"}

// openProfile shows user's profile ("" ourselves).
func (m *tmodel) openProfile(user string) {
	if user == "" {
		user = m.c.User()
	}
	m.prof = &profileView{user: user}
	m.act(m.c.RequestHistory(segment.HistProfile, user, "", 0))
}

// historyEvent takes a history answer or a replayed position.
func (m *tmodel) historyEvent(e ext.Event) {
	p := m.prof
	if p == nil {
		return
	}
	switch e.Kind {
	case ext.EvHistory:
		h := m.c.History()
		switch h.What {
		case segment.HistProfile:
			p.ratings = h.Ratings
			m.act(m.c.RequestHistory(segment.HistGames, p.user, "", p.page))
		case segment.HistGames:
			p.games, p.sel = h.Games, 0
			if p.history == nil {
				m.act(m.c.RequestHistory(segment.HistRatings, p.user, "", 0))
			}
		case segment.HistRatings:
			p.history = h.Ratings
			if p.history == nil {
				p.history = []segment.RatingRowBody{}
			}
		case segment.HistLeaders:
			p.leaders = h.Ratings
		}
	case ext.EvReplay:
		r := m.c.Replayed()
		if p.fetch == nil || r.ID != p.fetchID {
			return
		}
		if int(r.Ply) == 0 {
			title := r.Game
			if s, ok := games.Lookup(r.Game); ok {
				title = s.Title
			}
			p.fetch.title = fmt.Sprintf("replay of game %d: %s, %s", r.ID, title, joinNames(r.Seats))
		} else {
			p.fetch.moves = append(p.fetch.moves, r.Notation)
		}
		p.fetch.frames = append(p.fetch.frames, r.View)
		if int(r.Ply) < int(r.Plies) {
			m.act(m.c.RequestReplay(r.ID, int(r.Ply)+1))
			return
		}
		m.replay, p.fetch = p.fetch, nil // every position is here: step through it
	}
}

func joinNames(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += " v "
		}
		if n == "" {
			n = "computer"
		}
		out += segment.SafeText(n)
	}
	return out
}

// profileKey handles a key on the profile screen.
func (m *tmodel) profileKey(key string) tea.Cmd {
	p := m.prof
	switch key {
	case "up", "k":
		p.sel = max(0, p.sel-1)
	case "down", "j":
		p.sel = min(max(0, len(p.games)-1), p.sel+1)
	case "]":
		if len(p.games) == segment.HistPage {
			p.page++
			m.act(m.c.RequestHistory(segment.HistGames, p.user, "", p.page))
		}
	case "[":
		if p.page > 0 {
			p.page--
			m.act(m.c.RequestHistory(segment.HistGames, p.user, "", p.page))
		}
	case "enter", "v":
		if len(p.games) == 0 {
			m.err = "no game to replay"
			return nil
		}
		g := p.games[bound(p.sel, 0, len(p.games)-1)]
		p.fetch, p.fetchID = &replayer{game: g.Game, title: fmt.Sprintf("replay of game %d", g.ID)}, g.ID
		m.act(m.c.RequestReplay(g.ID, 0))
	case "L":
		m.ask(pLeaders, "leaderboard of the game (e.g. checkers): ")
	case "P":
		m.ask(pProfile, "profile of: ")
	case "q", "esc":
		m.prof = nil
	}
	return nil
}

// renderProfile draws the profile screen.
func (m *tmodel) renderProfile() []string {
	p, st := m.prof, m.st
	out := []string{m.header(" - profile of " + segment.SafeText(p.user)), st.title.Render("Ratings")}
	for _, r := range p.ratings {
		prov := ""
		if r.Flags&segment.RowProvisional != 0 {
			prov = " provisional"
		}
		out = append(out, fmt.Sprintf("  %-10s %4d ± %-3d %3d games%s", r.Game, r.Rating, r.Deviation, r.Games, prov))
	}
	if len(p.ratings) == 0 {
		out = append(out, "  no rated games yet")
	}
	out = append(out, st.title.Render(fmt.Sprintf("Games (page %d)", p.page+1)))
	for i, g := range p.games {
		mark := "  "
		if i == p.sel {
			mark = st.cursor.Render("> ")
		}
		rated := "casual"
		if g.Flags&segment.RowRated != 0 {
			rated = fmt.Sprintf("rated %+d", g.Change)
		}
		out = append(out, fmt.Sprintf("%s#%-4d %-9s %-9s v %-16s %s, %d moves, %s", mark, g.ID, g.Game, resultWords[min(int(g.Result), 3)],
			joinNames(g.Opponents), rated, g.Moves, time.Unix(int64(g.Ended), 0).UTC().Format("2006-01-02")))
	}
	if len(p.games) == 0 {
		out = append(out, "  no games")
	}
	out = append(out, st.title.Render("Rating history"))
	for _, r := range p.history[:min(len(p.history), 4)] {
		out = append(out, fmt.Sprintf("  %-10s %4d -> %4d  (game #%d)", r.Game, r.Before, r.Rating, r.GameID))
	}
	if p.leaders != nil {
		out = append(out, st.title.Render("Leaderboard: "+p.board))
		for i, r := range p.leaders[:min(len(p.leaders), 5)] {
			out = append(out, fmt.Sprintf("  %d. %-20s %4d ± %d", i+1, segment.SafeText(r.User), r.Rating, r.Deviation))
		}
		if len(p.leaders) == 0 {
			out = append(out, "  nobody with an established rating yet")
		}
	}
	if p.fetch != nil {
		out = append(out, st.dim.Render(fmt.Sprintf("fetching the positions of game %d: %d so far", p.fetchID, len(p.fetch.frames))))
	}
	for len(out) < 21 {
		out = append(out, "")
	}
	return append(out, m.footer("up/down choose  enter replay  [ ] pages  L leaderboard  P other player  q back")...)
}
