package main

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/bomber-game/bomber/account"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// historyQuery answers the hub's history, replay and account-care queries
// from the store, in the form statemachine.CheckKind gives for each; ok is
// false for a kind it does not answer.
func historyQuery(ctx context.Context, store account.Store, c statemachine.Check) (a statemachine.Answer, data string, ok bool) {
	switch c.Kind {
	case statemachine.Profile, statemachine.GamesPage, statemachine.RatingHist:
		if exists, err := store.Exists(ctx, c.User); err != nil {
			return statemachine.Unavailable, "", true
		} else if !exists {
			return statemachine.NotFound, "", true
		}
	}
	var rows any
	var err error
	switch c.Kind {
	case statemachine.Profile:
		rows, err = profileRows(ctx, store, c.User)
	case statemachine.Leaders:
		rows, err = leaderRows(ctx, store, c.Arg)
	case statemachine.RatingHist:
		rows, err = ratingHistoryRows(ctx, store, c.User, c.Arg)
	case statemachine.GamesPage:
		page, game, _ := strings.Cut(c.Arg, " ")
		n, _ := strconv.Atoi(page)
		rows, err = gameRows(ctx, store, c.User, game, n)
	case statemachine.ReplayGame:
		return replayRecord(ctx, store, c.Arg)
	case statemachine.ChangePassword, statemachine.DeleteAccount:
		return accountCare(ctx, store, c), "", true
	default:
		return 0, "", false
	}
	if err != nil {
		return storeAnswer(err), "", true
	}
	b, err := json.Marshal(rows)
	if err != nil {
		return statemachine.Unavailable, "", true
	}
	return statemachine.Found, string(b), true
}

// ratingRow is a Rating as RatingRow carries it (rounded; never below 0).
func ratingRow(r account.Rating) segment.RatingRowBody {
	row := segment.RatingRowBody{User: r.Name, Game: r.Game, Rating: clampU16(r.Rating), Deviation: clampU16(r.Deviation),
		Games: uint32(r.Games), At: uint32(max(r.Updated.Unix(), 0))}
	if r.Provisional() {
		row.Flags |= segment.RowProvisional
	}
	return row
}

func clampU16(v float64) uint16 { return uint16(min(max(math.Round(v), 0), math.MaxUint16)) }

func profileRows(ctx context.Context, store account.Store, user string) ([]segment.RatingRowBody, error) {
	rs, err := store.Ratings(ctx, user)
	rows := make([]segment.RatingRowBody, 0, len(rs))
	for _, r := range rs {
		rows = append(rows, ratingRow(r))
	}
	return rows, err
}

func leaderRows(ctx context.Context, store account.Store, game string) ([]segment.RatingRowBody, error) {
	rs, err := store.Leaderboard(ctx, game, segment.HistLeaderRows)
	rows := make([]segment.RatingRowBody, 0, len(rs))
	for _, r := range rs {
		rows = append(rows, ratingRow(r))
	}
	return rows, err
}

func ratingHistoryRows(ctx context.Context, store account.Store, user, game string) ([]segment.RatingRowBody, error) {
	cs, err := store.RatingHistory(ctx, user, game, segment.HistRatingRows)
	rows := make([]segment.RatingRowBody, 0, len(cs))
	for _, c := range cs {
		row := segment.RatingRowBody{User: user, Game: c.Game, Rating: clampU16(c.Rating), Deviation: clampU16(c.Deviation),
			At: uint32(max(c.Ended.Unix(), 0)), GameID: c.GameID, Before: clampU16(c.Before)}
		if c.Deviation > account.ProvisionalDeviation {
			row.Flags |= segment.RowProvisional
		}
		rows = append(rows, row)
	}
	return rows, err
}

// gameRows is page n of user's games (of game, or all), each as the user
// sees it: their result, their opponents, what it did to their rating.
func gameRows(ctx context.Context, store account.Store, user, game string, n int) ([]segment.GameRowBody, error) {
	gs, err := store.Games(ctx, account.GameFilter{User: user, Game: game, Limit: segment.HistPage, Skip: n * segment.HistPage})
	if err != nil {
		return nil, err
	}
	changes := map[uint64]int16{}
	if len(gs) > 0 {
		cs, err := store.RatingHistory(ctx, user, game, 0)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			changes[c.GameID] = int16(math.Round(c.Rating) - math.Round(c.Before))
		}
	}
	rows := make([]segment.GameRowBody, 0, len(gs))
	for _, g := range gs {
		rows = append(rows, statemachine.GameRowFor(g, user, changes[g.ID]))
	}
	return rows, nil
}

// replayRecord answers a ReplayGame query (Arg "id ply"): the ply, a
// newline, and the record with its moves as JSON.
func replayRecord(ctx context.Context, store account.Store, arg string) (statemachine.Answer, string, bool) {
	idText, ply, _ := strings.Cut(arg, " ")
	id, err := strconv.ParseUint(idText, 10, 64)
	if err != nil {
		return statemachine.NotFound, "", true
	}
	g, err := store.Game(ctx, id)
	if errors.Is(err, account.ErrNoGame) {
		return statemachine.NotFound, "", true
	}
	if err != nil {
		return statemachine.Unavailable, "", true
	}
	b, err := json.Marshal(g)
	if err != nil {
		return statemachine.Unavailable, "", true
	}
	return statemachine.Found, ply + "\n" + string(b), true
}

// accountCare checks the current password, then changes it (by the
// sign-up rules) or deletes the account.
func accountCare(ctx context.Context, store account.Store, c statemachine.Check) statemachine.Answer {
	switch err := store.Verify(ctx, c.User, c.Password); {
	case errors.Is(err, account.ErrWrongPassword):
		return statemachine.WrongPassword
	case err != nil:
		return storeAnswer(err)
	}
	if c.Kind == statemachine.DeleteAccount {
		if err := store.Delete(ctx, c.User); err != nil {
			return storeAnswer(err)
		}
		return statemachine.Found
	}
	if account.CheckSignupPassword(c.User, c.Arg) != nil {
		return statemachine.BadSignupPass
	}
	if err := store.SetPassword(ctx, c.User, c.Arg); errors.Is(err, account.ErrBadPassword) {
		return statemachine.BadSignupPass
	} else if err != nil {
		return storeAnswer(err)
	}
	return statemachine.Found
}
