// Command bomberd is the Bomber game daemon: the segment protocol on TCP
// (port 20343 by default), accounts in SQLite or MySQL/MariaDB, systemd
// notify, watchdog and socket activation.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"reflect"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/coreos/go-systemd/v22/activation"
	"github.com/coreos/go-systemd/v22/daemon"
	"github.com/spf13/pflag"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/bomber-game/bomber/account"
	"github.com/bomber-game/bomber/capture"
	"github.com/bomber-game/bomber/cmd/internal/config"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/statemachine"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	fs := pflag.NewFlagSet("bomberd", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	config.Flags(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: bomberd [flags]\n\nThe Bomber game daemon. Configuration: config.yaml (see its comments),\nBOMBER_* environment variables, then these flags.\nSignals: SIGTERM/SIGINT stop in order; SIGHUP reloads the configuration.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0
		}
		return 2
	}
	cfg, file, err := config.Load(fs)
	if err != nil {
		fmt.Fprintln(stderr, "bomberd:", err)
		return 2
	}
	level := zap.NewAtomicLevel()
	log, err := newLogger(cfg.Log, level)
	if err != nil {
		fmt.Fprintln(stderr, "bomberd:", err)
		return 2
	}
	defer log.Sync()
	d := &daemonState{fs: fs, level: level, log: log}
	if err := d.start(cfg, file); err != nil {
		log.Error("start failed", zap.Error(err))
		return 1
	}
	return d.wait()
}

func newLogger(c config.Log, level zap.AtomicLevel) (*zap.Logger, error) {
	if err := level.UnmarshalText([]byte(c.Level)); err != nil {
		return nil, fmt.Errorf("log.level: %w", err)
	}
	zc := zap.NewProductionConfig()
	if c.Format == "console" {
		zc = zap.NewDevelopmentConfig()
		zc.EncoderConfig.EncodeLevel = zapcore.CapitalColorLevelEncoder
	}
	zc.Level = level
	zc.DisableStacktrace = true
	return zc.Build()
}

type daemonState struct {
	fs      *pflag.FlagSet
	level   zap.AtomicLevel
	log     *zap.Logger
	cfg     atomic.Pointer[config.Config]
	store   account.Store
	tr      server.Transport
	tls     *tlsListener
	web     *webListener
	admin   *adminServer
	metrics *metrics
	hasher  *account.Hasher
	capture *capture.Capture
	ready   atomic.Bool
	errc    chan error
}

func (d *daemonState) start(cfg *config.Config, file string) error {
	d.cfg.Store(cfg)
	d.errc = make(chan error, 4)
	log := d.log
	log.Info("starting bomberd", zap.String("config", orDefault(file, "(defaults)")), zap.String("transport", cfg.Transport), zap.String("store", cfg.Store.Driver))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	store, h, err := openStore(ctx, cfg, log)
	if err != nil {
		return err
	}
	d.store, d.hasher = store, h
	scfg := server.Config{
		Hub:            cfg.Hub(),
		Check:          checker(store, d.hasher, func() bool { return d.cfg.Load().Protocol.HideUnknownUsers }),
		Record:         recorder(store, log),
		Logger:         log,
		MaxConns:       cfg.Limits.MaxConnections,
		MaxConnsPerIP:  cfg.Limits.MaxConnectionsPerIP,
		MaxOutput:      cfg.Limits.MaxOutputBytes,
		MaxOutputTotal: cfg.Limits.MaxOutputTotal,
		SegmentTimeout: cfg.Limits.SegmentTimeout,
		Workers:        cfg.Limits.AccountWorkers,
		QueueLen:       cfg.Limits.AccountQueue,
		CheckTimeout:   cfg.Limits.AccountTimeout,
		BotWorkers:     cfg.Tables.BotWorkers,
		BotQueue:       cfg.Tables.BotQueue,
		BotBudget:      cfg.Tables.BotBudget,
		OnLoop:         watchdog(log),
	}
	if cfg.Admin.Listen != "" {
		d.metrics = newMetrics()
		scfg.Observer = d.metrics
	}
	if err := d.extend(&scfg, cfg); err != nil {
		return err
	}
	if cfg.Transport == "net" {
		d.tr = server.NewNetTransport(scfg)
	} else {
		r, err := server.NewReactor(scfg)
		if err != nil {
			return err
		}
		d.tr = r
	}
	listeners, err := listen(cfg)
	if err != nil {
		return err
	}
	for _, l := range listeners {
		log.Info("listening", zap.String("addr", l.Addr().String()))
		go func() { d.errc <- d.tr.Serve(l) }()
	}
	if err := d.startExtras(cfg, scfg); err != nil {
		return err
	}
	d.ready.Store(true)
	daemon.SdNotify(false, daemon.SdNotifyReady)
	return nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// listen uses the sockets systemd passes (socket activation) or opens the
// configured address.
func listen(cfg *config.Config) ([]net.Listener, error) {
	ls, err := activation.Listeners()
	if err != nil {
		return nil, fmt.Errorf("socket activation: %w", err)
	}
	var out []net.Listener
	for _, l := range ls {
		if l != nil {
			out = append(out, l)
		}
	}
	if len(out) > 0 {
		return out, nil
	}
	l, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("listen %s: %w", cfg.Listen, err)
	}
	return []net.Listener{l}, nil
}

// watchdog pings systemd's watchdog from the engine loop, so a stuck loop
// gets the daemon restarted.
func watchdog(log *zap.Logger) func() {
	every, err := daemon.SdWatchdogEnabled(false)
	if err != nil || every <= 0 {
		return nil
	}
	log.Info("systemd watchdog enabled", zap.Duration("interval", every))
	var last time.Time
	return func() {
		if now := time.Now(); now.Sub(last) >= every/3 {
			last = now
			daemon.SdNotify(false, daemon.SdNotifyWatchdog)
		}
	}
}

func (d *daemonState) wait() int {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	for {
		select {
		case sig := <-sigs:
			if sig == syscall.SIGHUP {
				d.reload()
				continue
			}
			d.log.Info("stopping", zap.String("signal", sig.String()))
			return d.stop()
		case err := <-d.errc:
			if err != nil && !errors.Is(err, server.ErrClosed) {
				d.log.Error("serving failed", zap.Error(err))
				d.stop()
				return 1
			}
		}
	}
}

// stop: stop accepting, close sessions, record unfinished games as aborted,
// wait for records within shutdown_timeout.
func (d *daemonState) stop() int {
	d.ready.Store(false)
	daemon.SdNotify(false, daemon.SdNotifyStopping)
	cfg := d.cfg.Load()
	ctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	code := 0
	d.stopExtras(ctx)
	if err := d.tr.Shutdown(ctx); err != nil {
		d.log.Error("shutdown", zap.Error(err))
		code = 1
	}
	d.closeCapture()
	if err := d.store.Close(); err != nil {
		d.log.Warn("closing the store", zap.Error(err))
	}
	d.log.Info("stopped")
	return code
}

// reload reads the configuration again (a fresh viper instance), validates
// it and swaps it in; what needs a restart is reported, not applied.
func (d *daemonState) reload() {
	cfg, file, err := config.Load(d.fs)
	if err != nil {
		d.log.Error("reload rejected; keeping the running configuration", zap.Error(err))
		return
	}
	old := d.cfg.Load()
	if err := d.level.UnmarshalText([]byte(cfg.Log.Level)); err != nil {
		d.log.Error("reload: log.level", zap.Error(err))
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = d.tr.Reconfigure(ctx, func(c *server.Config) {
		c.Hub = cfg.Hub()
		c.MaxConns = cfg.Limits.MaxConnections
		c.MaxConnsPerIP = cfg.Limits.MaxConnectionsPerIP
		c.MaxOutput = cfg.Limits.MaxOutputBytes
		c.MaxOutputTotal = cfg.Limits.MaxOutputTotal
		c.SegmentTimeout = cfg.Limits.SegmentTimeout
		c.QueueLen = cfg.Limits.AccountQueue
		c.CheckTimeout = cfg.Limits.AccountTimeout
	})
	if err != nil {
		d.log.Error("reload: applying limits", zap.Error(err))
		return
	}
	d.reloadExtras(cfg)
	var restart []string
	if cfg.Listen != old.Listen {
		restart = append(restart, "listen")
	}
	if cfg.Transport != old.Transport {
		restart = append(restart, "transport")
	}
	if cfg.Store != old.Store {
		restart = append(restart, "store")
	}
	if cfg.Hashing != old.Hashing {
		restart = append(restart, "hashing")
	}
	if cfg.Capture != old.Capture {
		restart = append(restart, "capture")
	}
	if cfg.Admin != old.Admin {
		restart = append(restart, "admin")
	}
	if !reflect.DeepEqual(cfg.Web, old.Web) {
		restart = append(restart, "web")
	}
	if cfg.TLS.Listen != old.TLS.Listen {
		restart = append(restart, "tls.listen")
	}
	if cfg.Limits.AccountWorkers != old.Limits.AccountWorkers {
		restart = append(restart, "limits.account_workers")
	}
	d.cfg.Store(cfg)
	d.log.Info("configuration reloaded", zap.String("config", orDefault(file, "(defaults)")), zap.Strings("changed_but_need_restart", restart))
}

// checker answers the hub's account checks from the store. With hidden
// user names, a password for a name that does not exist is hashed all the
// same, so the answer takes as long as for a real account.
func checker(store account.Store, h *account.Hasher, hide func() bool) server.Checker {
	return func(ctx context.Context, c statemachine.Check) statemachine.Answer {
		var err error
		if c.Kind == statemachine.Lookup {
			var ok bool
			ok, err = store.Exists(ctx, c.User)
			if err == nil && !ok {
				return statemachine.NotFound
			}
		} else {
			err = store.Verify(ctx, c.User, c.Password)
			if errors.Is(err, account.ErrNoUser) && hide() {
				h.Hash(ctx, c.Password)
			}
		}
		switch {
		case err == nil:
			return statemachine.Found
		case errors.Is(err, account.ErrNoUser), errors.Is(err, account.ErrBadName):
			if c.Kind == statemachine.Verify {
				return statemachine.WrongPassword
			}
			return statemachine.NotFound
		case errors.Is(err, account.ErrWrongPassword), errors.Is(err, account.ErrBadPassword):
			return statemachine.WrongPassword
		}
		return statemachine.Unavailable
	}
}

// recorder stores finished games. A record the store refuses as
// impossible (ErrBadGame) is logged in full and not retried, since storing
// it again cannot succeed; any other failure goes back to the server's
// record queue, which retries until the record is stored (a retry of a
// record that was stored after all is recognised by its seed).
func recorder(store account.Store, log *zap.Logger) server.Recorder {
	return func(ctx context.Context, r record.Game, start, end time.Time) error {
		g := wallTimes(r, start)
		id, err := store.RecordGame(ctx, g)
		if errors.Is(err, account.ErrBadGame) {
			log.Error("game record refused; dropped", zap.Error(err), zap.Any("record", g))
			return nil
		}
		if err != nil {
			return err
		}
		names := make([]string, len(g.Seats))
		for i, s := range g.Seats {
			names[i] = s.Name
		}
		log.Info("game recorded", zap.Uint64("id", id), zap.String("game", g.Game), zap.Strings("players", names),
			zap.Any("winners", g.Outcome.Winners), zap.String("reason", g.Reason))
		return nil
	}
}

// wallTimes puts r's times (the engine's clock) on the wall clock: start is
// the wall time of r.Start.
func wallTimes(r record.Game, start time.Time) record.Game {
	shift := start.UnixNano() - r.Start
	r.Start += shift
	r.End += shift
	for i := range r.Moves {
		r.Moves[i].At += shift
	}
	return r
}

// openStore opens the configured store, applying its schema; a fresh, empty
// SQLite store gets the demo accounts when configured (never MySQL).
func openStore(ctx context.Context, cfg *config.Config, log *zap.Logger) (account.Store, *account.Hasher, error) {
	h := account.NewHasher(account.Params{
		Memory: cfg.Hashing.MemoryKiB, Time: cfg.Hashing.Iterations, Threads: cfg.Hashing.Parallelism,
		SaltLen: account.OWASPParams().SaltLen, KeyLen: account.OWASPParams().KeyLen,
	}, cfg.Hashing.MaxConcurrent)
	if cfg.Store.Driver == "mysql" {
		s, err := account.OpenMySQL(ctx, cfg.Store.MySQLDSN, h)
		if err != nil {
			return nil, nil, fmt.Errorf("opening MySQL: %w", err)
		}
		return s, h, nil
	}
	s, err := account.OpenSQLite(ctx, cfg.Store.SQLitePath, h)
	if err != nil {
		return nil, nil, fmt.Errorf("opening SQLite %s: %w", cfg.Store.SQLitePath, err)
	}
	if cfg.Store.DemoAccounts {
		created, err := account.SeedDemo(ctx, s)
		if err != nil {
			s.Close()
			return nil, nil, fmt.Errorf("creating demo accounts: %w", err)
		}
		if created {
			log.Warn("fresh store: created the demo accounts with password 123; delete them or set store.demo_accounts: false before real use",
				zap.Strings("users", account.DemoAccounts()), zap.String("path", cfg.Store.SQLitePath))
		}
	}
	return s, h, nil
}
