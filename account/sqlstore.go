package account

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/bomber-game/bomber/rules/record"
	"strings"
	"sync"
	"time"
)

// sqlStore implements Store over database/sql for both dialects; the few
// differences live in dialect.
type sqlStore struct {
	db        *sql.DB
	rd        *sql.DB // what reads outside a write go to: db itself, or the embedded store's read connection
	h         *Hasher
	d         dialect
	opTimeout time.Duration
	stmts     stmtCache
}

// stmtCache holds the statements a store prepares once and keeps: those
// RecordGame runs for every finished game, whose SQL (a row of
// placeholders per move) the embedded store otherwise parsed on every call
// (a quarter of a record's cost; BenchmarkRecordGame).
type stmtCache struct {
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

// prepared is query prepared on s's database, once. Call it outside a
// transaction: SQLite's store has a single connection, which an open
// transaction holds.
func (s *sqlStore) prepared(ctx context.Context, query string) (*sql.Stmt, error) {
	c := &s.stmts
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.m[query]; ok {
		return st, nil
	}
	st, err := s.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if c.m == nil {
		c.m = make(map[string]*sql.Stmt)
	}
	c.m[query] = st
	return st, nil
}

// dialect holds what differs between MySQL and SQLite at run time.
type dialect struct {
	name Dialect
	// isDuplicate reports a unique-key violation.
	isDuplicate func(error) bool
	// timeArg converts a time to the column's stored form.
	timeArg func(time.Time) any
	// storedGame selects the id of a stored record by its key, in a
	// write transaction, where it must see the rows committed since the
	// transaction's first read (storedGameSQL as it is on SQLite, where a
	// write transaction keeps every other writer out).
	storedGame string
	// forUpdate ends a read in a write transaction that must lock what it
	// reads against other writers until the commit (nothing on SQLite,
	// whose write transaction keeps every other writer out; lockRaters).
	forUpdate string
	// upsertRating ends the statement that writes rating rows, new or not.
	upsertRating string
	// insertIgnore begins an INSERT that skips rows whose key is taken.
	insertIgnore string
}

var _ Store = (*sqlStore)(nil)

// op bounds one database call by the store's timeout as well as ctx.
func (s *sqlStore) op(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.opTimeout)
}

// unavailable wraps a database failure so that callers see ErrUnavailable
// and, for logs, the driver's own error.
func unavailable(what string, err error) error {
	return fmt.Errorf("account: %s: %w: %w", what, ErrUnavailable, err)
}

// classify marks connection-level failures as ErrUnavailable and leaves
// other errors (such as a failing migration statement) as they are.
func classify(err error) error {
	if err == nil || errors.Is(err, ErrUnavailable) {
		return err
	}
	if isConnectivity(err) {
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return err
}

func isConnectivity(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) ||
		errors.Is(err, sql.ErrConnDone) {
		return true
	}
	var ne interface{ Timeout() bool }
	if errors.As(err, &ne) {
		return true // net.Error and friends
	}
	msg := err.Error()
	for _, s := range []string{"database is closed", "connection refused", "invalid connection",
		"bad connection", "broken pipe", "connection reset", "EOF", "i/o timeout"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

func (s *sqlStore) Exists(ctx context.Context, name string) (bool, error) {
	if !ValidName(name) {
		return false, nil
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	var n int
	err := s.rd.QueryRowContext(ctx, "SELECT COUNT(*) FROM accounts WHERE name = ?", name).Scan(&n)
	if err != nil {
		return false, unavailable("exists", err)
	}
	return n > 0, nil
}

// storedHash returns name's password hash, ErrNoUser, or an unavailable error.
func (s *sqlStore) storedHash(ctx context.Context, name string) (string, error) {
	ctx, cancel := s.op(ctx)
	defer cancel()
	var h string
	err := s.rd.QueryRowContext(ctx, "SELECT password_hash FROM accounts WHERE name = ?", name).Scan(&h)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("%w: %s", ErrNoUser, quoteName(name))
	}
	if err != nil {
		return "", unavailable("read account", err)
	}
	return h, nil
}

func (s *sqlStore) Verify(ctx context.Context, name, password string) error {
	if !ValidName(name) {
		return fmt.Errorf("%w: %s", ErrNoUser, quoteName(name))
	}
	stored, err := s.storedHash(ctx, name)
	if err != nil {
		return err
	}
	wrong := fmt.Errorf("%w for %s", ErrWrongPassword, quoteName(name))
	if !ValidPassword(password) {
		return wrong // no such password can ever have been stored
	}
	ok, rehash, err := s.h.Verify(ctx, stored, password)
	if err != nil {
		return fmt.Errorf("account: verify %s: %w", quoteName(name), err)
	}
	if !ok {
		return wrong
	}
	if rehash {
		s.upgrade(ctx, name, stored, password)
	}
	return nil
}

// upgrade replaces a legacy or outdated hash after a successful login. It
// is best effort: the login already succeeded, and a failed upgrade is
// retried at the next one. The old hash in the WHERE clause keeps a
// concurrent SetPassword from being overwritten.
func (s *sqlStore) upgrade(ctx context.Context, name, old, password string) {
	fresh, err := s.h.Hash(ctx, password)
	if err != nil {
		return
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	_, _ = s.db.ExecContext(ctx,
		"UPDATE accounts SET password_hash = ?, updated_at = ? WHERE name = ? AND password_hash = ?",
		fresh, s.d.timeArg(time.Now()), name, old)
}

func (s *sqlStore) Add(ctx context.Context, name, password string) error {
	if err := checkName(name); err != nil {
		return err
	}
	if err := checkPassword(password); err != nil {
		return err
	}
	// Spare an argon2id run for the common duplicate; the unique key still decides.
	if ok, err := s.Exists(ctx, name); err != nil {
		return err
	} else if ok {
		return fmt.Errorf("%w: %s", ErrExists, quoteName(name))
	}
	hash, err := s.h.Hash(ctx, password)
	if err != nil {
		return fmt.Errorf("account: add %s: %w", quoteName(name), err)
	}
	if err := s.insert(ctx, s.db, name, hash); err != nil {
		return err
	}
	if err := s.keepNameKey(ctx, s.db, name); err != nil {
		return unavailable("add name key", err)
	}
	return nil
}

// execer is what insert needs from *sql.DB and *sql.Tx.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func (s *sqlStore) insert(ctx context.Context, ex execer, name, hash string) error {
	ctx, cancel := s.op(ctx)
	defer cancel()
	now := s.d.timeArg(time.Now())
	_, err := ex.ExecContext(ctx,
		"INSERT INTO accounts (name, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?)",
		name, hash, now, now)
	if err != nil && s.d.isDuplicate(err) {
		return fmt.Errorf("%w: %s", ErrExists, quoteName(name))
	}
	if err != nil {
		return unavailable("add", err)
	}
	return nil
}

func (s *sqlStore) Delete(ctx context.Context, name string) error {
	if !ValidName(name) {
		return fmt.Errorf("%w: %s", ErrNoUser, quoteName(name))
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return unavailable("delete", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, "DELETE FROM accounts WHERE name = ?", name)
	if err != nil {
		return unavailable("delete", err)
	}
	if err := s.affectedOne(res, name); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM ratings WHERE name = ?", name); err != nil {
		return unavailable("delete ratings", err)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM rating_history WHERE name = ?", name); err != nil {
		return unavailable("delete rating history", err)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM name_keys WHERE name = ?", name); err != nil {
		return unavailable("delete name key", err)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE game_seats SET name = ? WHERE name = ?", record.DeletedPlayer, name); err != nil {
		return unavailable("anonymise games", err)
	}
	if err := tx.Commit(); err != nil {
		return unavailable("delete", err)
	}
	return nil
}

func (s *sqlStore) SetPassword(ctx context.Context, name, password string) error {
	if err := checkPassword(password); err != nil {
		return err
	}
	if ok, err := s.Exists(ctx, name); err != nil {
		return err
	} else if !ok {
		return fmt.Errorf("%w: %s", ErrNoUser, quoteName(name))
	}
	hash, err := s.h.Hash(ctx, password)
	if err != nil {
		return fmt.Errorf("account: set password %s: %w", quoteName(name), err)
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	res, err := s.db.ExecContext(ctx, "UPDATE accounts SET password_hash = ?, updated_at = ? WHERE name = ?",
		hash, s.d.timeArg(time.Now()), name)
	if err != nil {
		return unavailable("set password", err)
	}
	return s.affectedOne(res, name)
}

// affectedOne turns "no row matched" into ErrNoUser. The MySQL connector
// reports matched rows (ClientFoundRows), as SQLite does.
func (s *sqlStore) affectedOne(res sql.Result, name string) error {
	n, err := res.RowsAffected()
	if err != nil {
		return unavailable("rows affected", err)
	}
	if n == 0 {
		return fmt.Errorf("%w: %s", ErrNoUser, quoteName(name))
	}
	return nil
}

func (s *sqlStore) List(ctx context.Context) ([]User, error) {
	ctx, cancel := s.op(ctx)
	defer cancel()
	rows, err := s.rd.QueryContext(ctx, "SELECT name, password_hash, created_at FROM accounts ORDER BY name")
	if err != nil {
		return nil, unavailable("list", err)
	}
	defer rows.Close()
	var users []User
	for rows.Next() {
		var u User
		var hash string
		var created dbTime
		if err := rows.Scan(&u.Name, &hash, &created); err != nil {
			return nil, unavailable("list", err)
		}
		u.Legacy = strings.HasPrefix(hash, LegacyPrefix)
		u.Created = created.t
		users = append(users, u)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable("list", err)
	}
	return users, nil
}

func (s *sqlStore) Count(ctx context.Context) (int, error) {
	ctx, cancel := s.op(ctx)
	defer cancel()
	var n int
	if err := s.rd.QueryRowContext(ctx, "SELECT COUNT(*) FROM accounts").Scan(&n); err != nil {
		return 0, unavailable("count", err)
	}
	return n, nil
}

func (s *sqlStore) Ping(ctx context.Context) error {
	ctx, cancel := s.op(ctx)
	defer cancel()
	if err := s.db.PingContext(ctx); err != nil {
		return unavailable("ping", err)
	}
	return nil
}

func (s *sqlStore) Close() error {
	s.stmts.mu.Lock()
	for _, st := range s.stmts.m {
		st.Close()
	}
	clear(s.stmts.m)
	s.stmts.mu.Unlock()
	if s.rd != s.db {
		s.rd.Close()
	}
	return s.db.Close()
}

// dbTime scans either dialect's stored time: MySQL DATETIME (time.Time with
// parseTime) or SQLite Unix microseconds.
type dbTime struct{ t time.Time }

// Scan implements sql.Scanner.
func (d *dbTime) Scan(v any) error {
	switch x := v.(type) {
	case time.Time:
		d.t = x.UTC()
	case int64:
		d.t = time.UnixMicro(x).UTC()
	default:
		return fmt.Errorf("account: cannot scan %T as a time", v)
	}
	return nil
}

func unixMicroArg(t time.Time) any { return t.UnixMicro() }

func utcMicroArg(t time.Time) any { return t.UTC().Truncate(time.Microsecond) }
