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
	"runtime"
	"slices"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/coreos/go-systemd/v22/activation"
	"github.com/coreos/go-systemd/v22/daemon"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/pflag"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/bomber-game/bomber/account"
	"github.com/bomber-game/bomber/account/hashproc"
	"github.com/bomber-game/bomber/capture"
	"github.com/bomber-game/bomber/cluster"
	"github.com/bomber-game/bomber/cmd/internal/cli"
	"github.com/bomber-game/bomber/cmd/internal/config"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/server/journal"
	"github.com/bomber-game/bomber/statemachine"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && args[0] == hashWorkerArg {
		return hashWorker(os.Stdin, stdout, stderr)
	}
	fs := pflag.NewFlagSet("bomberd", pflag.ContinueOnError)
	config.Flags(fs)
	fs.String(replayFlag, "", "tests only: serve the world of this capture to bomber-replay's clients over loopback (docs/testing.md)")
	usage := func(w io.Writer) {
		fmt.Fprintf(w, "Usage: bomberd [flags]\n\nThe Bomber game daemon. Configuration: config.yaml (see its comments),\nBOMBER_* environment variables, then these flags.\nSignals: SIGTERM/SIGINT stop in order; SIGHUP reloads the configuration.\n\nFlags:\n")
		cli.Defaults(fs, w)
	}
	if done, code := cli.Parse(fs, args, stdout, stderr, usage); done {
		return code
	}
	if fs.NArg() > 0 {
		return cli.Fail(stderr, "bomberd", fmt.Sprintf("unexpected argument %q", fs.Arg(0)), usage)
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
	d.replay, _ = fs.GetString(replayFlag)
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
	fs    *pflag.FlagSet
	level zap.AtomicLevel
	log   *zap.Logger
	cfg   atomic.Pointer[config.Config]
	store account.Store
	tr    server.Transport
	tls   *tlsListener
	web   *webListener
	// webConns bounds the web listener's connections: web.max_connections
	// as fitted to the open-file limit
	webConns int
	admin    *adminServer
	metrics  *metrics
	hasher   *account.Hasher
	hashes   *hashproc.Client // nil when hashing.in_process
	capture  *capture.Capture
	node     *cluster.Node    // nil when the daemon serves a world of its own
	journal  *journal.Journal // the world of its own on disk; nil when in memory or in a cluster
	replay   string           // the capture whose world this daemon serves (--replay-inputs); "" for none
	ready    atomic.Bool
	errc     chan error
	sigs     chan os.Signal
}

func (d *daemonState) start(cfg *config.Config, file string) error {
	d.cfg.Store(cfg)
	d.errc = make(chan error, 4)
	// signals are caught before anything listens: a SIGHUP that arrives as
	// soon as clients can connect must reload, not kill, the daemon
	d.sigs = make(chan os.Signal, 4)
	signal.Notify(d.sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	log := d.log
	log.Info("starting bomberd", zap.String("version", cli.Version()), zap.String("config", orDefault(file, "(defaults)")), zap.String("transport", cfg.Transport), zap.String("store", cfg.Store.Driver))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// The listeners are opened first: whether demo accounts may exist
	// depends on where the daemon can be reached.
	listeners, err := listen(cfg)
	if err != nil {
		return err
	}
	exposed := publicAddrs(listeners, cfg.TLS.Listen, cfg.Web.Listen)
	slots := cfg.Hashing.MaxConcurrent
	if cfg.Transport != "net" {
		var procs int
		procs, slots = loopShares(runtime.GOMAXPROCS(0), cfg.Hashing.MaxConcurrent)
		if procs != runtime.GOMAXPROCS(0) {
			runtime.GOMAXPROCS(procs) // only then: it stops the runtime following the CPU limit
		}
		if slots < cfg.Hashing.MaxConcurrent {
			log.Info("hashing fewer passwords at once than hashing.max_concurrent: the engine loop keeps a P of its own",
				zap.Int("max_concurrent", cfg.Hashing.MaxConcurrent), zap.Int("at_once", slots), zap.Int("gomaxprocs", procs))
		}
	}
	if !cfg.Hashing.InProcess {
		d.hashes = hashChild(log)
	}
	store, h, err := openStore(ctx, cfg, log, exposed, slots, d.hashes)
	if err != nil {
		closeAll(listeners)
		return err
	}
	d.store, d.hasher = store, h
	check := checker(store, d.hasher, func() bool { return d.cfg.Load().Protocol.HideUnknownUsers })
	if len(exposed) > 0 && cfg.Store.Driver == "sqlite" && cfg.Store.DemoAccounts {
		check = refuseDemoPassword(check)
		warnDemoAccounts(ctx, store, log, exposed)
	}
	scfg := server.Config{
		Hub:            cfg.Hub(),
		Check:          check,
		Query:          querier(store),
		Record:         recorder(store, log, nil),
		RecordBatch:    account.MaxBatch,
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
	webConns, err := fitConnections(&scfg, cfg, log)
	if err != nil {
		closeAll(listeners)
		return err
	}
	d.webConns = webConns
	if cfg.Admin.Listen != "" {
		d.metrics = newMetrics()
		scfg.Observer = d.metrics
		scfg.Record = recorder(store, log, d.metrics.rated)
	}
	if err := d.extend(&scfg, cfg); err != nil {
		closeAll(listeners)
		return err
	}
	if d.replay != "" {
		l, err := replayLog(d.replay, exposed, cfg.Cluster.NATSURL != "", log)
		if err != nil {
			closeAll(listeners)
			return err
		}
		scfg.Log, scfg.Check = l, noStore
	} else if cfg.Cluster.NATSURL != "" {
		if err := d.join(ctx, cfg, &scfg); err != nil {
			closeAll(listeners)
			return err
		}
	} else if cfg.Journal.Dir != "" {
		j, err := journal.Open(cfg.Journal.Dir, journal.Options{SnapshotEvery: uint64(max(cfg.Journal.SnapshotEvery, 0)), Logger: log})
		if err != nil {
			closeAll(listeners)
			return fmt.Errorf("journal.dir: %w", err)
		}
		d.journal = j
		scfg.Log = j
	}
	if cfg.Transport == "net" {
		d.tr = server.NewNetTransport(scfg)
	} else {
		// the daemon's one reactor, with GOMAXPROCS at least 2 (loopShares)
		scfg.KeepP = true
		r, err := server.NewReactor(scfg)
		if err != nil {
			closeAll(listeners)
			return err
		}
		d.tr = r
	}
	if d.journal != nil {
		if err := d.journal.Err(); err != nil {
			// the world on disk could not be read back: serving an empty
			// one instead would lose every game in it
			closeAll(listeners)
			return fmt.Errorf("journal.dir: the world on disk cannot be restored (delete the directory to start an empty world): %w", err)
		}
	}
	for _, l := range listeners {
		log.Info("listening", zap.String("addr", l.Addr().String()))
		go func() { d.errc <- d.tr.Serve(l) }()
	}
	if err := d.startExtras(cfg); err != nil {
		if d.node != nil {
			d.tr.Shutdown(ctx) // out of the world before the daemon exits
			d.node.Close()
		}
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
	for {
		select {
		case sig := <-d.sigs:
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
	if d.node != nil {
		d.node.Close()
	}
	if d.journal != nil {
		if err := d.journal.Close(); err != nil {
			d.log.Error("journal", zap.Error(err))
			code = 1
		}
	}
	d.closeCapture()
	if err := d.store.Close(); err != nil {
		d.log.Warn("closing the store", zap.Error(err))
	}
	if d.hashes != nil {
		d.hashes.Close()
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
	fit := server.Config{MaxConns: cfg.Limits.MaxConnections}
	if _, err := fitConnections(&fit, cfg, d.log); err != nil {
		d.log.Error("reload rejected; keeping the running configuration", zap.Error(err))
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = d.tr.Reconfigure(ctx, func(c *server.Config) {
		c.Hub = cfg.Hub() // in a cluster, for the whole world (through the log)
		c.MaxConns = fit.MaxConns
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
	if cfg.Cluster != old.Cluster {
		restart = append(restart, "cluster")
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
		if c.Kind == statemachine.Register {
			return register(ctx, store, c)
		}
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

// register makes the account a sign-up asked for (the shell has let it
// through registration and the sign-up limits already).
func register(ctx context.Context, store account.Store, c statemachine.Check) statemachine.Answer {
	switch err := store.Register(ctx, c.User, c.Password); {
	case err == nil:
		return statemachine.Registered
	case errors.Is(err, account.ErrExists):
		return statemachine.NameTaken
	case errors.Is(err, account.ErrBadName):
		return statemachine.BadSignupName
	case errors.Is(err, account.ErrBadPassword):
		return statemachine.BadSignupPass
	}
	return statemachine.Unavailable
}

// recorder stores finished games, as many as the server hands it in one
// transaction. A record the store refuses as impossible (ErrBadGame) is
// logged in full and not retried, since storing it again cannot succeed:
// the others of its batch are then stored one by one. Any other failure
// goes back to the server's record queue, which retries from the first
// record not stored until it is (a retry of a record that was stored
// after all is recognised by its seed).
//
// rated (nil for none) counts the rated games stored with a result, by
// game: each changed the ratings of its players with accounts.
func recorder(store account.Store, log *zap.Logger, rated *prometheus.CounterVec) server.Recorder {
	countRated := func(g *record.Game) {
		if rated != nil && g.Rated() && g.Reason.HasResult() {
			rated.WithLabelValues(g.Game).Inc()
		}
	}
	return func(ctx context.Context, fs []server.FinishedGame) (int, error) {
		gs := make([]record.Game, len(fs))
		for i, f := range fs {
			gs[i] = wallTimes(f.Record, f.Start)
		}
		ids, err := store.RecordGames(ctx, gs)
		if errors.Is(err, account.ErrBadGame) {
			for i, g := range gs {
				id, err := store.RecordGame(ctx, g)
				if errors.Is(err, account.ErrBadGame) {
					log.Error("game record refused; dropped", zap.Error(err), zap.Any("record", g))
					continue
				}
				if err != nil {
					return i, err
				}
				logRecorded(log, id, g)
				countRated(&g)
			}
			return len(gs), nil
		}
		if err != nil {
			return 0, err
		}
		for i, g := range gs {
			logRecorded(log, ids[i], g)
			countRated(&g)
		}
		return len(gs), nil
	}
}

// logRecorded logs a game stored as id.
func logRecorded(log *zap.Logger, id uint64, g record.Game) {
	names := make([]string, len(g.Seats))
	for i, s := range g.Seats {
		names[i] = s.Name
	}
	log.Info("game recorded", zap.Uint64("id", id), zap.String("game", g.Game), zap.Strings("players", names),
		zap.Any("winners", g.Outcome.Winners), zap.Stringer("reason", g.Reason))
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

// loopShares is the reactor daemon's GOMAXPROCS and how many passwords it
// hashes at once, given the Ps the runtime chose (the CPUs the process may
// use) and hashing.max_concurrent. The loop must never wait for a P behind
// password hashing (argon2id runs for milliseconds without yielding; the
// scheduler preempts it after 10 ms): at most procs-1 hashes run at once,
// so one P is always free for the loop, and procs is at least 2. Beyond
// that it adds no Ps: a P more than the CPUs buys no hashing (the account
// workers never run on the loop's CPU while there is another, and on one
// CPU two hashes take as long as one after the other), only more of the
// runtime's threads competing with the loop for its CPU at its priority.
// With 4 Ps on one CPU (the rule before: max_concurrent+2) the collector
// runs a dedicated mark worker at the loop's priority whenever it marks;
// with 2 Ps, in a storm of 1,000 logins among 10,000 users, the loop's
// iterations over 1 ms fell from a median of 49 to 16 (six interleaved
// pairs, docs/performance.md). Two long hashes at once would leave the
// loop without a P, on two CPUs while its own CPU sat idle (the workers'
// threads never run there). An environment GOMAXPROCS of 2 or more is kept
// as it is.
func loopShares(cpus, maxConcurrent int) (procs, hashSlots int) {
	procs = max(cpus, 2)
	return procs, max(min(maxConcurrent, procs-1), 1)
}

// openStore opens the configured store, applying its schema; a fresh, empty
// SQLite store gets the demo accounts when configured (never MySQL), and
// only while every game listener is on loopback (exposed lists the others).
func openStore(ctx context.Context, cfg *config.Config, log *zap.Logger, exposed []string, hashSlots int, child *hashproc.Client) (account.Store, *account.Hasher, error) {
	var d account.Deriver = account.LocalDeriver{}
	if child != nil {
		d = child
	}
	h := account.NewHasherWith(account.Params{
		Memory: cfg.Hashing.MemoryKiB, Time: cfg.Hashing.Iterations, Threads: cfg.Hashing.Parallelism,
		SaltLen: account.OWASPParams().SaltLen, KeyLen: account.OWASPParams().KeyLen,
	}, hashSlots, d)
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
	if cfg.Store.DemoAccounts && len(exposed) > 0 {
		if n, err := s.Count(ctx); err == nil && n == 0 {
			log.Warn("fresh store: no demo accounts, since a listener is not on loopback; add accounts with bomberctl user add, or listen on 127.0.0.1 to play with the demo accounts",
				zap.Strings("public", exposed), zap.String("path", cfg.Store.SQLitePath))
		}
	} else if cfg.Store.DemoAccounts {
		created, err := account.SeedDemo(ctx, s)
		if err != nil {
			s.Close()
			return nil, nil, fmt.Errorf("creating demo accounts: %w", err)
		}
		if created {
			log.Warn("fresh store: created the demo accounts with password 123 (only reachable on loopback); to open the daemon up, delete them (bomberctl user delete NAME) or set store.demo_accounts: false, then set listen (e.g. --listen :20343)",
				zap.Strings("users", account.DemoAccounts()), zap.String("path", cfg.Store.SQLitePath))
		}
	}
	return s, h, nil
}

// publicAddrs lists the game listeners (and the TLS address, if any) that
// are not on loopback: anyone on the network can reach those.
func publicAddrs(ls []net.Listener, others ...string) []string {
	var out []string
	for _, l := range ls {
		if a, ok := l.Addr().(*net.TCPAddr); ok && !a.IP.IsLoopback() {
			out = append(out, a.String())
		}
	}
	// the TLS listener and the web listener (the browser's way in) count too
	for _, addr := range others {
		if addr != "" && !loopbackAddr(addr) {
			out = append(out, addr)
		}
	}
	return out
}

// loopbackAddr reports whether host:port names a loopback address; an empty
// host (every interface) does not.
func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func closeAll(ls []net.Listener) {
	for _, l := range ls {
		l.Close()
	}
}

// isDemoLogin reports whether a check is a demo account with the demo
// password.
func isDemoLogin(c statemachine.Check) bool {
	return c.Kind == statemachine.Verify && c.Password == account.DemoPassword && slices.Contains(account.DemoAccounts(), c.User)
}

// refuseDemoPassword wraps a checker so that a demo account with the demo
// password cannot log in: the daemon is reachable from the network, and
// everyone knows that password. A demo account whose password was changed
// logs in as any other.
func refuseDemoPassword(next server.Checker) server.Checker {
	return func(ctx context.Context, c statemachine.Check) statemachine.Answer {
		if isDemoLogin(c) {
			return statemachine.WrongPassword
		}
		return next(ctx, c)
	}
}

// warnDemoAccounts logs the demo accounts a store still holds when the
// daemon is reachable from the network; their password 123 is refused.
func warnDemoAccounts(ctx context.Context, s account.Store, log *zap.Logger, exposed []string) {
	var present []string
	for _, name := range account.DemoAccounts() {
		if ok, err := s.Exists(ctx, name); err == nil && ok {
			present = append(present, name)
		}
	}
	if len(present) > 0 {
		log.Warn("demo accounts exist and a listener is not on loopback: their password 123 is refused; delete them (bomberctl user delete NAME) or give them new passwords",
			zap.Strings("users", present), zap.Strings("public", exposed))
	}
}

// join makes this daemon a node of the cluster cfg.Cluster names: the
// engine then feeds its hub from the world's shared log.
func (d *daemonState) join(ctx context.Context, cfg *config.Config, scfg *server.Config) error {
	c := cfg.Cluster
	node, err := cluster.Join(ctx, cluster.Config{URL: c.NATSURL, Creds: c.Creds, TLSCA: c.TLSCA, TLSCert: c.TLSCert, TLSKey: c.TLSKey,
		Node: c.Node, World: c.World, Heartbeat: c.Heartbeat, NodeTTL: c.NodeTTL, Replicas: c.Replicas, SnapshotEvery: c.SnapshotEvery, Logger: d.log})
	if err != nil {
		return fmt.Errorf("cluster.nats_url: %w", err)
	}
	d.node = node
	scfg.Log = node
	go func() {
		// a node that can no longer follow the log stops; systemd starts it
		// again, from the latest snapshot
		if err, ok := <-node.Errors(); ok {
			d.errc <- fmt.Errorf("cluster: %w", err)
		}
	}()
	if d.metrics != nil {
		d.metrics.cluster(node)
	}
	d.log.Info("joined the cluster", zap.String("node", node.Name()), zap.String("world", c.World), zap.Uint32("incarnation", node.Incarnation()))
	return nil
}
