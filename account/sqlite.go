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
	dsn, err := sqliteDSN(path, false)
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

// sqliteReaders is how many connections the embedded store reads on
// (logins, bomberctl's lists), beside its one writer. One: a login's lookup
// takes tens of microseconds and logins are hashed a few at a time anyway;
// with four, a storm's lookups ran side by side with the hashing on a
// pinned daemon's one CPU, and the games' latency tail during the bench's
// storms grew (docs/performance.md, "Logins waited for the recorder").
const sqliteReaders = 1

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
	rd, err := openSQLiteReader(ctx, path)
	if err != nil {
		db.Close()
		return nil, err
	}
	s := newSQLiteStore(db, h)
	s.rd = rd
	return s, nil
}

// openSQLiteReader opens the store's read connection on path (already
// migrated).
// In WAL mode a reader does not wait for the writer: a login's account
// lookup no longer queues behind a batch of game records on the single
// write connection, which, with the recorder at nice 10 on a saturated
// loop's CPU, held it for a hundred milliseconds at a time (the bench's
// 1,800 logins beside 100 busy games took over two minutes).
func openSQLiteReader(ctx context.Context, path string) (*sql.DB, error) {
	dsn, err := sqliteDSN(path, true)
	if err != nil {
		return nil, err
	}
	rd, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	rd.SetMaxOpenConns(sqliteReaders)
	rd.SetMaxIdleConns(sqliteReaders)
	rd.SetConnMaxIdleTime(0)
	if err := rd.PingContext(ctx); err != nil {
		rd.Close()
		return nil, unavailable("open "+path+" for reading", err)
	}
	return rd, nil
}

// newSQLiteStore is a store on db alone, which it also reads on.
func newSQLiteStore(db *sql.DB, h *Hasher) *sqlStore {
	return &sqlStore{db: db, rd: db, h: h, opTimeout: DefaultOpTimeout, d: dialect{
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
