package account

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// TestSchemaFileMatchesMigrations checks on MariaDB that ../schema.sql and
// the embedded MySQL migrations produce the same tables, columns and
// indexes, and that the migrations apply cleanly over schema.sql.
func TestSchemaFileMatchesMigrations(t *testing.T) {
	schema, err := os.ReadFile("../schema.sql")
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	fromFile := openForSchema(t, newMySQLDatabase(t), true)
	if _, err := fromFile.ExecContext(ctx, string(schema)); err != nil {
		t.Fatalf("applying schema.sql: %v", err)
	}
	fromMigrations := openForSchema(t, newMySQLDatabase(t), false)
	if _, err := Migrate(ctx, fromMigrations, DialectMySQL); err != nil {
		t.Fatal(err)
	}
	// schema.sql records its version: check-schema's check passes and the
	// daemon's migrations have nothing left to apply.
	if cur, latest, err := SchemaVersion(ctx, fromFile, DialectMySQL); err != nil || cur != latest || latest == 0 {
		t.Errorf("after schema.sql: SchemaVersion = %d, %d, %v; want the latest", cur, latest, err)
	}
	if applied, err := Migrate(ctx, fromFile, DialectMySQL); err != nil || len(applied) != 0 {
		t.Errorf("migrations after schema.sql applied %v, %v; want none", applied, err)
	}
	both := openForSchema(t, newMySQLDatabase(t), true)
	if _, err := both.ExecContext(ctx, string(schema)); err != nil {
		t.Fatal(err)
	}
	if _, err := Migrate(ctx, both, DialectMySQL); err != nil {
		t.Fatalf("migrations over schema.sql: %v", err)
	}
	if _, err := both.ExecContext(ctx, string(schema)); err != nil {
		t.Fatalf("schema.sql applied twice: %v", err)
	}

	want := describeSchema(t, fromMigrations)
	if !slices.Contains(want, "table accounts InnoDB utf8mb4_bin") || !slices.Contains(want, "table game_records InnoDB utf8mb4_bin") {
		t.Fatalf("migrations made no accounts/game_records tables: %q", want)
	}
	for name, db := range map[string]*sql.DB{"schema.sql": fromFile, "schema.sql + migrations": both} {
		got := describeSchema(t, db)
		if !slices.Equal(got, want) {
			for _, l := range got {
				if !slices.Contains(want, l) {
					t.Errorf("%s has %s; migrations do not", name, l)
				}
			}
			for _, l := range want {
				if !slices.Contains(got, l) {
					t.Errorf("migrations have %s; %s does not", l, name)
				}
			}
		}
	}
}

func openForSchema(t *testing.T, dsn string, multi bool) *sql.DB {
	t.Helper()
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.MultiStatements = multi
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(conn)
	t.Cleanup(func() { db.Close() })
	return db
}

// describeSchema lists the current database's tables, columns and index
// parts (without the migration bookkeeping table) as sorted lines.
func describeSchema(t *testing.T, db *sql.DB) []string {
	t.Helper()
	queries := []string{
		`SELECT CONCAT_WS(' ', 'table', TABLE_NAME, ENGINE, TABLE_COLLATION)
		   FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME <> ?`,
		`SELECT CONCAT_WS(' ', 'column', TABLE_NAME, ORDINAL_POSITION, COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE,
		        IFNULL(COLUMN_DEFAULT, '-'), IFNULL(CHARACTER_SET_NAME, '-'), IFNULL(COLLATION_NAME, '-'), EXTRA)
		   FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME <> ?`,
		`SELECT CONCAT_WS(' ', 'index', TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE, INDEX_TYPE)
		   FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME <> ?`,
	}
	var lines []string
	for _, q := range queries {
		lines = append(lines, queryStrings(t, t.Context(), db, q, VersionTable)...)
	}
	slices.Sort(lines)
	return lines
}

func queryStrings(t *testing.T, ctx context.Context, db *sql.DB, q string, args ...any) []string {
	t.Helper()
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(fmt.Errorf("%s: %w", q, err))
	}
	return out
}
