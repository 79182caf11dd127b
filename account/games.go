package account

import (
	"context"
	"database/sql"
	"fmt"
	"math"
)

// checkGame rejects records that cannot describe a finished game.
func checkGame(g Game) error {
	bad := func(why string) error { return fmt.Errorf("%w: %s", ErrBadGame, why) }
	for _, p := range g.Players {
		if !ValidName(p) {
			return bad("player " + quoteName(p) + " is not a valid name")
		}
	}
	switch {
	case g.Players[0] == g.Players[1]:
		return bad("a player cannot play themself")
	case g.Winner != "" && g.Winner != g.Players[0] && g.Winner != g.Players[1]:
		return bad("winner " + quoteName(g.Winner) + " did not play")
	case len(g.Reason) == 0 || len(g.Reason) > MaxReasonLen:
		return bad(fmt.Sprintf("reason must have 1..%d bytes", MaxReasonLen))
	case g.Guesses < 0 || g.Guesses > math.MaxInt32:
		return bad("guesses out of range")
	case g.Start.IsZero() || g.End.IsZero():
		return bad("start and end time are required")
	case g.End.Before(g.Start):
		return bad("game ends before it starts")
	}
	for i := 0; i < len(g.Reason); i++ {
		if c := g.Reason[i]; c < 0x20 || c > 0x7e {
			return bad("reason must be printable ASCII")
		}
	}
	return nil
}

func (s *sqlStore) RecordGame(ctx context.Context, g Game) error {
	if err := checkGame(g); err != nil {
		return err
	}
	var winner sql.NullString
	if g.Winner != "" {
		winner = sql.NullString{String: g.Winner, Valid: true}
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	_, err := s.db.ExecContext(ctx,
		"INSERT INTO games (player1, player2, winner, reason, guesses, started_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
		g.Players[0], g.Players[1], winner, g.Reason, g.Guesses, s.d.timeArg(g.Start), s.d.timeArg(g.End))
	if err != nil {
		return unavailable("record game", err)
	}
	return nil
}

func (s *sqlStore) Games(ctx context.Context, limit int) ([]Game, error) {
	if limit <= 0 {
		return nil, nil
	}
	limit = min(limit, MaxGames)
	ctx, cancel := s.op(ctx)
	defer cancel()
	rows, err := s.db.QueryContext(ctx,
		"SELECT id, player1, player2, winner, reason, guesses, started_at, ended_at FROM games ORDER BY ended_at DESC, id DESC LIMIT ?",
		limit)
	if err != nil {
		return nil, unavailable("games", err)
	}
	defer rows.Close()
	var games []Game
	for rows.Next() {
		var g Game
		var winner sql.NullString
		var start, end dbTime
		if err := rows.Scan(&g.ID, &g.Players[0], &g.Players[1], &winner, &g.Reason, &g.Guesses, &start, &end); err != nil {
			return nil, unavailable("games", err)
		}
		g.Winner, g.Start, g.End = winner.String, start.t, end.t
		games = append(games, g)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable("games", err)
	}
	return games, nil
}
