package account

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/pressly/goose/v3"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
)

// moveLogVersion is the schema version that keeps a game's moves in its
// record's move_log (movelog.go) instead of a game_moves row each. It is a
// Go migration, the same for both dialects, because turning rows into a
// log and back needs the log's own writer and reader: in SQL it would be a
// recursive split, which MySQL 8 caps at 1,000 rows deep.
const moveLogVersion = 4

// moveLogBatch is how many games the migration converts a statement.
const moveLogBatch = 256

// moveLogMigration is schema version 4 for dialect d.
func moveLogMigration(d Dialect) *goose.Migration {
	addColumn := map[Dialect]string{
		DialectSQLite: "ALTER TABLE game_records ADD COLUMN move_log TEXT NOT NULL DEFAULT ''",
		DialectMySQL:  "ALTER TABLE game_records ADD COLUMN move_log MEDIUMTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL AFTER moves",
	}[d]
	createMoves := map[Dialect]string{
		DialectSQLite: `CREATE TABLE game_moves (
    game_id  INTEGER NOT NULL,
    ply      INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    notation TEXT    NOT NULL,
    at       INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) STRICT, WITHOUT ROWID`,
		DialectMySQL: `CREATE TABLE game_moves (
    game_id  BIGINT UNSIGNED  NOT NULL,
    ply      INT UNSIGNED     NOT NULL,
    seat     TINYINT UNSIGNED NOT NULL,
    notation VARBINARY(64)    NOT NULL,
    at       BIGINT           NOT NULL,
    PRIMARY KEY (game_id, ply)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
	}[d]
	// Both directions do only what is left to do, so that, as the SQL
	// migrations, they also apply over a database made from schema.sql.
	up := func(ctx context.Context, tx *sql.Tx) error {
		if has, err := hasColumn(ctx, tx, d, "game_records", "move_log"); err != nil || !has {
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, addColumn); err != nil {
				return err
			}
		}
		if has, err := hasTable(ctx, tx, d, "game_moves"); err != nil || !has {
			return err
		}
		if err := movesToLogs(ctx, tx); err != nil {
			return err
		}
		// Version 3 read a game's moves from its rows, whatever its moves
		// column said; from now on the two agree.
		if _, err := tx.ExecContext(ctx, "UPDATE game_records SET moves = 0 WHERE move_log = '' AND moves <> 0"); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "DROP TABLE game_moves")
		return err
	}
	down := func(ctx context.Context, tx *sql.Tx) error {
		if has, err := hasTable(ctx, tx, d, "game_moves"); err != nil || !has {
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, createMoves); err != nil {
				return err
			}
		}
		if has, err := hasColumn(ctx, tx, d, "game_records", "move_log"); err != nil || !has {
			return err
		}
		if err := logsToMoves(ctx, tx); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "ALTER TABLE game_records DROP COLUMN move_log")
		return err
	}
	return goose.NewGoMigration(moveLogVersion, &goose.GoFunc{RunTx: up}, &goose.GoFunc{RunTx: down})
}

// movesToLogs writes every game's game_moves rows into its move_log, a
// batch of games at a time (a connection cannot write while it reads).
func movesToLogs(ctx context.Context, tx *sql.Tx) error {
	var after uint64
	for {
		ids, err := queryIDs(ctx, tx, "SELECT DISTINCT game_id FROM game_moves WHERE game_id > ? ORDER BY game_id LIMIT ?", after, moveLogBatch)
		if err != nil || len(ids) == 0 {
			return err
		}
		after = ids[len(ids)-1]
		moves := make(map[uint64][]record.Move, len(ids))
		rows, err := tx.QueryContext(ctx, "SELECT game_id, seat, notation, at FROM game_moves WHERE game_id BETWEEN ? AND ? ORDER BY game_id, ply", ids[0], after)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id uint64
			var seat int
			var m record.Move
			if err := rows.Scan(&id, &seat, &m.Text, &m.At); err != nil {
				rows.Close()
				return err
			}
			m.Seat = rules.Player(seat)
			moves[id] = append(moves[id], m)
		}
		// an error that ended the rows early must not pass for fewer rows
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return err
		}
		var log []byte
		for _, id := range ids {
			log = appendMoveLog(log[:0], moves[id])
			if _, err := tx.ExecContext(ctx, "UPDATE game_records SET move_log = ?, moves = ? WHERE id = ?", string(log), len(moves[id]), id); err != nil {
				return err
			}
		}
	}
}

// logsToMoves writes every game's move_log back as game_moves rows.
func logsToMoves(ctx context.Context, tx *sql.Tx) error {
	const rowsAtOnce = 200 // 1,000 placeholders a statement
	const insertMoveRows, moveRow = "INSERT INTO game_moves (game_id, ply, seat, notation, at) VALUES ", "(?, ?, ?, ?, ?)"
	full := insertRowsSQL(insertMoveRows, moveRow, rowsAtOnce) // built once; only a game's last chunk is shorter
	var after uint64
	for {
		type game struct {
			id    uint64
			moves []record.Move
		}
		var games []game
		rows, err := tx.QueryContext(ctx, "SELECT id, moves, move_log FROM game_records WHERE id > ? AND move_log <> '' ORDER BY id LIMIT ?", after, moveLogBatch)
		if err != nil {
			return err
		}
		for rows.Next() {
			var g game
			var n int
			var log string
			if err := rows.Scan(&g.id, &n, &log); err != nil {
				rows.Close()
				return err
			}
			if g.moves, err = parseMoveLog(log, n); err != nil {
				rows.Close()
				return fmt.Errorf("game %d: %w", g.id, err)
			}
			games = append(games, g)
		}
		// an error that ended the rows early must not pass for fewer rows
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return err
		}
		if len(games) == 0 {
			return nil
		}
		after = games[len(games)-1].id
		var args []any
		for _, g := range games {
			for from := 0; from < len(g.moves); from += rowsAtOnce {
				chunk := g.moves[from:min(from+rowsAtOnce, len(g.moves))]
				args = args[:0]
				for i, m := range chunk {
					args = append(args, g.id, from+i+1, int(m.Seat), m.Text, m.At)
				}
				q := full
				if len(chunk) < rowsAtOnce {
					q = insertRowsSQL(insertMoveRows, moveRow, len(chunk))
				}
				if _, err := tx.ExecContext(ctx, q, args...); err != nil {
					return err
				}
			}
		}
	}
}

// queryIDs runs a query of one id column.
func queryIDs(ctx context.Context, tx *sql.Tx, q string, args ...any) ([]uint64, error) {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []uint64
	for rows.Next() {
		var id uint64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// hasTable says whether the database has table.
func hasTable(ctx context.Context, q querier, d Dialect, table string) (bool, error) {
	return counted(ctx, q, map[Dialect]string{
		DialectSQLite: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?",
		DialectMySQL:  "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?",
	}[d], table)
}

// hasColumn says whether table has column.
func hasColumn(ctx context.Context, q querier, d Dialect, table, column string) (bool, error) {
	return counted(ctx, q, map[Dialect]string{
		DialectSQLite: "SELECT COUNT(*) FROM pragma_table_info(?) WHERE name = ?",
		DialectMySQL:  "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? AND column_name = ?",
	}[d], table, column)
}

// querier is what hasTable and hasColumn ask: a database or a transaction.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// counted says whether a COUNT(*) query counts any row.
func counted(ctx context.Context, q querier, query string, args ...any) (bool, error) {
	var n int
	if err := q.QueryRowContext(ctx, query, args...).Scan(&n); err != nil {
		return false, err
	}
	return n > 0, nil
}
