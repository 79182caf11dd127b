package account

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/go-sql-driver/mysql"
)

// Driver timeouts applied when the DSN sets none, so that a server that
// vanishes mid-call cannot hang a worker: dial, and each read or write.
const (
	mysqlDialTimeout = 5 * time.Second
	mysqlIOTimeout   = 10 * time.Second
)

// mysqlConfig parses dsn and sets what the store relies on: UTC DATETIMEs
// parsed into time.Time, matched-row counts, and bounded I/O.
func mysqlConfig(dsn string) (*mysql.Config, error) {
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		return nil, fmt.Errorf("account: MySQL DSN: %w", err)
	}
	if cfg.DBName == "" {
		return nil, errors.New("account: MySQL DSN names no database (want user:pass@tcp(host:3306)/bomber)")
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = mysqlDialTimeout
	}
	if cfg.ReadTimeout == 0 {
		cfg.ReadTimeout = mysqlIOTimeout
	}
	if cfg.WriteTimeout == 0 {
		cfg.WriteTimeout = mysqlIOTimeout
	}
	cfg.ParseTime = true
	cfg.Loc = time.UTC
	cfg.ClientFoundRows = true
	cfg.Logger = slogPrinter{}
	return cfg, nil
}

// slogPrinter sends the driver's rare critical messages to slog's default
// logger instead of the driver's own stderr logger.
type slogPrinter struct{}

// Print implements mysql.Logger.
func (slogPrinter) Print(v ...any) { slog.Warn("mysql driver", "msg", fmt.Sprint(v...)) }

// openMySQLDB connects without migrating.
func openMySQLDB(ctx context.Context, dsn string) (*sql.DB, error) {
	cfg, err := mysqlConfig(dsn)
	if err != nil {
		return nil, err
	}
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, fmt.Errorf("account: MySQL connector: %w", err)
	}
	db := sql.OpenDB(conn)
	db.SetMaxOpenConns(16)
	db.SetMaxIdleConns(4)
	// Recycle connections so that a restarted server or a failover is
	// picked up without restarting the daemon.
	db.SetConnMaxLifetime(5 * time.Minute)
	db.SetConnMaxIdleTime(time.Minute)
	pctx, cancel := context.WithTimeout(ctx, DefaultOpTimeout)
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		db.Close()
		return nil, unavailable("connect to MySQL at "+cfg.Addr, err)
	}
	return db, nil
}

// OpenMySQL connects to the database named in dsn (go-sql-driver/mysql
// format, e.g. "bomber:secret@tcp(127.0.0.1:3306)/bomber") and applies
// pending migrations.
func OpenMySQL(ctx context.Context, dsn string, h *Hasher) (Store, error) {
	return openMySQL(ctx, dsn, h, true)
}

// openMySQL is OpenMySQL, or, without migrate, OpenExisting's MySQL store:
// its schema must be current.
func openMySQL(ctx context.Context, dsn string, h *Hasher, migrate bool) (Store, error) {
	db, err := openMySQLDB(ctx, dsn)
	if err != nil {
		return nil, err
	}
	if err := migrateOrCheck(ctx, db, DialectMySQL, migrate); err != nil {
		db.Close()
		return nil, err
	}
	return newMySQLStore(db, h), nil
}

func newMySQLStore(db *sql.DB, h *Hasher) *sqlStore {
	return &sqlStore{db: db, rd: db, h: h, opTimeout: DefaultOpTimeout, d: dialect{
		name:        DialectMySQL,
		isDuplicate: mysqlDuplicate,
		timeArg:     utcMicroArg,
		// InnoDB's plain reads see the snapshot of a transaction's first
		// one; a locking read sees what is committed.
		storedGame:   storedGameSQL + " LOCK IN SHARE MODE",
		forUpdate:    " FOR UPDATE",
		upsertRating: upsertRatingMySQL,
		insertIgnore: "INSERT IGNORE",
	}}
}

// mysqlErDupEntry is MySQL's ER_DUP_ENTRY.
const mysqlErDupEntry = 1062

func mysqlDuplicate(err error) bool {
	var me *mysql.MySQLError
	return errors.As(err, &me) && me.Number == mysqlErDupEntry
}
