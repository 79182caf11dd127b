package account

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
)

// Moves recorded as game_moves rows (schema version 3) are the same moves
// after version 4 puts them in move logs, and the same rows after
// migrating down again: for more games than the migration converts at once,
// some without moves.

func TestMoveLogMigrationSQLite(t *testing.T) { testMoveLogMigration(t, DialectSQLite) }

func TestMoveLogMigrationMySQL(t *testing.T) { testMoveLogMigration(t, DialectMySQL) }

func testMoveLogMigration(t *testing.T, d Dialect) {
	db, s := emptyDB(t, d)
	ctx := t.Context()
	p, err := provider(db, d)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, moveLogVersion-1); err != nil {
		t.Fatal(err)
	}
	base := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	games := 2*moveLogBatch + 2 // a fifth of them without moves
	want := make(map[uint64][]record.Move, games)
	var records, moves []any
	for i := range games {
		id := uint64(i + 1)
		records = append(records, id, 1+i%3, s.d.timeArg(base), s.d.timeArg(base.Add(time.Minute)))
		for j := range i % 5 {
			m := record.Move{Seat: rules.Player(j % 2), Text: fmt.Sprintf("m%d %d", i, j),
				At: base.Add(time.Duration(j*j-3*j) * time.Second).UnixNano()} // times go back, then forward
			want[id] = append(want[id], m)
			moves = append(moves, id, j+1, int(m.Seat), m.Text, m.At)
		}
	}
	// at version 3, as its recorder wrote them, but with moves columns of 1
	// to 3 where the rows say otherwise: the rows win, as they did then
	if _, err := db.ExecContext(ctx, insertRowsSQL("INSERT INTO game_records (id, game, options, status, winners, scores, reason, detail, leaver, moves, started_at, ended_at) VALUES ",
		"(?, 'bomber', '{}', 0, '', '', 'aborted', '', -1, ?, ?, ?)", games), records...); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, insertRowsSQL("INSERT INTO game_moves (game_id, ply, seat, notation, at) VALUES ", "(?, ?, ?, ?, ?)", len(moves)/5), moves...); err != nil {
		t.Fatal(err)
	}
	rowsQuery := "SELECT " + map[Dialect]string{
		DialectMySQL:  "CONCAT_WS(' ', game_id, ply, seat, notation, at)",
		DialectSQLite: "game_id || ' ' || ply || ' ' || seat || ' ' || notation || ' ' || at",
	}[d] + " FROM game_moves ORDER BY game_id, ply"
	rows := queryStrings(t, ctx, db, rowsQuery)

	sameMoves := func(when string) {
		t.Helper()
		for id := uint64(1); id <= uint64(games); id++ {
			g, err := s.Game(ctx, id)
			if err != nil || !reflect.DeepEqual(g.Moves, want[id]) || g.MoveCount != len(want[id]) {
				t.Fatalf("%s: game %d has %d moves %v, %v; want %v", when, id, g.MoveCount, g.Moves, err, want[id])
			}
		}
	}
	if applied, err := MigrateTo(ctx, db, d, moveLogVersion); err != nil || !reflect.DeepEqual(applied, []int64{moveLogVersion}) {
		t.Fatalf("Migrate = %v, %v; want version %d", applied, err, moveLogVersion)
	}
	sameMoves("after migrating up")
	if has, err := hasTable(ctx, db, d, "game_moves"); has || err != nil {
		t.Errorf("game_moves still there (%v)", err)
	}

	if _, err := p.DownTo(ctx, moveLogVersion-1); err != nil {
		t.Fatal(err)
	}
	if got := queryStrings(t, ctx, db, rowsQuery); !reflect.DeepEqual(got, rows) {
		t.Errorf("after migrating down, game_moves =\n%q\nwant\n%q", got, rows)
	}
	if has, err := hasColumn(ctx, db, d, "game_records", "move_log"); has || err != nil {
		t.Errorf("move_log still there (%v)", err)
	}
	if _, err := Migrate(ctx, db, d); err != nil {
		t.Fatal(err)
	}
	sameMoves("after migrating down and up again")
}
