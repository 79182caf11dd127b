//go:build linux

package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/bomber-game/bomber/account"
	"github.com/bomber-game/bomber/bench/load"
)

// makeUsers creates n users (load.Name(0..n-1), password 123) in a fresh
// SQLite store under dir, hashed with the same cheap parameters the daemons
// run with, so logging in never rehashes. Every daemon gets a copy.
func makeUsers(ctx context.Context, dir string, n int) (string, error) {
	path := filepath.Join(dir, "users.db")
	h := account.NewHasher(account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 2)
	s, err := account.OpenSQLite(ctx, path, h)
	if err != nil {
		return "", err
	}
	for i := range n {
		if err := s.Add(ctx, load.Name(i), "123"); err != nil {
			s.Close()
			return "", fmt.Errorf("creating %s: %w", load.Name(i), err)
		}
	}
	// closing the last connection checkpoints the WAL into the file we copy
	return path, s.Close()
}

// baselineStore copies the users' store at db for an older bomberd (the
// rounds' baseline) and migrates the copy to that build's schema version,
// down as a newer build does it (-1: this build's, so db itself serves;
// every daemon starts on a copy anyway). An older build does not know a
// newer schema: it would start on one and then fail to write what that
// schema no longer has.
func baselineStore(ctx context.Context, db, dir string, version int64) (string, error) {
	if version < 0 {
		return db, nil
	}
	path := filepath.Join(dir, "users.baseline.db")
	if err := copyFile(db, path); err != nil {
		return "", err
	}
	sdb, err := account.OpenDB(ctx, account.DialectSQLite, path)
	if err != nil {
		return "", err
	}
	if _, err := account.MigrateTo(ctx, sdb, account.DialectSQLite, version); err != nil {
		sdb.Close()
		return "", fmt.Errorf("the baseline's store (BENCH_BASELINE_SCHEMA=%d): %w", version, err)
	}
	// closing the last connection checkpoints the WAL into the file copied
	return path, sdb.Close()
}
