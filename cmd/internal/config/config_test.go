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
// must load and agree with running with no file at all.
func TestShippedConfigMatchesDefaults(t *testing.T) {
	shipped, _, err := Load(flags("--config", "../../../config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	bare, used, err := Load(flags())
	if err != nil || used != "" {
		t.Fatalf("no file: %v (used %q)", err, used)
	}
	if !reflect.DeepEqual(*shipped, *bare) {
		t.Fatalf("config.yaml differs from the defaults:\n%+v\n%+v", *shipped, *bare)
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
