// Package mysqltest gives tests their own MariaDB databases and checks that
// none is left behind: every database it creates carries this process's run
// token, and Leftovers lists the ones still there after the tests ran.
package mysqltest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// run is this test process's token; every database made here contains it,
// so Leftovers sees this process's databases and not those of test runs
// going on at the same time against the same server.
var run = token(4)

func token(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// ServerDSN is the server named by BOMBER_MYSQL_DSN (default
// root@tcp(127.0.0.1:3306)/), without a database.
func ServerDSN() string {
	if dsn := os.Getenv("BOMBER_MYSQL_DSN"); dsn != "" {
		return dsn
	}
	return "root@tcp(127.0.0.1:3306)/"
}

// open connects to the server, nil when it does not answer within 3 s.
func open() (*sql.DB, error) {
	cfg, err := mysql.ParseDSN(ServerDSN())
	if err != nil {
		return nil, fmt.Errorf("BOMBER_MYSQL_DSN: %w", err)
	}
	cfg.DBName = ""
	cfg.Timeout = 3 * time.Second
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, err
	}
	db := sql.OpenDB(conn)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// Server connects to MariaDB, closed after the test, or skips the test
// (fails it when BOMBER_REQUIRE_MYSQL=1, as in CI).
func Server(t testing.TB) *sql.DB {
	t.Helper()
	db, err := open()
	if err != nil {
		if os.Getenv("BOMBER_REQUIRE_MYSQL") == "1" {
			t.Fatalf("MariaDB required but unreachable at %s: %v", ServerDSN(), err)
		}
		t.Skipf("no MariaDB at %s (%v); run scripts/mariadb.sh or set BOMBER_MYSQL_DSN", ServerDSN(), err)
	}
	// Registered before the databases' drops, so it runs after them.
	t.Cleanup(func() { db.Close() })
	return db
}

// NewDatabase creates the database bomber_<kind>_<run>_<random> and drops
// it when the test ends, failing the test if the drop fails. It returns the
// name and a DSN for it.
func NewDatabase(t testing.TB, kind string) (name, dsn string) {
	t.Helper()
	db := Server(t)
	name = "bomber_" + kind + "_" + run + "_" + token(4)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := db.ExecContext(ctx, "CREATE DATABASE `"+name+"`"); err != nil {
		t.Fatalf("create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := db.ExecContext(ctx, "DROP DATABASE IF EXISTS `"+name+"`"); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	cfg, err := mysql.ParseDSN(ServerDSN())
	if err != nil {
		t.Fatal(err)
	}
	cfg.DBName = name
	return name, cfg.FormatDSN()
}

// Name returns a database name carrying this run's token, for tests that
// create a database themselves; Leftovers finds it if it is not dropped.
func Name(kind string) string { return "bomber_" + kind + "_" + run + "_" + token(4) }

// Leftovers lists the databases this process created that still exist. It
// returns nil when no MariaDB answers.
func Leftovers() ([]string, error) {
	db, err := open()
	if err != nil {
		return nil, nil
	}
	defer db.Close()
	rows, err := db.Query("SHOW DATABASES LIKE 'bomber\\_%'")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var left []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		if strings.Contains(n, "_"+run+"_") {
			left = append(left, n)
		}
	}
	return left, rows.Err()
}

// CheckMain runs the tests and then fails the run when they left any of
// their databases behind; use it as TestMain's m.Run.
func CheckMain(m *testing.M) int {
	code := m.Run()
	left, err := Leftovers()
	if err != nil {
		fmt.Fprintf(os.Stderr, "mysqltest: listing leftover databases: %v\n", err)
		return max(code, 1)
	}
	if len(left) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: the tests left %d database(s) behind in MariaDB: %s\n", len(left), strings.Join(left, ", "))
		return max(code, 1)
	}
	return code
}
