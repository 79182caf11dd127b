package account

import (
	"context"
	"database/sql"
	"fmt"
)

// Open opens a store of dialect d: a SQLite path or a MySQL DSN.
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
