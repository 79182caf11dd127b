package replay

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// query answers an account query from the runner's accounts and the games
// its hub recorded (numbered 1, 2, ... in the order they ended), by a model
// of the store that is enough for transcripts. Ratings: everyone starts at
// 1500 with deviation 350; each rated game with a result moves each pair of
// its players' ratings by 8 towards the winner and takes 100 off both
// deviations (down to 50). This is not Glicko-2 (account/ratings.go is):
// transcripts check what the hub sends, not the arithmetic.
func (r *Runner) query(c statemachine.Check) (statemachine.Answer, string) {
	if r.down {
		return statemachine.Unavailable, ""
	}
	accountsMu.Lock()
	defer accountsMu.Unlock()
	_, exists := r.accounts[c.User]
	var rows any
	switch c.Kind {
	case statemachine.Ratings:
		var b strings.Builder
		for _, row := range r.modelRatings(c.User) {
			fmt.Fprintf(&b, "%s %d %d %d\n", row.Game, row.Rating, row.Deviation, row.Games)
		}
		return statemachine.Found, b.String()
	case statemachine.Profile:
		rows = r.modelRatings(c.User)
	case statemachine.Leaders:
		var out []segment.RatingRowBody
		for _, name := range r.players() {
			for _, row := range r.modelRatings(name) {
				if row.Game == c.Arg && row.Flags&segment.RowProvisional == 0 {
					out = append(out, row)
				}
			}
		}
		slices.SortStableFunc(out, func(a, b segment.RatingRowBody) int { return int(b.Rating) - int(a.Rating) })
		rows, exists = out, true
	case statemachine.RatingHist:
		var out []segment.RatingRowBody
		for _, ch := range r.model(c.User) {
			if c.Arg == "" || ch.row.Game == c.Arg {
				ch.row.Games = 0
				out = append(out, ch.row)
			}
		}
		slices.Reverse(out)
		rows = out
	case statemachine.GamesPage:
		page, game, _ := strings.Cut(c.Arg, " ")
		n, _ := strconv.Atoi(page)
		changes := map[uint64]int16{}
		for _, ch := range r.model(c.User) {
			changes[ch.row.GameID] = int16(ch.row.Rating) - int16(ch.row.Before)
		}
		var out []segment.GameRowBody
		for _, g := range slices.Backward(r.numbered()) {
			if (game == "" || g.Game == game) && slices.ContainsFunc(g.Seats, func(s record.Seat) bool { return s.Name == c.User }) {
				g.MoveCount = len(g.Moves)
				out = append(out, statemachine.GameRowFor(g, c.User, changes[g.ID]))
			}
		}
		out = out[min(n*segment.HistPage, len(out)):]
		rows = out[:min(segment.HistPage, len(out))]
	case statemachine.ReplayGame:
		id, ply, _ := strings.Cut(c.Arg, " ")
		i, err := strconv.Atoi(id)
		gs := r.numbered()
		if err != nil || i < 1 || i > len(gs) {
			return statemachine.NotFound, ""
		}
		b, _ := json.Marshal(gs[i-1])
		return statemachine.Found, ply + "\n" + string(b)
	case statemachine.ChangePassword, statemachine.DeleteAccount:
		return r.accountCare(c), ""
	default:
		return statemachine.Unavailable, ""
	}
	if !exists {
		return statemachine.NotFound, ""
	}
	b, _ := json.Marshal(rows)
	return statemachine.Found, string(b)
}

// accountCare changes a password (8 bytes or more, as register's model
// has it) or deletes an account, whose games then name
// record.DeletedPlayer.
func (r *Runner) accountCare(c statemachine.Check) statemachine.Answer {
	pw, ok := r.accounts[c.User]
	switch {
	case !ok:
		return statemachine.NotFound
	case pw != c.Password:
		return statemachine.WrongPassword
	case c.Kind == statemachine.DeleteAccount:
		delete(r.accounts, c.User)
		for i := range r.records {
			for j := range r.records[i].Seats {
				if r.records[i].Seats[j].Name == c.User {
					r.records[i].Seats[j].Name = record.DeletedPlayer
				}
			}
		}
		return statemachine.Found
	case len(c.Arg) < 8:
		return statemachine.BadSignupPass
	}
	r.accounts[c.User] = c.Arg
	return statemachine.Found
}

// numbered is the recorded games with their ids.
func (r *Runner) numbered() []record.Game {
	out := slices.Clone(r.records)
	for i := range out {
		out[i].ID = uint64(i + 1)
	}
	return out
}

// players is every account name, sorted.
func (r *Runner) players() []string {
	var out []string
	for n := range r.accounts {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// change is one rated game's effect on a player in the model.
type change struct{ row segment.RatingRowBody }

// model is what the rated games did to name's ratings, oldest first.
func (r *Runner) model(name string) []change {
	type state struct{ rating, dev, games int }
	st := map[string]map[string]*state{} // game, player
	get := func(game, p string) *state {
		if st[game] == nil {
			st[game] = map[string]*state{}
		}
		if st[game][p] == nil {
			st[game][p] = &state{rating: 1500, dev: 350}
		}
		return st[game][p]
	}
	var out []change
	for _, g := range r.numbered() {
		if !g.Rated() || !g.Reason.HasResult() {
			continue
		}
		var seats []int
		for i, s := range g.Seats {
			if _, ok := r.accounts[s.Name]; ok && !s.Bot {
				seats = append(seats, i)
			}
		}
		if len(seats) < 2 {
			continue
		}
		delta := map[int]int{}
		for _, i := range seats {
			for _, j := range seats {
				wi := slices.Contains(g.Outcome.Winners, rules.Player(i))
				wj := slices.Contains(g.Outcome.Winners, rules.Player(j))
				if g.Outcome.Status == rules.Won && wi && !wj {
					delta[i] += 8
					delta[j] -= 8
				}
			}
		}
		for _, i := range seats {
			s := get(g.Game, g.Seats[i].Name)
			before := s.rating
			s.rating += delta[i]
			s.dev = max(s.dev-100, 50)
			s.games++
			if g.Seats[i].Name == name {
				row := segment.RatingRowBody{User: name, Game: g.Game, Rating: uint16(s.rating), Deviation: uint16(s.dev),
					Games: uint32(s.games), At: uint32(g.End / 1e9), GameID: g.ID, Before: uint16(before)}
				if s.dev > 110 {
					row.Flags = segment.RowProvisional
				}
				out = append(out, change{row})
			}
		}
	}
	return out
}

// modelRatings is name's rating per game (as Profile gives it), by game.
func (r *Runner) modelRatings(name string) []segment.RatingRowBody {
	last := map[string]segment.RatingRowBody{}
	for _, ch := range r.model(name) {
		row := ch.row
		row.GameID, row.Before = 0, 0
		last[row.Game] = row
	}
	var out []segment.RatingRowBody
	for _, row := range last {
		out = append(out, row)
	}
	slices.SortFunc(out, func(a, b segment.RatingRowBody) int { return strings.Compare(a.Game, b.Game) })
	return out
}
