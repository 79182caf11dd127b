package account

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"time"

	"github.com/bomber-game/bomber/account/glicko2"
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
)

// ProvisionalDeviation is the rating deviation above which a rating is
// provisional (glicko2's). Provisional ratings are shown marked and left
// off leaderboards.
const ProvisionalDeviation = glicko2.ProvisionalDeviation

// RatingPeriod is how long a player must be idle for the deviation to grow
// by one rating period's volatility (glicko2.Idle): a player back after a
// month's absence is less certain than one who played yesterday.
const RatingPeriod = 24 * time.Hour

// Rating is one player's Glicko-2 rating in one game.
type Rating struct {
	Game       string
	Name       string
	Rating     float64
	Deviation  float64
	Volatility float64
	Games      int       // rated games it counts
	Updated    time.Time // when the last of them ended (UTC)
}

// Provisional reports whether r's deviation is above ProvisionalDeviation.
func (r Rating) Provisional() bool { return r.Deviation > ProvisionalDeviation }

// MaxLeaderboard is the most entries Leaderboard returns.
const MaxLeaderboard = 1000

// ratedSeats are the seats of g whose ratings its result changes, in seat
// order: none unless g is rated, has a result, and has at least two seats
// held by people. A computer seat (no name) is left out, and so are the
// results against it; a person's seat the computer played for a while
// while they were away (Bot with their name) counts as theirs, so leaving
// a losing game does not save a rating. A game with one name in two seats
// is not rated.
func ratedSeats(g *record.Game) []int {
	if !g.Rated() || !g.Reason.HasResult() || g.Outcome.Status == rules.Running {
		return nil
	}
	var seats []int
	for i, s := range g.Seats {
		if s.Name == "" {
			continue
		}
		for _, j := range seats {
			if g.Seats[j].Name == s.Name {
				return nil
			}
		}
		seats = append(seats, i)
	}
	if len(seats) < 2 {
		return nil
	}
	return seats
}

// pairScore is seat i's score against seat j in g, the pairwise method
// that rates games of three and four as well as two: a winner beats every
// seat that did not win, and two winners (a shared win) or two seats that
// did not win draw with each other, as every seat of a drawn game does.
// Scores within a game are not compared: the rules' result says who won.
func pairScore(g *record.Game, i, j int) float64 {
	if g.Outcome.Status != rules.Won {
		return 0.5
	}
	wi, wj := slices.Contains(g.Outcome.Winners, rules.Player(i)), slices.Contains(g.Outcome.Winners, rules.Player(j))
	switch {
	case wi && !wj:
		return 1
	case wj && !wi:
		return 0
	}
	return 0.5
}

// newRatings are the ratings of g's rated seats (in seats' order) after g,
// from their ratings before (each aged by its idle time up to g's end): one
// Glicko-2 rating period per game, whose results are the seat's pairwise
// scores against each other rated seat, all against the others' ratings
// before the game.
func newRatings(g *record.Game, seats []int, before []Rating) []Rating {
	end := time.Unix(0, g.End).UTC()
	aged := make([]glicko2.Rating, len(seats))
	for k, r := range before {
		gr := glicko2.Rating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}
		if r.Games > 0 && end.After(r.Updated) {
			gr = glicko2.Idle(gr, float64(end.Sub(r.Updated))/float64(RatingPeriod))
		}
		aged[k] = gr
	}
	out := make([]Rating, len(seats))
	var results [MaxSeats]glicko2.Result
	for k, i := range seats {
		res := results[:0]
		for l, j := range seats {
			if l != k {
				res = append(res, glicko2.Result{Opponent: aged[l], Score: pairScore(g, i, j)})
			}
		}
		nr := glicko2.Bounded(glicko2.Update(aged[k], res, glicko2.Tau))
		out[k] = Rating{Game: g.Game, Name: g.Seats[i].Name, Rating: nr.Rating, Deviation: nr.Deviation,
			Volatility: nr.Volatility, Games: before[k].Games + 1, Updated: end}
	}
	return out
}

// ratingsBeforeSQL reads the accounts of n named players and their
// ratings in one game: a name without an account is not rated, one without
// a rating row has the default. lockRaters has locked the accounts, so
// what it reads stays as it is until the commit.
func ratingsBeforeSQL(n int) string {
	return "SELECT a.name, r.rating, r.deviation, r.volatility, r.games, r.updated_at FROM accounts a " +
		"LEFT JOIN ratings r ON r.game = ? AND r.name = a.name WHERE a.name IN (?" + strings.Repeat(", ?", n-1) + ")"
}

// lockRaters locks, first thing in tx, the accounts of every player gs
// may rate, in the order of their names: whoever writes a rating holds its
// player's account, so two batches recording at once (the nodes of a
// cluster) wait for each other instead of reading a rating the other is
// changing, and, as every batch locks in the same order, never deadlock
// (locking the ratings rows themselves did: a new player's row is a gap,
// and two gap locks let neither insert). Being the transaction's first
// read, it also makes MySQL's snapshot for the later plain reads start
// after the locks are held. SQLite's write transaction keeps every other
// writer out: nothing to do there.
func (s *sqlStore) lockRaters(ctx context.Context, tx *sql.Tx, gs []record.Game) error {
	if s.d.forUpdate == "" {
		return nil
	}
	var names []string
	for i := range gs {
		for _, k := range ratedSeats(&gs[i]) {
			names = append(names, gs[i].Seats[k].Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	names = slices.Compact(names)
	args := make([]any, len(names))
	for i, n := range names {
		args[i] = n
	}
	rows, err := tx.QueryContext(ctx, "SELECT name FROM accounts WHERE name IN (?"+strings.Repeat(", ?", len(names)-1)+") ORDER BY name"+s.d.forUpdate, args...)
	if err != nil {
		return unavailable("lock raters", err)
	}
	return rows.Close()
}

// rateIn updates the ratings of g's players in tx, with statements st, and
// adds the changes to their history under g's id.
func (s *sqlStore) rateIn(ctx context.Context, tx *sql.Tx, st recordStmts, g *record.Game, id uint64) error {
	seats := ratedSeats(g)
	if seats == nil {
		return nil
	}
	args := []any{g.Game}
	for _, i := range seats {
		args = append(args, g.Seats[i].Name)
	}
	rows, err := tx.StmtContext(ctx, st.ratings[len(seats)]).QueryContext(ctx, args...)
	if err != nil {
		return unavailable("ratings", err)
	}
	defer rows.Close()
	have := map[string]Rating{}
	for rows.Next() {
		var name string
		var rating, dev, vol sql.NullFloat64
		var games sql.NullInt64
		var updated sql.Null[dbTime]
		if err := rows.Scan(&name, &rating, &dev, &vol, &games, &updated); err != nil {
			return unavailable("ratings", err)
		}
		r := Rating{Name: name, Rating: glicko2.DefaultRating, Deviation: glicko2.DefaultDeviation, Volatility: glicko2.DefaultVolatility}
		if rating.Valid {
			r.Rating, r.Deviation, r.Volatility, r.Games, r.Updated = rating.Float64, dev.Float64, vol.Float64, int(games.Int64), updated.V.t
		}
		have[name] = r
	}
	if err := rows.Err(); err != nil {
		return unavailable("ratings", err)
	}
	rows.Close()
	// only the players with accounts are rated, against each other
	kept := seats[:0]
	var before []Rating
	for _, i := range seats {
		if r, ok := have[g.Seats[i].Name]; ok {
			kept, before = append(kept, i), append(before, r)
		}
	}
	if len(kept) < 2 {
		return nil
	}
	after := newRatings(g, kept, before)
	args = args[:0]
	for _, r := range after {
		args = append(args, r.Game, r.Name, r.Rating, r.Deviation, r.Volatility, r.Games, s.d.timeArg(r.Updated))
	}
	if _, err := tx.StmtContext(ctx, st.rate[len(kept)]).ExecContext(ctx, args...); err != nil {
		return unavailable("rate", err)
	}
	args = args[:0]
	for k, r := range after {
		args = append(args, r.Name, id, r.Game, before[k].Rating, r.Rating, r.Deviation, s.d.timeArg(r.Updated))
	}
	if _, err := tx.StmtContext(ctx, st.history[len(kept)]).ExecContext(ctx, args...); err != nil {
		return unavailable("rating history", err)
	}
	return nil
}

const ratingColumns = "game, name, rating, deviation, volatility, games, updated_at"

func scanRatings(rows *sql.Rows) ([]Rating, error) {
	var out []Rating
	for rows.Next() {
		var r Rating
		var updated dbTime
		if err := rows.Scan(&r.Game, &r.Name, &r.Rating, &r.Deviation, &r.Volatility, &r.Games, &updated); err != nil {
			return nil, err
		}
		r.Updated = updated.t
		out = append(out, r)
	}
	return out, rows.Err()
}

func (s *sqlStore) Ratings(ctx context.Context, name string) ([]Rating, error) {
	ctx, cancel := s.op(ctx)
	defer cancel()
	rows, err := s.rd.QueryContext(ctx, "SELECT "+ratingColumns+" FROM ratings WHERE name = ? ORDER BY game", name)
	if err != nil {
		return nil, unavailable("ratings", err)
	}
	defer rows.Close()
	out, err := scanRatings(rows)
	if err != nil {
		return nil, unavailable("ratings", err)
	}
	return out, nil
}

func (s *sqlStore) Leaderboard(ctx context.Context, game string, limit int) ([]Rating, error) {
	if limit <= 0 || limit > MaxLeaderboard {
		limit = MaxLeaderboard
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	rows, err := s.rd.QueryContext(ctx, "SELECT "+ratingColumns+" FROM ratings WHERE game = ? AND deviation <= ? ORDER BY rating DESC, name LIMIT ?",
		game, ProvisionalDeviation, limit)
	if err != nil {
		return nil, unavailable("leaderboard", err)
	}
	defer rows.Close()
	out, err := scanRatings(rows)
	if err != nil {
		return nil, unavailable("leaderboard", err)
	}
	return out, nil
}

// upsertRating* end the statement that writes n ratings in one round trip
// (upsertRatingsSQL), new rows or not, in each dialect.
const (
	upsertRatingSQLite = "ON CONFLICT (game, name) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation, " +
		"volatility = excluded.volatility, games = excluded.games, updated_at = excluded.updated_at"
	upsertRatingMySQL = "ON DUPLICATE KEY UPDATE rating = VALUES(rating), deviation = VALUES(deviation), " +
		"volatility = VALUES(volatility), games = VALUES(games), updated_at = VALUES(updated_at)"
)

// upsertRatingsSQL writes n ratings, with the dialect's tail.
func upsertRatingsSQL(n int, tail string) string {
	return insertRowsSQL("INSERT INTO ratings ("+ratingColumns+") VALUES ", "(?, ?, ?, ?, ?, ?, ?)", n) + " " + tail
}

// insertHistorySQL adds n rows of rating history.
func insertHistorySQL(n int) string {
	return insertRowsSQL("INSERT INTO rating_history (name, game_id, game, rating_before, rating, deviation, ended_at) VALUES ",
		"(?, ?, ?, ?, ?, ?, ?)", n)
}

// RatingChange is what one rated game did to a player's rating.
type RatingChange struct {
	GameID    uint64 // the game's record
	Game      string
	Before    float64 // the rating before the game
	Rating    float64 // and after it
	Deviation float64 // after it
	Ended     time.Time
}

// MaxHistory is the most changes RatingHistory returns.
const MaxHistory = 1000

func (s *sqlStore) RatingHistory(ctx context.Context, name, game string, limit int) ([]RatingChange, error) {
	if limit <= 0 || limit > MaxHistory {
		limit = MaxHistory
	}
	q := "SELECT game_id, game, rating_before, rating, deviation, ended_at FROM rating_history WHERE name = ?"
	args := []any{name}
	if game != "" {
		q, args = q+" AND game = ?", append(args, game)
	}
	q, args = q+" ORDER BY ended_at DESC, game_id DESC LIMIT ?", append(args, limit)
	ctx, cancel := s.op(ctx)
	defer cancel()
	rows, err := s.rd.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, unavailable("rating history", err)
	}
	defer rows.Close()
	var out []RatingChange
	for rows.Next() {
		var c RatingChange
		var ended dbTime
		if err := rows.Scan(&c.GameID, &c.Game, &c.Before, &c.Rating, &c.Deviation, &ended); err != nil {
			return nil, unavailable("rating history", err)
		}
		c.Ended = ended.t
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable("rating history", err)
	}
	return out, nil
}
