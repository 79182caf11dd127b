// Package config loads bomberd's configuration: config.yaml, overridden by
// BOMBER_* environment variables and command-line flags (viper). Every key
// is documented in config.yaml and docs/operations.md.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// Config is the whole configuration.
type Config struct {
	Listen          string        `mapstructure:"listen"`
	Transport       string        `mapstructure:"transport"`
	ShutdownTimeout time.Duration `mapstructure:"shutdown_timeout"`
	Store           Store         `mapstructure:"store"`
	Hashing         Hashing       `mapstructure:"hashing"`
	Protocol        Protocol      `mapstructure:"protocol"`
	Limits          Limits        `mapstructure:"limits"`
	Tables          Tables        `mapstructure:"tables"`
	Pairing         Pairing       `mapstructure:"pairing"`
	Log             Log           `mapstructure:"log"`
	Capture         Capture       `mapstructure:"capture"`
	Admin           Admin         `mapstructure:"admin"`
	TLS             TLS           `mapstructure:"tls"`
	Web             Web           `mapstructure:"web"`
	Cluster         Cluster       `mapstructure:"cluster"`
	Journal         Journal       `mapstructure:"journal"`
	Accounts        Accounts      `mapstructure:"accounts"`
}

// Accounts is who may make accounts, and how fast.
type Accounts struct {
	// Registration is open (anyone may sign up from a client) or closed
	// (only operators make accounts, with bomberctl user add).
	Registration      string `mapstructure:"registration"`
	SignUpsPerAddress int    `mapstructure:"signups_per_address"` // an hour, from one address
	SignUpsPerHour    int    `mapstructure:"signups_per_hour"`    // from everyone together
}

// Store selects the account store.
type Store struct {
	Driver       string `mapstructure:"driver"`
	SQLitePath   string `mapstructure:"sqlite_path"`
	MySQLDSN     string `mapstructure:"mysql_dsn"`
	DemoAccounts bool   `mapstructure:"demo_accounts"`
}

// Hashing sets argon2id's cost.
type Hashing struct {
	MemoryKiB     uint32 `mapstructure:"memory_kib"`
	Iterations    uint32 `mapstructure:"iterations"`
	Parallelism   uint8  `mapstructure:"parallelism"`
	MaxConcurrent int    `mapstructure:"max_concurrent"`
	// InProcess hashes in the daemon's own process instead of a child
	// (`bomberd hash-worker`) whose heap takes each hash's scratch memory.
	InProcess bool `mapstructure:"in_process"`
}

// Protocol is the state machine's behaviour.
type Protocol struct {
	Dialect          string        `mapstructure:"dialect"`
	FirstGuess       string        `mapstructure:"first_guess"`
	KickGrace        time.Duration `mapstructure:"kick_grace"`
	HideUnknownUsers bool          `mapstructure:"hide_unknown_users"`
}

// Limits bound what one client can make the daemon do.
type Limits struct {
	MaxConnections      int           `mapstructure:"max_connections"`
	MaxConnectionsPerIP int           `mapstructure:"max_connections_per_ip"`
	MaxOutputBytes      int           `mapstructure:"max_output_bytes"`
	MaxOutputTotal      int           `mapstructure:"max_output_total"`
	SegmentTimeout      time.Duration `mapstructure:"segment_timeout"`
	LoginTimeout        time.Duration `mapstructure:"login_timeout"`
	AccountWorkers      int           `mapstructure:"account_workers"`
	AccountQueue        int           `mapstructure:"account_queue"`
	AccountTimeout      time.Duration `mapstructure:"account_timeout"`
	LoginFailures       int           `mapstructure:"login_failures"`
	LoginWindow         time.Duration `mapstructure:"login_window"`
	LoginLockout        time.Duration `mapstructure:"login_lockout"`
	SegmentRate         int           `mapstructure:"segment_rate"`
	SegmentBurst        int           `mapstructure:"segment_burst"`
}

// Tables bounds the extended protocol's tables (docs/protocol.md).
type Tables struct {
	MaxTables        int           `mapstructure:"max_tables"`
	MaxTablesPerUser int           `mapstructure:"max_tables_per_user"`
	MaxWatchers      int           `mapstructure:"max_watchers"`
	ChatRate         int           `mapstructure:"chat_rate"`
	ChatBurst        int           `mapstructure:"chat_burst"`
	OfferTTL         time.Duration `mapstructure:"offer_ttl"`
	ResumeGrace      time.Duration `mapstructure:"resume_grace"`
	ResumeGraceBye   time.Duration `mapstructure:"resume_grace_bye"`
	BotWorkers       int           `mapstructure:"bot_workers"`
	BotQueue         int           `mapstructure:"bot_queue"`
	BotBudget        time.Duration `mapstructure:"bot_budget"`
}

// Pairing is quick pairing ("Play <game> now"): its rounds, the rating
// ranges and the computer offer (statemachine.Config's Pair* fields).
type Pairing struct {
	Round         time.Duration `mapstructure:"round"`
	Range         int           `mapstructure:"range"`
	Widen         int           `mapstructure:"widen"`
	RangeCap      int           `mapstructure:"range_cap"`
	ComputerAfter time.Duration `mapstructure:"computer_after"`
}

// Log sets logging.
type Log struct {
	Level  string `mapstructure:"level"`
	Format string `mapstructure:"format"`
}

// Capture records traffic as transcripts.
type Capture struct {
	Enabled       bool   `mapstructure:"enabled"`
	Dir           string `mapstructure:"dir"`
	ShowPasswords bool   `mapstructure:"show_passwords"`
	MaxFileBytes  int64  `mapstructure:"max_file_bytes"`
	MaxFiles      int    `mapstructure:"max_files"`
}

// Admin is the operators' HTTP listener.
type Admin struct {
	Listen string `mapstructure:"listen"`
	// Token authorises requests that change state (POST /kick); meant for
	// the environment (BOMBER_ADMIN_TOKEN). Empty: TokenFile's contents.
	Token string `mapstructure:"token"`
	// TokenFile holds the token; bomberd generates it (mode 0600) on its
	// first start, and bomberctl reads it.
	TokenFile string `mapstructure:"token_file"`
	// MetricsToken, when set, also authorises GET /metrics (and nothing
	// else): for a scraper that should not hold the admin token.
	MetricsToken string `mapstructure:"metrics_token"`
}

// ReadAdminToken reads the admin token from c.TokenFile.
func ReadAdminToken(c Admin) (string, error) {
	b, err := os.ReadFile(c.TokenFile)
	if err != nil {
		return "", fmt.Errorf("admin token: %w", err)
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", fmt.Errorf("admin token: %s is empty", c.TokenFile)
	}
	return tok, nil
}

// TLS is an optional second listener speaking the protocol inside TLS.
type TLS struct {
	Listen   string `mapstructure:"listen"`
	CertFile string `mapstructure:"cert_file"`
	KeyFile  string `mapstructure:"key_file"`
}

// Web is the HTTP listener of the WebSocket gateway and the web client.
type Web struct {
	Listen         string   `mapstructure:"listen"`
	TLS            bool     `mapstructure:"tls"`
	AllowedOrigins []string `mapstructure:"allowed_origins"`
	MaxMessage     int      `mapstructure:"max_message"`
	// Hosts are the names (patterns) the listener answers to in the Host
	// header besides IP addresses, localhost and the host of Listen.
	Hosts []string `mapstructure:"hosts"`
	// MaxConnections bounds the listener's connections at once (HTTP and
	// WebSocket); more wait in the kernel's backlog. MaxConnectionsPerIP
	// bounds them per source address (0: no limit); more are closed.
	MaxConnections      int `mapstructure:"max_connections"`
	MaxConnectionsPerIP int `mapstructure:"max_connections_per_ip"`
}

// Journal keeps the world of a daemon that is not in a cluster on disk, so
// that running games survive a restart (package server/journal); an empty
// Dir keeps it in memory only. A cluster's world is in NATS instead.
type Journal struct {
	Dir string `mapstructure:"dir"`
	// SnapshotEvery: log entries between snapshots of the world (0: the
	// journal's default).
	SnapshotEvery int `mapstructure:"snapshot_every"`
}

// Cluster joins this daemon to other nodes serving one world over NATS
// JetStream (package cluster); an empty NATSURL runs it alone.
type Cluster struct {
	NATSURL   string        `mapstructure:"nats_url"`
	Node      string        `mapstructure:"node"`
	World     string        `mapstructure:"world"`
	Creds     string        `mapstructure:"creds"`
	TLSCA     string        `mapstructure:"tls_ca"`
	TLSCert   string        `mapstructure:"tls_cert"`
	TLSKey    string        `mapstructure:"tls_key"`
	Heartbeat time.Duration `mapstructure:"heartbeat"`
	NodeTTL   time.Duration `mapstructure:"node_ttl"`
	Replicas  int           `mapstructure:"replicas"`
	// SnapshotEvery: log entries between snapshots of the world (negative: never).
	SnapshotEvery int `mapstructure:"snapshot_every"`
}

// setDefaults gives every key its default: the daemon runs with no config
// file at all.
func setDefaults(v *viper.Viper) {
	v.SetDefault("listen", ":20343")
	v.SetDefault("transport", "reactor")
	v.SetDefault("shutdown_timeout", 10*time.Second)
	v.SetDefault("store.driver", "sqlite")
	v.SetDefault("store.sqlite_path", "var/bomber.db")
	v.SetDefault("journal.dir", "var/journal")
	v.SetDefault("journal.snapshot_every", 0)
	v.SetDefault("store.mysql_dsn", "")
	v.SetDefault("store.demo_accounts", true)
	v.SetDefault("hashing.memory_kib", 19456)
	v.SetDefault("hashing.iterations", 2)
	v.SetDefault("hashing.parallelism", 1)
	v.SetDefault("hashing.max_concurrent", 2)
	v.SetDefault("hashing.in_process", false)
	v.SetDefault("protocol.dialect", "reference")
	v.SetDefault("protocol.first_guess", "inviter")
	v.SetDefault("protocol.kick_grace", 5*time.Minute)
	v.SetDefault("protocol.hide_unknown_users", false)
	v.SetDefault("accounts.registration", "closed")
	v.SetDefault("accounts.signups_per_address", 10) // statemachine.DefaultSignUpsPerAddress
	v.SetDefault("accounts.signups_per_hour", 300)   // statemachine.DefaultSignUpsPerHour
	v.SetDefault("limits.max_connections", 10000)
	v.SetDefault("limits.max_connections_per_ip", 64)
	v.SetDefault("limits.max_output_bytes", 256<<10)
	v.SetDefault("limits.max_output_total", 128<<20)
	v.SetDefault("limits.segment_timeout", 30*time.Second)
	v.SetDefault("limits.login_timeout", 2*time.Minute)
	v.SetDefault("limits.account_workers", 4)
	v.SetDefault("limits.account_queue", 1024)
	v.SetDefault("limits.account_timeout", 5*time.Second)
	v.SetDefault("limits.login_failures", 5)
	v.SetDefault("limits.login_window", time.Minute)
	v.SetDefault("limits.login_lockout", 5*time.Minute)
	v.SetDefault("limits.segment_rate", 50)
	v.SetDefault("limits.segment_burst", 200)
	v.SetDefault("tables.max_tables", statemachine.DefaultMaxTables)
	v.SetDefault("tables.max_tables_per_user", statemachine.DefaultMaxTablesPerUser)
	v.SetDefault("tables.max_watchers", statemachine.DefaultMaxWatchers)
	v.SetDefault("tables.chat_rate", statemachine.DefaultChatRate)
	v.SetDefault("tables.chat_burst", statemachine.DefaultChatBurst)
	v.SetDefault("tables.offer_ttl", statemachine.DefaultOfferTTL)
	v.SetDefault("tables.resume_grace", statemachine.DefaultResumeGrace)
	v.SetDefault("tables.resume_grace_bye", statemachine.DefaultResumeGraceBye)
	v.SetDefault("tables.bot_workers", 2)
	v.SetDefault("tables.bot_queue", 1024)
	v.SetDefault("tables.bot_budget", 200*time.Millisecond)
	v.SetDefault("pairing.round", statemachine.DefaultPairRound)
	v.SetDefault("pairing.range", statemachine.DefaultPairRange)
	v.SetDefault("pairing.widen", statemachine.DefaultPairWiden)
	v.SetDefault("pairing.range_cap", statemachine.DefaultPairRangeCap)
	v.SetDefault("pairing.computer_after", statemachine.DefaultPairComputerAfter)
	v.SetDefault("log.level", "info")
	v.SetDefault("log.format", "json")
	v.SetDefault("capture.enabled", false)
	v.SetDefault("capture.dir", "var/capture")
	v.SetDefault("capture.show_passwords", false)
	v.SetDefault("capture.max_file_bytes", 16<<20)
	v.SetDefault("capture.max_files", 20)
	v.SetDefault("admin.listen", "127.0.0.1:20344")
	v.SetDefault("admin.token", "")
	v.SetDefault("admin.token_file", "var/admin.token")
	v.SetDefault("admin.metrics_token", "")
	v.SetDefault("tls.listen", "")
	v.SetDefault("tls.cert_file", "")
	v.SetDefault("tls.key_file", "")
	v.SetDefault("web.listen", "127.0.0.1:20380")
	v.SetDefault("web.tls", false)
	v.SetDefault("web.allowed_origins", []string{})
	v.SetDefault("web.max_message", 4096)
	v.SetDefault("web.hosts", []string{})
	v.SetDefault("web.max_connections", 4096)
	v.SetDefault("web.max_connections_per_ip", 64)
	v.SetDefault("cluster.nats_url", "")
	v.SetDefault("cluster.node", "")
	v.SetDefault("cluster.world", "bomber")
	v.SetDefault("cluster.creds", "")
	v.SetDefault("cluster.tls_ca", "")
	v.SetDefault("cluster.tls_cert", "")
	v.SetDefault("cluster.tls_key", "")
	v.SetDefault("cluster.heartbeat", time.Second)
	v.SetDefault("cluster.node_ttl", 6*time.Second)
	v.SetDefault("cluster.replicas", 1)
	v.SetDefault("cluster.snapshot_every", 100000)
}

// Flags registers the command-line flags that override keys.
func Flags(fs *pflag.FlagSet) {
	fs.String("config", "", "configuration file (default: ./config.yaml when present)")
	fs.String("listen", "", "address for the segment protocol (listen)")
	fs.String("transport", "", "reactor or net (transport)")
	fs.String("store-driver", "", "sqlite or mysql (store.driver)")
	fs.String("sqlite-path", "", "SQLite file (store.sqlite_path)")
	fs.String("mysql-dsn", "", "MySQL/MariaDB DSN (store.mysql_dsn)")
	fs.String("log-level", "", "debug, info, warn or error (log.level)")
	fs.String("log-format", "", "json or console (log.format)")
	fs.String("admin-listen", "", "operators' HTTP address, empty to disable (admin.listen)")
	fs.String("web-listen", "", "web client and WebSocket address, empty to disable (web.listen)")
}

// StoreFlags registers the flags a store and admin client needs (bomberctl):
// --config and the store and admin-listener keys, none of the daemon's own.
func StoreFlags(fs *pflag.FlagSet) {
	fs.String("config", "", "configuration file (default: ./config.yaml when present)")
	fs.String("store-driver", "", "sqlite or mysql (store.driver)")
	fs.String("sqlite-path", "", "SQLite file (store.sqlite_path)")
	fs.String("mysql-dsn", "", "MySQL/MariaDB DSN (store.mysql_dsn)")
	fs.String("admin-listen", "", "bomberd's operators' HTTP address (admin.listen)")
}

var flagKeys = map[string]string{
	"listen": "listen", "transport": "transport", "store-driver": "store.driver",
	"sqlite-path": "store.sqlite_path", "mysql-dsn": "store.mysql_dsn", "log-level": "log.level",
	"log-format": "log.format", "admin-listen": "admin.listen", "web-listen": "web.listen",
}

// Load reads the configuration: defaults, then the file (the --config flag,
// or ./config.yaml if present), then BOMBER_* environment variables (key
// path in capitals with '_' for '.', e.g. BOMBER_STORE_DRIVER), then flags.
// Relative paths in the file are relative to its directory (resolvePaths).
// Each call uses a fresh viper instance, so a reload sees only the new state.
func Load(fs *pflag.FlagSet) (*Config, string, error) {
	v := viper.New()
	setDefaults(v)
	file := ""
	if fs != nil {
		file, _ = fs.GetString("config")
	}
	if file != "" {
		v.SetConfigFile(file)
	} else {
		v.SetConfigName("config")
		v.SetConfigType("yaml")
		v.AddConfigPath(".")
	}
	if err := v.ReadInConfig(); err != nil {
		var nf viper.ConfigFileNotFoundError
		if file != "" || !errors.As(err, &nf) {
			return nil, "", fmt.Errorf("reading config: %w", err)
		}
	}
	if err := resolvePaths(v); err != nil {
		return nil, "", err
	}
	v.SetEnvPrefix("BOMBER")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()
	// BOMBER_WEB_LISTEN= (empty) disables the web listener as web.listen: ""
	// does in the file; viper would otherwise read an empty variable as unset
	v.AllowEmptyEnv(true)
	if fs != nil {
		for flag, key := range flagKeys {
			if f := fs.Lookup(flag); f != nil && f.Changed {
				if err := v.BindPFlag(key, f); err != nil {
					return nil, "", err
				}
			}
		}
	}
	where := "config"
	if used := v.ConfigFileUsed(); used != "" {
		where = "config " + used
	}
	if unknown := unknownKeys(v); len(unknown) > 0 {
		var errs []error
		for _, k := range unknown {
			errs = append(errs, fmt.Errorf("%s: unknown key %s (config.yaml lists every key)", where, k))
		}
		return nil, "", errors.Join(errs...)
	}
	var c Config
	if err := v.UnmarshalExact(&c); err != nil {
		return nil, "", fmt.Errorf("%s: %w", where, decodeError(err))
	}
	if err := c.Validate(); err != nil {
		return nil, "", err
	}
	return &c, v.ConfigFileUsed(), nil
}

// pathKeys are the keys that name files and directories.
var pathKeys = []string{
	"store.sqlite_path", "capture.dir", "admin.token_file", "journal.dir", "tls.cert_file", "tls.key_file",
	"cluster.creds", "cluster.tls_ca", "cluster.tls_cert", "cluster.tls_key",
}

// resolvePaths makes the relative paths written in v's configuration file
// relative to that file's directory (and absolute), so that bomberd and
// bomberctl given the same --config find the same store and token from any
// working directory. It runs before the environment and flags are bound:
// their paths, like the defaults, stay relative to the working directory,
// as paths typed on a command line are.
func resolvePaths(v *viper.Viper) error {
	file := v.ConfigFileUsed()
	if file == "" {
		return nil
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return fmt.Errorf("config %s: %w", file, err)
	}
	dir, patch := filepath.Dir(abs), map[string]any{}
	for _, k := range pathKeys {
		p, ok := v.Get(k).(string)
		if !v.InConfig(k) || !ok || p == "" || filepath.IsAbs(p) {
			continue
		}
		section, key, _ := strings.Cut(k, ".")
		m, _ := patch[section].(map[string]any)
		if m == nil {
			m = map[string]any{}
			patch[section] = m
		}
		m[key] = filepath.Join(dir, p)
	}
	return v.MergeConfigMap(patch)
}

// unknownKeys lists the keys v holds that have no default, that is, that
// are no configuration key (a typo in the file, most likely).
func unknownKeys(v *viper.Viper) []string {
	known := viper.New()
	setDefaults(known)
	isKnown := map[string]bool{}
	for _, k := range known.AllKeys() {
		isKnown[k] = true
	}
	var out []string
	for _, k := range v.AllKeys() {
		if !isKnown[k] {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// decodeQuoted matches mapstructure's "'key.path' cannot ..." lines.
var decodeQuoted = regexp.MustCompile(`(?m)^'([^']*)' `)

// decodeError rewrites mapstructure's decoding error as one "key: problem"
// line per problem, without its preamble.
func decodeError(err error) error {
	msg := strings.TrimSpace(err.Error())
	if _, rest, ok := strings.Cut(msg, "error(s):"); ok {
		msg = strings.TrimSpace(rest)
	}
	return errors.New(decodeQuoted.ReplaceAllString(msg, "$1: "))
}

// Validate checks values that would otherwise fail later or silently.
func (c *Config) Validate() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if c.Listen == "" {
		bad("listen: empty")
	}
	if c.Transport != "reactor" && c.Transport != "net" {
		bad("transport: %q (want reactor or net)", c.Transport)
	}
	switch c.Store.Driver {
	case "sqlite":
		if c.Store.SQLitePath == "" {
			bad("store.sqlite_path: empty")
		}
	case "mysql":
		if c.Store.MySQLDSN == "" {
			bad("store.mysql_dsn: empty with store.driver mysql")
		}
	default:
		bad("store.driver: %q (want sqlite or mysql)", c.Store.Driver)
	}
	if _, err := statemachine.ParseDialect(c.Protocol.Dialect); err != nil {
		bad("protocol.dialect: %v", err)
	}
	if c.Accounts.Registration != "open" && c.Accounts.Registration != "closed" {
		bad("accounts.registration: %q (want open or closed)", c.Accounts.Registration)
	}
	if c.Accounts.SignUpsPerAddress < 1 || c.Accounts.SignUpsPerHour < 1 {
		bad("accounts.signups_per_address and accounts.signups_per_hour: want at least 1")
	}
	if c.Protocol.FirstGuess != "inviter" && c.Protocol.FirstGuess != "invitee" {
		bad("protocol.first_guess: %q (want inviter or invitee)", c.Protocol.FirstGuess)
	}
	if c.Hashing.MemoryKiB < 8*uint32(max(c.Hashing.Parallelism, 1)) {
		bad("hashing.memory_kib: %d (want at least 8 × hashing.parallelism)", c.Hashing.MemoryKiB)
	}
	if c.Hashing.Iterations < 1 {
		bad("hashing.iterations: %d (want at least 1)", c.Hashing.Iterations)
	}
	if c.Hashing.Parallelism < 1 {
		bad("hashing.parallelism: %d (want at least 1)", c.Hashing.Parallelism)
	}
	if c.Hashing.MaxConcurrent < 1 {
		bad("hashing.max_concurrent: %d (want at least 1)", c.Hashing.MaxConcurrent)
	}
	l := c.Limits
	atLeast := func(key string, v, min int64) {
		if v < min {
			bad("limits.%s: %d (want at least %d)", key, v, min)
		}
	}
	atLeast("max_connections", int64(l.MaxConnections), 1)
	atLeast("max_connections_per_ip", int64(l.MaxConnectionsPerIP), 0)
	atLeast("max_output_bytes", int64(l.MaxOutputBytes), 512)
	atLeast("account_workers", int64(l.AccountWorkers), 1)
	atLeast("account_queue", int64(l.AccountQueue), 1)
	atLeast("login_failures", int64(l.LoginFailures), 0)
	atLeast("segment_rate", int64(l.SegmentRate), 0)
	atLeast("segment_burst", int64(l.SegmentBurst), 0)
	for key, d := range map[string]time.Duration{"segment_timeout": l.SegmentTimeout, "login_timeout": l.LoginTimeout, "login_window": l.LoginWindow, "login_lockout": l.LoginLockout} {
		if d < 0 {
			bad("limits.%s: %s (want 0 or more)", key, d)
		}
	}
	if l.AccountTimeout <= 0 {
		bad("limits.account_timeout: %s (want more than 0)", l.AccountTimeout)
	}
	if l.SegmentRate > 0 && l.SegmentBurst < 1 {
		bad("limits.segment_burst: %d (want at least 1 while limits.segment_rate is set)", l.SegmentBurst)
	}
	if l.MaxOutputTotal < l.MaxOutputBytes {
		bad("limits.max_output_total: %d (want at least limits.max_output_bytes, %d)", l.MaxOutputTotal, l.MaxOutputBytes)
	}
	t := c.Tables
	for key, v := range map[string]int{"max_tables": t.MaxTables, "max_tables_per_user": t.MaxTablesPerUser, "chat_rate": t.ChatRate, "chat_burst": t.ChatBurst, "bot_workers": t.BotWorkers, "bot_queue": t.BotQueue} {
		if v < 1 {
			bad("tables.%s: %d (want at least 1)", key, v)
		}
	}
	if t.MaxWatchers < 0 {
		bad("tables.max_watchers: %d (want 0 or more)", t.MaxWatchers)
	}
	for key, d := range map[string]time.Duration{"offer_ttl": t.OfferTTL, "resume_grace": t.ResumeGrace, "resume_grace_bye": t.ResumeGraceBye} {
		if d < time.Second {
			bad("tables.%s: %s (want at least 1s)", key, d)
		}
	}
	if t.BotBudget < time.Millisecond {
		bad("tables.bot_budget: %s (want at least 1ms)", t.BotBudget)
	}
	p := c.Pairing
	if p.Round < 100*time.Millisecond || p.ComputerAfter < p.Round {
		bad("pairing.round: %s, pairing.computer_after: %s (want a round of at least 100ms, and the computer offered no sooner than a round)", p.Round, p.ComputerAfter)
	}
	if p.Range < 1 || p.Widen < 0 || p.RangeCap < p.Range || p.RangeCap > 65535 {
		bad("pairing.range: %d, widen: %d, range_cap: %d (want range at least 1, widen 0 or more, range_cap from range to 65535)", p.Range, p.Widen, p.RangeCap)
	}
	if c.Log.Format != "json" && c.Log.Format != "console" {
		bad("log.format: %q (want json or console)", c.Log.Format)
	}
	if (c.TLS.Listen != "") && (c.TLS.CertFile == "" || c.TLS.KeyFile == "") {
		bad("tls.cert_file, tls.key_file: needed with tls.listen")
	}
	if c.Cluster.NATSURL != "" {
		if c.Cluster.Heartbeat <= 0 || c.Cluster.NodeTTL < 3*c.Cluster.Heartbeat {
			bad("cluster.node_ttl: %v (want at least 3 heartbeats of %v)", c.Cluster.NodeTTL, c.Cluster.Heartbeat)
		}
		if (c.Cluster.TLSCert == "") != (c.Cluster.TLSKey == "") {
			bad("cluster.tls_cert and cluster.tls_key: set both or neither")
		}
		if c.Cluster.Replicas < 1 || c.Cluster.Replicas > 5 {
			bad("cluster.replicas: %d (want 1..5)", c.Cluster.Replicas)
		}
		if c.Capture.Enabled {
			bad("capture.enabled: a clustered node cannot capture replayable sessions (its hub is fed by the whole world); capture on a node alone")
		}
	}
	if c.Web.TLS && (c.TLS.CertFile == "" || c.TLS.KeyFile == "") {
		bad("web.tls: set without tls.cert_file and tls.key_file")
	}
	if c.Web.MaxMessage < segment.MaxSegment || c.Web.MaxMessage > 1<<20 {
		bad("web.max_message: %d (want %d..%d)", c.Web.MaxMessage, segment.MaxSegment, 1<<20)
	}
	if c.Web.MaxConnections < 1 {
		bad("web.max_connections: %d (want at least 1)", c.Web.MaxConnections)
	}
	if c.Web.MaxConnectionsPerIP < 0 {
		bad("web.max_connections_per_ip: %d (want 0 or more)", c.Web.MaxConnectionsPerIP)
	}
	if c.Admin.Listen != "" && c.Admin.Token == "" && c.Admin.TokenFile == "" {
		bad("admin: listen set without token or token_file")
	}
	if c.ShutdownTimeout <= 0 {
		bad("shutdown_timeout: must be positive")
	}
	return errors.Join(errs...)
}

// Hub is the state machine configuration these settings describe.
func (c *Config) Hub() statemachine.Config {
	d, _ := statemachine.ParseDialect(c.Protocol.Dialect)
	first := statemachine.Inviter
	if c.Protocol.FirstGuess == "invitee" {
		first = statemachine.Invitee
	}
	return statemachine.Config{
		Dialect:           d,
		First:             first,
		KickGrace:         c.Protocol.KickGrace,
		LoginTimeout:      c.Limits.LoginTimeout,
		HideUnknownUsers:  c.Protocol.HideUnknownUsers,
		LoginFailures:     c.Limits.LoginFailures,
		LoginWindow:       c.Limits.LoginWindow,
		LoginLockout:      c.Limits.LoginLockout,
		SegmentRate:       c.Limits.SegmentRate,
		SegmentBurst:      c.Limits.SegmentBurst,
		Games:             statemachine.Catalogue(),
		MaxTables:         c.Tables.MaxTables,
		MaxTablesPerUser:  c.Tables.MaxTablesPerUser,
		MaxWatchers:       c.Tables.MaxWatchers,
		ChatRate:          c.Tables.ChatRate,
		ChatBurst:         c.Tables.ChatBurst,
		OfferTTL:          c.Tables.OfferTTL,
		ResumeGrace:       c.Tables.ResumeGrace,
		ResumeGraceBye:    c.Tables.ResumeGraceBye,
		SignUpClosed:      c.Accounts.Registration != "open",
		SignUpsPerAddress: c.Accounts.SignUpsPerAddress,
		SignUpsPerHour:    c.Accounts.SignUpsPerHour,
		PairRound:         c.Pairing.Round,
		PairRange:         c.Pairing.Range,
		PairWiden:         c.Pairing.Widen,
		PairRangeCap:      c.Pairing.RangeCap,
		PairComputerAfter: c.Pairing.ComputerAfter,
	}
}
