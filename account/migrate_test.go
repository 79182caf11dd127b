package account

import (
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

func TestMigrateSQLite(t *testing.T) { testMigrate(t, DialectSQLite) }

func TestMigrateMySQL(t *testing.T) { testMigrate(t, DialectMySQL) }

func testMigrate(t *testing.T, d Dialect) {
	db, _ := emptyDB(t, d)
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
	// a daemon of this build refuses the newer database, and changes nothing
	if done, err := Migrate(ctx, db, d); !errors.Is(err, ErrSchema) || len(done) != 0 {
		t.Errorf("Migrate on a newer database = %v, %v; want ErrSchema", done, err)
	}
	if cur, _, _ := SchemaVersion(ctx, db, d); cur != latest+1 {
		t.Errorf("Migrate changed a newer database: version %d", cur)
	}
	if _, err := db.ExecContext(ctx, "DELETE FROM "+VersionTable+" WHERE version_id = ?", latest+1); err != nil {
		t.Fatal(err)
	}

	// down to nothing and up again: every migration can be undone
	for _, v := range []int64{latest + 1, -2} {
		if done, err := MigrateTo(ctx, db, d, v); !errors.Is(err, ErrSchema) || len(done) != 0 {
			t.Errorf("MigrateTo(%d) = %v, %v; want ErrSchema", v, done, err)
		}
	}
	reversed := slices.Clone(applied)
	slices.Reverse(reversed)
	if undone, err := MigrateTo(ctx, db, d, 0); err != nil || !slices.Equal(undone, reversed) {
		t.Errorf("MigrateTo(0) = %v, %v; want %v", undone, err, reversed)
	}
	if cur, _, err := SchemaVersion(ctx, db, d); cur != 0 || err != nil {
		t.Errorf("after MigrateTo(0): version %d, %v", cur, err)
	}
	if again, err := Migrate(ctx, db, d); err != nil || !slices.Equal(again, applied) {
		t.Errorf("Migrate after undoing everything = %v, %v; want %v", again, err, applied)
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
