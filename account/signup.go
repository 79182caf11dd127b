package account

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/pressly/goose/v3"
)

// Names people choose for themselves (Register) follow stricter rules
// than the names operators give (Add): the reference client sends a name
// as the bytes typed, so plain ASCII is what every client can type and
// log in with, and a strict alphabet leaves few ways to look like another
// name.
const (
	MinSignupNameLen     = 3
	MaxSignupNameLen     = 20
	MinSignupPasswordLen = 8
)

// CheckSignupName returns nil when name may be chosen at sign-up, and
// otherwise an error wrapping ErrBadName that says why: 3..20 ASCII
// letters, digits, '_' and '-', beginning with a letter.
func CheckSignupName(name string) error {
	bad := func(why string) error { return fmt.Errorf("%w: %s", ErrBadName, why) }
	if len(name) < MinSignupNameLen || len(name) > MaxSignupNameLen {
		return bad(fmt.Sprintf("a name is %d to %d characters", MinSignupNameLen, MaxSignupNameLen))
	}
	if c := name[0]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
		return bad("a name begins with a letter")
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return bad("a name has only letters a-z and A-Z, digits, _ and -")
		}
	}
	return nil
}

// CheckSignupPassword returns nil when password may be chosen at sign-up
// by name, and otherwise an error wrapping ErrBadPassword: 8..29 bytes
// (the wire carries 29), and not the name itself in any case.
func CheckSignupPassword(name, password string) error {
	switch {
	case len(password) < MinSignupPasswordLen || len(password) > MaxPasswordLen:
		return fmt.Errorf("%w: a password is %d to %d bytes", ErrBadPassword, MinSignupPasswordLen, MaxPasswordLen)
	case strings.EqualFold(password, name):
		return fmt.Errorf("%w: a password is not the name", ErrBadPassword)
	}
	return nil
}

// NameKey is what two names that look alike share: the name in lower case
// (Unicode case folding, for the names operators may give), with the
// characters that pass for one another in many fonts made one: 0 and o;
// 1, i and l; rn and m; vv and w; - and _. Two accounts never get the same
// key at sign-up (Register), so "Alice", "alice" and "AIice" are one name
// there.
func NameKey(name string) string {
	return lookAlikePairs.Replace(lookAlikeChars.Replace(strings.ToLower(name)))
}

// The replacements NameKey makes, characters first; built once.
var (
	lookAlikeChars = strings.NewReplacer("0", "o", "1", "l", "i", "l", "-", "_")
	lookAlikePairs = strings.NewReplacer("rn", "m", "vv", "w")
)

// Register creates an account a person asked for: the sign-up rules
// (CheckSignupName, CheckSignupPassword: ErrBadName, ErrBadPassword), and
// ErrExists when the name, or one that looks like it (NameKey), is taken.
// The caller cannot tell which: both are "taken".
func (s *sqlStore) Register(ctx context.Context, name, password string) error {
	if err := CheckSignupName(name); err != nil {
		return err
	}
	if err := CheckSignupPassword(name, password); err != nil {
		return err
	}
	taken := func() error { return fmt.Errorf("%w: %s or a name like it", ErrExists, quoteName(name)) }
	// Spare an argon2id run for the common case; the unique keys still decide.
	var n int
	if err := s.rd.QueryRowContext(ctx, "SELECT COUNT(*) FROM name_keys WHERE name_key = ?", NameKey(name)).Scan(&n); err != nil {
		return unavailable("register", err)
	}
	if n > 0 {
		return taken()
	}
	hash, err := s.h.Hash(ctx, password)
	if err != nil {
		return fmt.Errorf("account: register %s: %w", quoteName(name), err)
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return unavailable("register", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO name_keys (name_key, name) VALUES (?, ?)", NameKey(name), name); err != nil {
		if s.d.isDuplicate(err) {
			return taken()
		}
		return unavailable("register", err)
	}
	if err := s.insert(ctx, tx, name, hash); err != nil {
		if isExists(err) {
			return taken()
		}
		return err
	}
	if err := tx.Commit(); err != nil {
		return unavailable("register", err)
	}
	return nil
}

// keepNameKey records name's key after an operator made the account (Add,
// ImportLegacy), unless another account holds it: operators may give
// names that look alike, and the first keeps the key.
func (s *sqlStore) keepNameKey(ctx context.Context, ex execer, name string) error {
	_, err := ex.ExecContext(ctx, s.d.insertIgnore+" INTO name_keys (name_key, name) VALUES (?, ?)", NameKey(name), name)
	return err
}

// nameKeysVersion is the schema version that adds name_keys. It is a Go
// migration because it fills the table with the keys of the accounts that
// exist, which NameKey computes (MySQL and SQLite fold case differently).
const nameKeysVersion = 6

// nameKeysMigration is schema version 6 for dialect d.
func nameKeysMigration(d Dialect) *goose.Migration {
	create := map[Dialect]string{
		DialectSQLite: `CREATE TABLE IF NOT EXISTS name_keys (
    name_key TEXT NOT NULL PRIMARY KEY,
    name     TEXT NOT NULL
) STRICT, WITHOUT ROWID`,
		DialectMySQL: `CREATE TABLE IF NOT EXISTS name_keys (
    name_key VARBINARY(120) NOT NULL,
    name     VARBINARY(29)  NOT NULL,
    PRIMARY KEY (name_key),
    KEY name_keys_name (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
	}[d]
	index := map[Dialect]string{
		DialectSQLite: "CREATE INDEX IF NOT EXISTS name_keys_name ON name_keys (name)",
	}[d]
	ignore := map[Dialect]string{DialectSQLite: "INSERT OR IGNORE", DialectMySQL: "INSERT IGNORE"}[d]
	up := func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, create); err != nil {
			return err
		}
		if index != "" {
			if _, err := tx.ExecContext(ctx, index); err != nil {
				return err
			}
		}
		rows, err := tx.QueryContext(ctx, "SELECT name FROM accounts ORDER BY id")
		if err != nil {
			return err
		}
		var names []string
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				rows.Close()
				return err
			}
			names = append(names, n)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		// the oldest account of names that look alike keeps the key
		for _, n := range names {
			if _, err := tx.ExecContext(ctx, ignore+" INTO name_keys (name_key, name) VALUES (?, ?)", NameKey(n), n); err != nil {
				return err
			}
		}
		return nil
	}
	down := func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "DROP TABLE IF EXISTS name_keys")
		return err
	}
	return goose.NewGoMigration(nameKeysVersion, &goose.GoFunc{RunTx: up}, &goose.GoFunc{RunTx: down})
}
