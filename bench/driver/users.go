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
