package cli_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// commands are every command in cmd/, with what their usage says first.
var commands = map[string]string{
	"bomberd":       "Usage: bomberd",
	"bomberctl":     "Usage: bomberctl",
	"bomber":        "Usage:",
	"bomber-replay": "usage: bomber-replay",
	"bomber-pcap":   "usage: bomber-pcap",
	"bomber-load":   "Usage: bomber-load",
}

const testVersion = "v0.0.0-clitest"

var binDir string

// TestMain compiles every command once, with the version tag as the
// Makefile sets it.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "bomber-cli-test")
	if err != nil {
		panic(err)
	}
	cmd := exec.Command("go", "build", "-o", dir+"/", "-ldflags", "-X github.com/bomber-game/bomber/cmd/internal/cli.version="+testVersion, "../../...")
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		panic(fmt.Sprintf("go build: %v\n%s", err, out))
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func build(*testing.T) string { return binDir }

func runCmd(t *testing.T, bin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Dir = t.TempDir() // no config.yaml around
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("%s: %v", bin, err)
	}
	return o.String(), e.String(), code
}

// TestEveryCommandsManners: on every command, --help prints the usage on
// standard output and exits 0; --version prints the version; an unknown
// flag prints what was wrong and the usage on standard error and exits 2.
func TestEveryCommandsManners(t *testing.T) {
	dir := build(t)
	for name, head := range commands {
		bin := filepath.Join(dir, name)
		if _, err := os.Stat(bin); err != nil {
			t.Fatalf("%s not built: %v", name, err)
		}
		out, errs, code := runCmd(t, bin, "--help")
		if code != 0 || !strings.Contains(out, head) || errs != "" {
			t.Errorf("%s --help: exit %d, stdout %.60q, stderr %.60q; want 0 and the usage on stdout", name, code, out, errs)
		}
		if !strings.Contains(out, "-version") {
			t.Errorf("%s --help does not list --version", name)
		}
		out, errs, code = runCmd(t, bin, "--version")
		if code != 0 || out != name+" "+testVersion+"\n" {
			t.Errorf("%s --version: exit %d, stdout %q, stderr %q", name, code, out, errs)
		}
		out, errs, code = runCmd(t, bin, "--no-such-flag")
		if code != 2 || !strings.Contains(errs, "no-such-flag") || !strings.Contains(errs, head) || out != "" {
			t.Errorf("%s --no-such-flag: exit %d, stdout %.60q, stderr %.200q; want 2, the error and the usage on stderr", name, code, out, errs)
		}
	}
}

// TestBomberctlManners: an unknown command or wrong arguments say so and
// exit 2, and the help lists bomberctl's flags, not the daemon's.
func TestBomberctlManners(t *testing.T) {
	bin := filepath.Join(build(t), "bomberctl")
	for args, want := range map[string]string{"frobnicate": `unknown command "frobnicate"`, "user add": "wrong arguments for user", "": "no command"} {
		_, errs, code := runCmd(t, bin, strings.Fields(args)...)
		if code != 2 || !strings.Contains(errs, want) || !strings.Contains(errs, "Usage: bomberctl") {
			t.Errorf("bomberctl %s: exit %d, stderr %q; want 2 and %q", args, code, errs, want)
		}
	}
	out, _, _ := runCmd(t, bin, "--help")
	for _, own := range []string{"--config", "--store-driver", "--sqlite-path", "--mysql-dsn", "--admin-listen", "--password", "--file", "--json"} {
		if !strings.Contains(out, own) {
			t.Errorf("bomberctl --help lacks %s", own)
		}
	}
	for _, daemons := range []string{"--listen", "--transport", "--log-level", "--log-format"} {
		if strings.Contains(out, daemons+" ") {
			t.Errorf("bomberctl --help lists the daemon's %s", daemons)
		}
	}
}
