package account

import (
	"context"
	"database/sql"
	"errors"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// TestMySQLOutageAndRecovery takes MariaDB away behind a proxy (refused
// connections, then a silent network) and brings it back: calls fail with
// ErrUnavailable within their deadline and work again on the same store.
func TestMySQLOutageAndRecovery(t *testing.T) {
	dsn := newMySQLDatabase(t)
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	proxy := startProxy(t, cfg.Addr)
	cfg.Addr = proxy.addr()
	ctx := t.Context()
	st, err := OpenMySQL(ctx, cfg.FormatDSN(), cheapHasher())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := st.(*sqlStore)
	if err := s.Add(ctx, "Novate", "123"); err != nil {
		t.Fatal(err)
	}
	if err := s.Verify(ctx, "Novate", "123"); err != nil {
		t.Fatal(err)
	}

	// The store's own operation timeout bounds calls whose context has none.
	s.opTimeout = 500 * time.Millisecond
	calls := map[string]func(context.Context) error{
		"Verify": func(ctx context.Context) error { return s.Verify(ctx, "Novate", "123") },
		"Exists": func(ctx context.Context) error { _, err := s.Exists(ctx, "Novate"); return err },
		"Add":    func(ctx context.Context) error { return s.Add(ctx, "Beth", "123") },
		"Count":  func(ctx context.Context) error { _, err := s.Count(ctx); return err },
		"Ping":   func(ctx context.Context) error { return s.Ping(ctx) },
	}
	for _, mode := range []struct {
		name string
		m    proxyMode
	}{{"refused", proxyRefuse}, {"silent", proxyHang}} {
		proxy.setMode(mode.m)
		for name, call := range calls {
			if err := call(context.Background()); !errors.Is(err, ErrUnavailable) {
				t.Errorf("%s database: %s = %v, want ErrUnavailable", mode.name, name, err)
			}
		}
		// A caller's own deadline bounds the call too.
		s.opTimeout = DefaultOpTimeout
		cctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		if err := s.Verify(cctx, "Novate", "123"); !errors.Is(err, ErrUnavailable) {
			t.Errorf("%s database with caller deadline: Verify = %v, want ErrUnavailable", mode.name, err)
		}
		cancel()
		s.opTimeout = 500 * time.Millisecond

		proxy.setMode(proxyPass)
		if err := s.Verify(ctx, "Novate", "123"); err != nil {
			t.Errorf("after %s outage: Verify = %v, want recovery without reopening", mode.name, err)
		}
		if err := s.Verify(ctx, "Novate", "wrong"); !errors.Is(err, ErrWrongPassword) {
			t.Errorf("after %s outage: wrong password = %v", mode.name, err)
		}
	}
}

func TestOpenMySQLClosedPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, err = OpenMySQL(t.Context(), "root@tcp("+addr+")/bomber", cheapHasher())
	if !errors.Is(err, ErrUnavailable) {
		t.Errorf("OpenMySQL on a closed port = %v, want ErrUnavailable", err)
	}
}

// TestSQLiteLockedAndRecovery holds the database's write lock from another
// connection (a backup or a second process): writes fail with
// ErrUnavailable within the deadline, reads keep working, and writes work
// again once the lock is gone.
func TestSQLiteLockedAndRecovery(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bomber.db")
	ctx := t.Context()
	st, err := OpenSQLite(ctx, path, cheapHasher())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Add(ctx, "Albert", "123"); err != nil {
		t.Fatal(err)
	}
	other, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	err = st.Add(wctx, "Beth", "123")
	cancel()
	if !errors.Is(err, ErrUnavailable) {
		t.Errorf("Add while another connection holds the write lock = %v, want ErrUnavailable", err)
	}
	if err := st.Verify(ctx, "Albert", "123"); err != nil {
		t.Errorf("Verify while locked (WAL readers go on) = %v", err)
	}
	if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if err := st.Add(ctx, "Beth", "123"); err != nil {
		t.Errorf("Add after the lock is released = %v", err)
	}
}
