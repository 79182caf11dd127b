package account

import (
	"context"
	"fmt"
)

// DemoPassword is the password of every demo account, as in the reference
// server's Database.sql.
const DemoPassword = "123"

// DemoAccounts returns the names of the seed's demo accounts.
func DemoAccounts() []string {
	return []string{"Novate", "Twofyw", "Larry", "Albert", "Beth", "Cindy"}
}

// SeedDemo creates the demo accounts (password DemoPassword) when the store
// has no account at all, and reports whether it did. The daemon calls it
// only for a fresh embedded store, never for MySQL, and logs a warning.
func SeedDemo(ctx context.Context, s Store) (created bool, err error) {
	n, err := s.Count(ctx)
	if err != nil {
		return false, err
	}
	if n > 0 {
		return false, nil
	}
	for _, name := range DemoAccounts() {
		if err := s.Add(ctx, name, DemoPassword); err != nil {
			return false, fmt.Errorf("account: seed demo account %s: %w", name, err)
		}
	}
	return true, nil
}
