package account

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"

	"github.com/pressly/goose/v3"
)

// Dialect names a supported database.
type Dialect string

// The supported dialects.
const (
	DialectSQLite Dialect = "sqlite"
	DialectMySQL  Dialect = "mysql"
)

// VersionTable records which migrations a database has had.
const VersionTable = "bomber_schema_version"

//go:embed migrations/mysql/*.sql migrations/sqlite/*.sql
var migrationFiles embed.FS

// provider returns a goose provider for d's embedded migrations; it uses no
// goose globals.
func provider(db *sql.DB, d Dialect) (*goose.Provider, error) {
	var gd goose.Dialect
	var dir string
	var opts []goose.ProviderOption
	switch d {
	case DialectSQLite:
		gd, dir = goose.DialectSQLite3, "migrations/sqlite"
	case DialectMySQL:
		gd, dir = goose.DialectMySQL, "migrations/mysql"
		// Two daemons starting at once must not both run a migration.
		opts = append(opts, goose.WithSessionLocker(mysqlLocker{}))
	default:
		return nil, fmt.Errorf("account: unknown dialect %q", d)
	}
	sub, err := fs.Sub(migrationFiles, dir)
	if err != nil {
		return nil, err
	}
	opts = append(opts, goose.WithTableName(VersionTable), goose.WithDisableGlobalRegistry(true),
		goose.WithGoMigrations(goMigrations(d)...))
	return goose.NewProvider(gd, db, sub, opts...)
}

// goMigrations are d's migrations written in Go, after or between the
// numbered files.
func goMigrations(d Dialect) []*goose.Migration {
	return []*goose.Migration{moveLogMigration(d), nameKeysMigration(d)}
}

// Migrate brings db's schema up to this build's latest version and returns
// the versions it applied (none when it was current). A database newer
// than this build (a newer build migrated it) is refused with an error
// wrapping ErrSchema rather than used: this build would write what the
// newer schema no longer has.
func Migrate(ctx context.Context, db *sql.DB, d Dialect) ([]int64, error) {
	return MigrateTo(ctx, db, d, -1)
}

// MigrateTo brings db's schema to version, up or down, and returns the
// versions it applied or undid, in the order it did; version -1 is this
// build's latest. Going down is how a database goes back to an older build
// (that build cannot undo what it does not know). A version this build
// does not know, or a database newer than this build, is an error wrapping
// ErrSchema, and nothing is changed.
func MigrateTo(ctx context.Context, db *sql.DB, d Dialect, version int64) ([]int64, error) {
	p, err := provider(db, d)
	if err != nil {
		return nil, err
	}
	current, latest, err := schemaVersion(ctx, p, db, d)
	if err != nil {
		return nil, err
	}
	if version == -1 {
		version = latest
	}
	switch {
	case current > latest:
		return nil, fmt.Errorf("%w: database is at version %d, newer than this build's %d (migrate it down with the newer build's bomberctl migrate --to %d)",
			ErrSchema, current, latest, latest)
	case version < 0 || version > latest:
		return nil, fmt.Errorf("%w: no version %d: this build knows 0 to %d", ErrSchema, version, latest)
	}
	var res []*goose.MigrationResult
	switch {
	case version > current:
		res, err = p.UpTo(ctx, version)
	case version < current:
		res, err = p.DownTo(ctx, version)
	}
	if err != nil {
		return nil, fmt.Errorf("account: migrate %s to version %d: %w", d, version, classify(err))
	}
	var done []int64
	for _, r := range res {
		done = append(done, r.Source.Version)
	}
	return done, nil
}

// lossyDown says what undoing each migration deletes. Undoing a version
// not listed keeps every row (version 4 turns the move logs back into
// game_moves rows).
var lossyDown = map[int64]string{
	1: "every account",
	2: "every recorded game (the games table)",
	3: "every recorded game but two-seat Bomber games, and the moves, seeds, options and scores of those",
	5: "every rating",
	7: "every rating's history",
}

// DownLoss says what migrating db down to version would delete: one line
// per migration undone that deletes data, in the order they would be
// undone; none when going down keeps every row, or when version is not
// below the database's (version -1 is this build's latest). It changes
// nothing.
func DownLoss(ctx context.Context, db *sql.DB, d Dialect, version int64) ([]string, error) {
	current, _, err := SchemaVersion(ctx, db, d)
	if err != nil || version < 0 {
		return nil, err
	}
	var loss []string
	for v := current; v > version; v-- {
		if what, ok := lossyDown[v]; ok {
			loss = append(loss, fmt.Sprintf("undoing version %d deletes %s", v, what))
		}
	}
	return loss, nil
}

// SchemaVersion returns db's schema version (0 for an empty database) and
// the latest version this build knows. It changes nothing.
func SchemaVersion(ctx context.Context, db *sql.DB, d Dialect) (current, latest int64, err error) {
	p, err := provider(db, d)
	if err != nil {
		return 0, 0, err
	}
	return schemaVersion(ctx, p, db, d)
}

// schemaVersion is SchemaVersion with d's provider p on db.
func schemaVersion(ctx context.Context, p *goose.Provider, db *sql.DB, d Dialect) (current, latest int64, err error) {
	for _, s := range p.ListSources() {
		latest = max(latest, s.Version)
	}
	exists, err := versionTableExists(ctx, db, d)
	if err != nil {
		return 0, latest, fmt.Errorf("account: schema version: %w", classify(err))
	}
	if !exists {
		return 0, latest, nil
	}
	current, err = p.GetDBVersion(ctx)
	if err != nil {
		return 0, latest, fmt.Errorf("account: schema version: %w", classify(err))
	}
	return current, latest, nil
}

// CheckSchema returns nil when db's schema is exactly this build's latest
// version, and an error wrapping ErrSchema that names both otherwise.
func CheckSchema(ctx context.Context, db *sql.DB, d Dialect) error {
	current, latest, err := SchemaVersion(ctx, db, d)
	if err != nil {
		return err
	}
	if current != latest {
		return fmt.Errorf("%w: database is at version %d, this build expects %d", ErrSchema, current, latest)
	}
	return nil
}

func versionTableExists(ctx context.Context, db *sql.DB, d Dialect) (bool, error) {
	return hasTable(ctx, db, d, VersionTable)
}

// mysqlLocker serialises migrations across processes with a server-wide
// named lock, held by the migration's own connection.
type mysqlLocker struct{}

const migrateLockWaitSeconds = 60

// SessionLock waits up to a minute for the database's migration lock.
func (mysqlLocker) SessionLock(ctx context.Context, conn *sql.Conn) error {
	var got sql.NullInt64
	err := conn.QueryRowContext(ctx, "SELECT GET_LOCK(CONCAT('bomber-migrate:', DATABASE()), ?)", migrateLockWaitSeconds).Scan(&got)
	if err != nil {
		return err
	}
	if !got.Valid || got.Int64 != 1 {
		return errors.New("account: another process holds the migration lock")
	}
	return nil
}

// SessionUnlock releases the migration lock.
func (mysqlLocker) SessionUnlock(ctx context.Context, conn *sql.Conn) error {
	_, err := conn.ExecContext(ctx, "DO RELEASE_LOCK(CONCAT('bomber-migrate:', DATABASE()))")
	return err
}
