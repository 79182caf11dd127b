package account

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenExistingNeitherCreatesNorMigrates: a tool's open of a store that
// is not there says so and leaves no file behind, and a store migrated
// down stays down until a migration brings it up.
func TestOpenExistingNeitherCreatesNorMigrates(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "var", "bomber.db")
	if _, err := OpenExisting(ctx, DialectSQLite, path, cheapHasher()); !errors.Is(err, ErrNoStore) || !strings.Contains(err.Error(), path) {
		t.Fatalf("OpenExisting of a missing file = %v; want ErrNoStore naming %s", err, path)
	}
	if _, err := OpenExistingDB(ctx, DialectSQLite, path); !errors.Is(err, ErrNoStore) {
		t.Fatalf("OpenExistingDB of a missing file = %v; want ErrNoStore", err)
	}
	if _, err := os.Stat(filepath.Dir(path)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("opening a missing store created %s (%v)", filepath.Dir(path), err)
	}

	s, err := Open(ctx, DialectSQLite, path, cheapHasher()) // bomberd's first start
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Add(ctx, "Alice", "pw"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = OpenExisting(ctx, DialectSQLite, path, cheapHasher())
	if err != nil {
		t.Fatalf("OpenExisting of a current store: %v", err)
	}
	if users, err := s.List(ctx); err != nil || len(users) != 1 {
		t.Errorf("List = %v, %v; want Alice", users, err)
	}
	s.Close()

	db, err := OpenExistingDB(ctx, DialectSQLite, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := MigrateTo(ctx, db, DialectSQLite, 3); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenExisting(ctx, DialectSQLite, path, cheapHasher()); !errors.Is(err, ErrSchema) {
		t.Errorf("OpenExisting at version 3 = %v; want ErrSchema", err)
	}
	if cur, _, err := SchemaVersion(ctx, db, DialectSQLite); cur != 3 || err != nil {
		t.Errorf("after OpenExisting the schema is at %d (%v); want it left at 3", cur, err)
	}
}

// TestDownLossNamesWhatIsDeleted: going down past a migration that drops
// data (the rating history of version 7, the ratings of 5, the games of
// 3, 2 and 1) names it; going down past versions 4 and 6 keeps their rows.
func TestDownLossNamesWhatIsDeleted(t *testing.T) {
	ctx := t.Context()
	db, _ := emptyDB(t, DialectSQLite)
	if _, err := Migrate(ctx, db, DialectSQLite); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		to   int64
		want []string
	}{
		{-1, nil}, {7, nil},
		{6, []string{"undoing version 7 deletes every rating's history"}},
		{5, []string{"undoing version 7"}},
		{4, []string{"undoing version 7", "undoing version 5 deletes every rating"}},
		{3, []string{"undoing version 7", "undoing version 5"}},
		{2, []string{"undoing version 7", "undoing version 5", "undoing version 3 deletes every recorded game but two-seat Bomber games"}},
		{0, []string{"undoing version 7", "undoing version 5", "undoing version 3", "undoing version 2 deletes every recorded game", "undoing version 1 deletes every account"}},
	} {
		loss, err := DownLoss(ctx, db, DialectSQLite, c.to)
		if err != nil || len(loss) != len(c.want) {
			t.Errorf("DownLoss(%d) = %q, %v; want %d lines", c.to, loss, err, len(c.want))
			continue
		}
		for i, w := range c.want {
			if !strings.HasPrefix(loss[i], w) {
				t.Errorf("DownLoss(%d)[%d] = %q; want it to start %q", c.to, i, loss[i], w)
			}
		}
	}
	if cur, latest, _ := SchemaVersion(ctx, db, DialectSQLite); cur != latest {
		t.Errorf("DownLoss changed the schema to version %d", cur)
	}
}
