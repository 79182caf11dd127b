package account

import (
	"database/sql"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"testing"
)

// migrationVersions lists the embedded migration file names of a dialect.
func migrationFileNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := fs.ReadDir(migrationFiles, "migrations/"+dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestDialectsHaveTheSameMigrations(t *testing.T) {
	my, lite := migrationFileNames(t, "mysql"), migrationFileNames(t, "sqlite")
	if len(my) == 0 || !slices.Equal(my, lite) {
		t.Errorf("mysql migrations %v, sqlite migrations %v; want the same versions", my, lite)
	}
}

func TestMigrateSQLite(t *testing.T) {
	db, err := OpenDB(t.Context(), DialectSQLite, filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	testMigrate(t, db, DialectSQLite)
}

func TestMigrateMySQL(t *testing.T) {
	db, err := OpenDB(t.Context(), DialectMySQL, newMySQLDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	testMigrate(t, db, DialectMySQL)
}

func testMigrate(t *testing.T, db *sql.DB, d Dialect) {
	ctx := t.Context()
	latest := int64(len(migrationFileNames(t, string(d))) + len(goMigrations(d)))
	cur, lat, err := SchemaVersion(ctx, db, d)
	if cur != 0 || lat != latest || err != nil {
		t.Errorf("empty database: SchemaVersion = %d, %d, %v; want 0, %d", cur, lat, err, latest)
	}
	if err := CheckSchema(ctx, db, d); !errors.Is(err, ErrSchema) {
		t.Errorf("CheckSchema on an empty database = %v, want ErrSchema", err)
	}
	if cur, _, _ := SchemaVersion(ctx, db, d); cur != 0 {
		t.Error("SchemaVersion/CheckSchema changed the database")
	}
	applied, err := Migrate(ctx, db, d)
	if err != nil || len(applied) != int(latest) || applied[len(applied)-1] != latest {
		t.Fatalf("Migrate = %v, %v; want versions 1..%d", applied, err, latest)
	}
	if cur, lat, err := SchemaVersion(ctx, db, d); cur != latest || lat != latest || err != nil {
		t.Errorf("after Migrate: SchemaVersion = %d, %d, %v", cur, lat, err)
	}
	if err := CheckSchema(ctx, db, d); err != nil {
		t.Errorf("CheckSchema after Migrate = %v", err)
	}
	if again, err := Migrate(ctx, db, d); len(again) != 0 || err != nil {
		t.Errorf("second Migrate = %v, %v; want nothing to do", again, err)
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO "+VersionTable+" (version_id, is_applied) VALUES (?, ?)", latest+1, true); err != nil {
		t.Fatal(err)
	}
	if err := CheckSchema(ctx, db, d); !errors.Is(err, ErrSchema) {
		t.Errorf("CheckSchema on a newer database = %v, want ErrSchema", err)
	}
}

func TestSQLiteCreatesDirsAndPersists(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "bomber store?.db")
	ctx := t.Context()
	s, err := OpenSQLite(ctx, path, cheapHasher())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Add(ctx, "Twofyw", "pw"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = OpenSQLite(ctx, path, cheapHasher())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Verify(ctx, "Twofyw", "pw"); err != nil {
		t.Errorf("after reopening: %v", err)
	}
	if created, err := SeedDemo(ctx, s); created || err != nil {
		t.Errorf("SeedDemo on a reopened store with an account = %v, %v", created, err)
	}
}

func TestOpenMySQLNeedsDatabaseName(t *testing.T) {
	if _, err := OpenMySQL(t.Context(), "root@tcp(127.0.0.1:1)/", cheapHasher()); err == nil {
		t.Error("a DSN without a database was accepted")
	}
}
