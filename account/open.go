package account

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Open opens a store of dialect d, a SQLite path or a MySQL DSN, creating
// the SQLite file when it is missing and migrating the schema to this
// build's latest version: what bomberd does at its start.
func Open(ctx context.Context, d Dialect, dsnOrPath string, h *Hasher) (Store, error) {
	switch d {
	case DialectSQLite:
		return OpenSQLite(ctx, dsnOrPath, h)
	case DialectMySQL:
		return OpenMySQL(ctx, dsnOrPath, h)
	}
	return nil, fmt.Errorf("account: unknown dialect %q", d)
}

// OpenDB opens a database of dialect d without migrating: a SQLite path or
// a MySQL DSN. It is for tools (bomberctl migrate, check-schema) that manage
// the schema themselves with Migrate, SchemaVersion and CheckSchema.
func OpenDB(ctx context.Context, d Dialect, dsnOrPath string) (*sql.DB, error) {
	switch d {
	case DialectSQLite:
		return openSQLiteDB(ctx, dsnOrPath)
	case DialectMySQL:
		return openMySQLDB(ctx, dsnOrPath)
	}
	return nil, fmt.Errorf("account: unknown dialect %q", d)
}

// OpenExisting opens a store of dialect d as it is, for tools (bomberctl)
// that must neither create a store where none is meant to be nor undo a
// deliberate downgrade: a SQLite file that does not exist is an error
// wrapping ErrNoStore, and a schema at any version but this build's latest
// is an error wrapping ErrSchema. Only bomberd's start (Open) and an
// explicit migration (MigrateTo) change the schema.
func OpenExisting(ctx context.Context, d Dialect, dsnOrPath string, h *Hasher) (Store, error) {
	switch d {
	case DialectSQLite:
		if err := sqliteExists(dsnOrPath); err != nil {
			return nil, err
		}
		return openSQLite(ctx, dsnOrPath, h, false)
	case DialectMySQL:
		return openMySQL(ctx, dsnOrPath, h, false)
	}
	return nil, fmt.Errorf("account: unknown dialect %q", d)
}

// OpenExistingDB is OpenDB for a store that must exist already: a SQLite
// file that does not is an error wrapping ErrNoStore (a MySQL database
// that does not exist fails to connect).
func OpenExistingDB(ctx context.Context, d Dialect, dsnOrPath string) (*sql.DB, error) {
	if d == DialectSQLite {
		if err := sqliteExists(dsnOrPath); err != nil {
			return nil, err
		}
	}
	return OpenDB(ctx, d, dsnOrPath)
}

// sqliteExists returns an error wrapping ErrNoStore when path does not exist.
func sqliteExists(path string) error {
	_, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w at %s", ErrNoStore, path)
	}
	if err != nil {
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return nil
}

// migrateOrCheck applies pending migrations (migrate) or checks that db
// already has this build's schema.
func migrateOrCheck(ctx context.Context, db *sql.DB, d Dialect, migrate bool) error {
	if migrate {
		_, err := Migrate(ctx, db, d)
		return err
	}
	return CheckSchema(ctx, db, d)
}
