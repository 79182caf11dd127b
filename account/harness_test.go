package account

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/bomber-game/bomber/internal/mysqltest"
)

// cheapParams keep tests fast; OWASPParams are checked in their own test.
var cheapParams = Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

func cheapHasher() *Hasher { return NewHasher(cheapParams, 4) }

// opener makes a fresh, empty, migrated store for one test.
type opener func(t *testing.T, h *Hasher) *sqlStore

func openSQLiteForTest(t *testing.T, h *Hasher) *sqlStore {
	t.Helper()
	s, err := OpenSQLite(t.Context(), filepath.Join(t.TempDir(), "db", "bomber.db"), h)
	if err != nil {
		t.Fatalf("OpenSQLite: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s.(*sqlStore)
}

func openMySQLForTest(t *testing.T, h *Hasher) *sqlStore {
	t.Helper()
	s, err := OpenMySQL(t.Context(), newMySQLDatabase(t), h)
	if err != nil {
		t.Fatalf("OpenMySQL: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s.(*sqlStore)
}

// mysqlServerConfig is the server named by BOMBER_MYSQL_DSN, without a database.
func mysqlServerConfig(t testing.TB) *mysql.Config {
	t.Helper()
	dsn := os.Getenv("BOMBER_MYSQL_DSN")
	if dsn == "" {
		dsn = "root@tcp(127.0.0.1:3306)/"
	}
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatalf("BOMBER_MYSQL_DSN: %v", err)
	}
	cfg.DBName = ""
	cfg.Timeout = 3 * time.Second
	return cfg
}

// mysqlServer connects to MariaDB or skips the test (fails it when
// BOMBER_REQUIRE_MYSQL=1, as in CI).
func mysqlServer(t testing.TB) (*sql.DB, *mysql.Config) {
	t.Helper()
	cfg := mysqlServerConfig(t)
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		t.Fatalf("mysql connector: %v", err)
	}
	db := sql.OpenDB(conn)
	t.Cleanup(func() { db.Close() })
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		msg := "MariaDB not reachable at " + cfg.Addr + " (" + err.Error() + "); start one with scripts/mariadb.sh or point BOMBER_MYSQL_DSN at one"
		if os.Getenv("BOMBER_REQUIRE_MYSQL") == "1" {
			t.Fatal(msg + "; BOMBER_REQUIRE_MYSQL=1 requires it")
		}
		t.Skip(msg)
	}
	return db, cfg
}

// newMySQLDatabase creates a uniquely named database, dropped after the
// test, and returns a DSN for it.
func newMySQLDatabase(t testing.TB) string {
	t.Helper()
	db, cfg := mysqlServer(t)
	name := newDatabaseName(t)
	if _, err := db.ExecContext(t.Context(), "CREATE DATABASE `"+name+"`"); err != nil {
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := db.ExecContext(ctx, "DROP DATABASE IF EXISTS `"+name+"`"); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	cfg = cfg.Clone()
	cfg.DBName = name
	return cfg.FormatDSN()
}

// emptyDB opens an empty database of dialect d, without a schema: a file
// in the test's folder, or a MariaDB database dropped after the test. It
// is closed with the test; the store is on it.
func emptyDB(t *testing.T, d Dialect) (*sql.DB, *sqlStore) {
	t.Helper()
	dsn, store := filepath.Join(t.TempDir(), "m.db"), newSQLiteStore
	if d == DialectMySQL {
		dsn, store = newMySQLDatabase(t), newMySQLStore
	}
	db, err := OpenDB(t.Context(), d, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, store(db, cheapHasher())
}

// newDatabaseName names a test database with this run's token, so that
// TestMain's check finds it if a test leaves it behind.
func newDatabaseName(testing.TB) string { return mysqltest.Name("test") }

// TestMain fails the run when a test left one of its databases behind.
func TestMain(m *testing.M) { os.Exit(mysqltest.CheckMain(m)) }
