package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

func flags(args ...string) *pflag.FlagSet {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	Flags(fs)
	fs.Parse(args)
	return fs
}

// TestShippedConfigMatchesDefaults: config.yaml documents the defaults; it
// must load and agree with running with no file at all, its relative paths
// being the defaults' from the repository's directory.
func TestShippedConfigMatchesDefaults(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	shipped, _, err := Load(flags("--config", "../../../config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	bare, used, err := Load(flags())
	if err != nil || used != "" {
		t.Fatalf("no file: %v (used %q)", err, used)
	}
	for _, p := range []struct{ shipped, bare *string }{
		{&shipped.Store.SQLitePath, &bare.Store.SQLitePath},
		{&shipped.Admin.TokenFile, &bare.Admin.TokenFile},
		{&shipped.Capture.Dir, &bare.Capture.Dir},
		{&shipped.Journal.Dir, &bare.Journal.Dir},
	} {
		if want := filepath.Join(root, *p.bare); *p.shipped != want {
			t.Errorf("config.yaml's path %q, want %q (the default %q from the file's directory)", *p.shipped, want, *p.bare)
		}
		*p.shipped = *p.bare
	}
	if !reflect.DeepEqual(*shipped, *bare) {
		t.Fatalf("config.yaml differs from the defaults:\n%+v\n%+v", *shipped, *bare)
	}
}

// TestFilePathsAreRelativeToTheFile: bomberd and bomberctl given the same
// --config find the same store and token from any working directory; paths
// from the environment and flags stay relative to the working directory.
func TestFilePathsAreRelativeToTheFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "etc")
	os.MkdirAll(dir, 0o755)
	file := filepath.Join(dir, "bomber.yaml")
	os.WriteFile(file, []byte("store:\n  sqlite_path: var/bomber.db\nadmin:\n  token_file: admin.token\n"+
		"capture:\n  dir: /srv/capture\ntls:\n  cert_file: ../tls/cert.pem\n  key_file: ../tls/key.pem\n  listen: ':1'\n"), 0o644)
	t.Chdir(t.TempDir())
	c, _, err := Load(flags("--config", file))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range [][2]string{
		{c.Store.SQLitePath, filepath.Join(dir, "var/bomber.db")},
		{c.Admin.TokenFile, filepath.Join(dir, "admin.token")},
		{c.Capture.Dir, "/srv/capture"},
		{c.TLS.CertFile, filepath.Join(filepath.Dir(dir), "tls/cert.pem")},
		{c.TLS.KeyFile, filepath.Join(filepath.Dir(dir), "tls/key.pem")},
		{c.Cluster.Creds, ""},
	} {
		if p[0] != p[1] {
			t.Errorf("path %q, want %q", p[0], p[1])
		}
	}
	t.Setenv("BOMBER_ADMIN_TOKEN_FILE", "run/admin.token")
	c, _, err = Load(flags("--config", file, "--sqlite-path", "here.db"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Store.SQLitePath != "here.db" || c.Admin.TokenFile != "run/admin.token" {
		t.Errorf("flag and environment paths %q, %q; want them as given", c.Store.SQLitePath, c.Admin.TokenFile)
	}
}

// TestPackagedConfigPathsAreAbsolute: the Debian package's configuration
// names every file the daemon and bomberctl share by its absolute path in
// the state directory.
func TestPackagedConfigPathsAreAbsolute(t *testing.T) {
	c, _, err := Load(flags("--config", "../../../deploy/deb/config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for key, p := range map[string]string{"store.sqlite_path": c.Store.SQLitePath, "admin.token_file": c.Admin.TokenFile,
		"capture.dir": c.Capture.Dir, "journal.dir": c.Journal.Dir} {
		if !strings.HasPrefix(p, "/var/lib/bomber/") {
			t.Errorf("%s: %q, want a path in /var/lib/bomber", key, p)
		}
	}
}

func TestOverrides(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "c.yaml")
	os.WriteFile(file, []byte("listen: ':1'\nprotocol:\n  kick_grace: 1m\n"), 0o644)
	t.Setenv("BOMBER_PROTOCOL_KICK_GRACE", "2m")
	t.Setenv("BOMBER_LIMITS_MAX_CONNECTIONS", "7")
	t.Setenv("BOMBER_WEB_ALLOWED_ORIGINS", "play.example.com,*.example.org")
	c, _, err := Load(flags("--config", file, "--listen", ":2"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Listen != ":2" || c.Protocol.KickGrace != 2*time.Minute || c.Limits.MaxConnections != 7 {
		t.Fatalf("overrides not applied: %+v", c)
	}
	if !reflect.DeepEqual(c.Web.AllowedOrigins, []string{"play.example.com", "*.example.org"}) {
		t.Fatalf("web.allowed_origins from the environment: %q", c.Web.AllowedOrigins)
	}
}

// TestEmptyEnvironmentDisables: BOMBER_WEB_LISTEN= turns the web listener
// off, as web.listen: "" does in the file (an empty variable is a value).
func TestEmptyEnvironmentDisables(t *testing.T) {
	t.Setenv("BOMBER_WEB_LISTEN", "")
	c, _, err := Load(flags())
	if err != nil {
		t.Fatal(err)
	}
	if c.Web.Listen != "" {
		t.Fatalf("web.listen with BOMBER_WEB_LISTEN empty: %q", c.Web.Listen)
	}
}

func TestRejects(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"transport: epoll\n", "transport"},
		{"store:\n  driver: mysql\n", "mysql_dsn"},
		{"protocol:\n  dialect: klingon\n", "dialect"},
		{"no_such_key: 1\n", "unknown key no_such_key"},
		{"limits:\n  zap: 2\n", "unknown key limits.zap"},
		{"limits:\n  max_connections: abc\n", "limits.max_connections: cannot parse"},
		{"limits:\n  max_output_bytes: 10\n", "limits.max_output_bytes: 10"},
		{"limits:\n  account_timeout: 0s\n", "limits.account_timeout"},
		{"hashing:\n  iterations: 0\n", "hashing.iterations: 0"},
		{"tls:\n  listen: ':1'\n", "tls.cert_file"},
		{"web:\n  tls: true\n", "web.tls"},
		{"web:\n  max_message: 10\n", "web.max_message"},
	}
	for _, tt := range tests {
		file := filepath.Join(t.TempDir(), "c.yaml")
		os.WriteFile(file, []byte(tt.yaml), 0o644)
		_, _, err := Load(flags("--config", file))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: err %v, want mention of %q", tt.yaml, err, tt.want)
		}
		// Every problem names its key: no "'' has invalid keys".
		if err != nil && strings.Contains(err.Error(), "''") {
			t.Errorf("%q: err %q does not name the key", tt.yaml, err)
		}
	}
}
