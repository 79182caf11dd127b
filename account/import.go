package account

import (
	"context"
	"fmt"
	"sync"
)

func (s *sqlStore) ImportLegacy(ctx context.Context, accounts []LegacyAccount) (int, error) {
	for i, a := range accounts {
		if err := checkName(a.Name); err != nil {
			return 0, fmt.Errorf("account: import entry %d: %w", i+1, err)
		}
		if _, err := normalizeMD5(a.MD5Hex); err != nil {
			return 0, fmt.Errorf("account: import entry %d (%s): %w", i+1, quoteName(a.Name), err)
		}
	}
	existing, err := s.names(ctx)
	if err != nil {
		return 0, err
	}
	// Decide skips up front so that no argon2id time is spent on them.
	var skipped []string
	todo := make([]LegacyAccount, 0, len(accounts))
	seen := make(map[string]bool, len(accounts))
	for _, a := range accounts {
		if existing[a.Name] || seen[a.Name] {
			skipped = append(skipped, a.Name)
			continue
		}
		seen[a.Name] = true
		todo = append(todo, a)
	}
	hashes, err := s.wrapAll(ctx, todo)
	if err != nil {
		return 0, err
	}
	imported, raced, err := s.insertAll(ctx, todo, hashes)
	if err != nil {
		return 0, err
	}
	skipped = append(skipped, raced...)
	if len(skipped) > 0 {
		return imported, &SkippedError{Names: skipped}
	}
	return imported, nil
}

// names returns the set of existing account names.
func (s *sqlStore) names(ctx context.Context) (map[string]bool, error) {
	ctx, cancel := s.op(ctx)
	defer cancel()
	rows, err := s.db.QueryContext(ctx, "SELECT name FROM accounts")
	if err != nil {
		return nil, unavailable("import", err)
	}
	defer rows.Close()
	set := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, unavailable("import", err)
		}
		set[n] = true
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable("import", err)
	}
	return set, nil
}

// wrapAll wraps every MD5 in argon2id, using as many goroutines as the
// hasher admits at once.
func (s *sqlStore) wrapAll(ctx context.Context, todo []LegacyAccount) ([]string, error) {
	hashes := make([]string, len(todo))
	errs := make([]error, len(todo))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(cap(s.h.sem), len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				hashes[i], errs[i] = s.h.WrapLegacy(ctx, todo[i].MD5Hex)
			}
		}()
	}
	for i := range todo {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("account: import %s: %w", quoteName(todo[i].Name), err)
		}
	}
	return hashes, nil
}

// insertAll adds the accounts in one transaction, so that an outage
// imports nothing rather than part. Names created concurrently since the
// skip check are returned in raced.
func (s *sqlStore) insertAll(ctx context.Context, todo []LegacyAccount, hashes []string) (imported int, raced []string, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, nil, unavailable("import", err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	for i, a := range todo {
		switch err := s.insert(ctx, tx, a.Name, hashes[i]); {
		case err == nil:
			if err := s.keepNameKey(ctx, tx, a.Name); err != nil {
				return 0, nil, unavailable("import name key", err)
			}
			imported++
		case isExists(err):
			raced = append(raced, a.Name)
		default:
			return 0, nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, nil, unavailable("import commit", err)
	}
	return imported, raced, nil
}
