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
// timeout, and immediate write transactions; readOnly adds query_only, for
// the store's read connection.
func sqliteDSN(path string, readOnly bool) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", sqliteBusyMillis))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	if readOnly {
		q.Add("_pragma", "query_only(1)")
	}
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
	return openSQLiteConn(ctx, path, false)
}

// openSQLiteConn opens one connection on path, the writer or (readOnly)
// the reader. One writer: SQLite serialises writers anyway, and a single
// connection never meets SQLITE_BUSY from itself. One reader: a login's
// lookup takes tens of microseconds and logins are hashed a few at a time
// anyway; with four readers, a storm's lookups ran side by side with the
// hashing on a pinned daemon's one CPU and the games' latency tail during
// the bench's storms grew (docs/performance.md, "The recorder and the
// store").
func openSQLiteConn(ctx context.Context, path string, readOnly bool) (*sql.DB, error) {
	dsn, err := sqliteDSN(path, readOnly)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	db.SetMaxOpenConns(1)
	db.SetConnMaxIdleTime(0)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, unavailable("open "+path, err)
	}
	return db, nil
}

// OpenSQLite opens the embedded store at path, creating the file and its
// directories, and applies pending migrations. It reads on a connection of
// its own: in WAL mode a reader does not wait for the writer, so a login's
// account lookup does not queue behind a batch of game records, which, with
// the recorder at nice 10 on a saturated loop's CPU, held the one
// connection for a hundred milliseconds at a time (the bench's 1,800 logins
// beside 100 busy games took over two minutes).
func OpenSQLite(ctx context.Context, path string, h *Hasher) (Store, error) {
	return openSQLite(ctx, path, h, true)
}

// openSQLite is OpenSQLite, or, without migrate, OpenExisting's SQLite
// store, whose schema must be current (its caller checked that the file
// exists).
func openSQLite(ctx context.Context, path string, h *Hasher, migrate bool) (Store, error) {
	db, err := openSQLiteDB(ctx, path)
	if err != nil {
		return nil, err
	}
	if err := migrateOrCheck(ctx, db, DialectSQLite, migrate); err != nil {
		db.Close()
		return nil, err
	}
	rd, err := openSQLiteConn(ctx, path, true)
	if err != nil {
		db.Close()
		return nil, err
	}
	s := newSQLiteStore(db, h)
	s.rd = rd
	return s, nil
}

// newSQLiteStore is a store on db alone, which it also reads on.
func newSQLiteStore(db *sql.DB, h *Hasher) *sqlStore {
	return &sqlStore{db: db, rd: db, h: h, opTimeout: DefaultOpTimeout, d: dialect{
		name:         DialectSQLite,
		isDuplicate:  sqliteDuplicate,
		timeArg:      unixMicroArg,
		storedGame:   storedGameSQL,
		upsertRating: upsertRatingSQLite,
		insertIgnore: "INSERT OR IGNORE",
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
