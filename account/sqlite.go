package account

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// sqliteBusyMillis is how long a connection waits for another process's
// write lock before failing (then with ErrUnavailable).
const sqliteBusyMillis = 5000

// sqliteDSN builds a modernc.org/sqlite URI for path with WAL, a busy
// timeout, and immediate write transactions.
func sqliteDSN(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", sqliteBusyMillis))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: q.Encode()}
	return u.String(), nil
}

// openSQLiteDB opens (creating file and directories) without migrating.
func openSQLiteDB(ctx context.Context, path string) (*sql.DB, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
		}
	}
	dsn, err := sqliteDSN(path)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	// One connection: SQLite serialises writers anyway, and a single
	// connection never meets SQLITE_BUSY from itself.
	db.SetMaxOpenConns(1)
	db.SetConnMaxIdleTime(0)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, unavailable("open "+path, err)
	}
	return db, nil
}

// OpenSQLite opens the embedded store at path, creating the file and its
// directories, and applies pending migrations.
func OpenSQLite(ctx context.Context, path string, h *Hasher) (Store, error) {
	db, err := openSQLiteDB(ctx, path)
	if err != nil {
		return nil, err
	}
	if _, err := Migrate(ctx, db, DialectSQLite); err != nil {
		db.Close()
		return nil, err
	}
	return newSQLiteStore(db, h), nil
}

func newSQLiteStore(db *sql.DB, h *Hasher) *sqlStore {
	return &sqlStore{db: db, h: h, opTimeout: DefaultOpTimeout, d: dialect{
		name:        DialectSQLite,
		isDuplicate: sqliteDuplicate,
		timeArg:     unixMicroArg,
	}}
}

func sqliteDuplicate(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	c := se.Code()
	return c == sqlite3.SQLITE_CONSTRAINT_UNIQUE || c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
}
