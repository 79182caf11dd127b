package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestDebVersion(t *testing.T) {
	for in, want := range map[string]string{
		"v1.2.3":              "1.2.3",
		"v1.2.3-4-gabc123":    "1.2.3+4.gabc123",
		"v1.2.3-4-gabc-dirty": "1.2.3+4.gabc.dirty",
		"v1.2.3-rc1":          "1.2.3~rc1",
		"devel":               "0.0.0~devel",
		"devel-0123456789ab":  "0.0.0~devel~0123456789ab",
		"abc1234-dirty":       "0.0.0~gabc1234.dirty",
	} {
		if got := debVersion(in); got != want {
			t.Errorf("debVersion(%q) = %q, want %q", in, got, want)
		}
	}
}

// syncBuffer collects a process's output.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func need(t *testing.T, tools ...string) {
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
}

func sh(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestPackageInstallsAndRuns builds the package as make deb does, inspects
// it with dpkg-deb, installs it into a scratch root with dpkg --root (the
// maintainer scripts run against that root), runs the installed bomberd on
// the installed configuration, logs in over TCP with an account made by
// the installed bomberctl, and purges the package again.
func TestPackageInstallsAndRuns(t *testing.T) {
	need(t, "dpkg", "dpkg-deb")
	if os.Geteuid() != 0 {
		t.Skip("dpkg --root with maintainer scripts needs root here")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	build := exec.Command("go", "build", "-o", bin+"/", "-ldflags", "-X github.com/bomber-game/bomber/cmd/internal/cli.version=v1.2.3-4-gabc", "../../cmd/bomberd", "../../cmd/bomberctl")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--bin", bin, "--root", "../..", "-o", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("mkdeb: exit %d\n%s", code, stderr.String())
	}
	deb := strings.TrimSpace(stdout.String())
	if !strings.HasPrefix(filepath.Base(deb), "bomber_1.2.3+4.gabc_") {
		t.Fatalf("package name %q does not carry the binaries' version", deb)
	}

	// What dpkg-deb sees.
	if got := sh(t, "dpkg-deb", "-f", deb, "Package", "Version"); !strings.Contains(got, "Package: bomber") || !strings.Contains(got, "Version: 1.2.3+4.gabc") {
		t.Fatalf("control fields:\n%s", got)
	}
	if got := sh(t, "dpkg-deb", "-I", deb, "conffiles"); strings.TrimSpace(got) != "/etc/bomber/config.yaml" {
		t.Errorf("conffiles: %q", got)
	}
	contents := sh(t, "dpkg-deb", "--contents", deb)
	for _, want := range []string{"./usr/bin/bomberd", "./usr/bin/bomberctl", "./lib/systemd/system/bomberd.service",
		"./lib/systemd/system/bomberd.socket", "./etc/bomber/config.yaml", "./usr/lib/sysusers.d/bomber.conf", "./var/lib/bomber/"} {
		if !strings.Contains(contents, want) {
			t.Errorf("the package lacks %s:\n%s", want, contents)
		}
	}

	// Install into a scratch root.
	root := filepath.Join(dir, "root")
	for _, d := range []string{"var/lib/dpkg/info", "var/lib/dpkg/updates", "etc"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	for _, f := range []string{"var/lib/dpkg/status", "var/lib/dpkg/available"} {
		os.WriteFile(filepath.Join(root, f), nil, 0o644)
	}
	dpkg := func(args ...string) string {
		return sh(t, "dpkg", append([]string{"--root=" + root, "--force-not-root", "--force-script-chrootless", "--force-bad-path", "--log=/dev/null", "--no-triggers"}, args...)...)
	}
	dpkg("-i", deb)
	passwd, _ := os.ReadFile(filepath.Join(root, "etc/passwd"))
	m := regexp.MustCompile(`(?m)^bomber:x:(\d+):(\d+):[^:]*:/var/lib/bomber:`).FindSubmatch(passwd)
	if m == nil {
		t.Fatalf("postinst made no system user bomber:\n%s", passwd)
	}
	st, err := os.Stat(filepath.Join(root, "var/lib/bomber"))
	if err != nil {
		t.Fatal(err)
	}
	if uid := st.Sys().(*syscall.Stat_t).Uid; string(m[1]) != strconv.Itoa(int(uid)) || st.Mode().Perm() != 0o750 {
		t.Errorf("state directory: owner %d mode %v; want bomber (%s) and 0750", uid, st.Mode().Perm(), m[1])
	}
	if st, err := os.Stat(filepath.Join(root, "etc/bomber/config.yaml")); err != nil || st.Mode().Perm() != 0o640 {
		t.Errorf("config.yaml: %v %v; want mode 0640", st.Mode(), err)
	}

	// The installed unit is valid systemd (pointing at the installed binary).
	if analyze, err := exec.LookPath("systemd-analyze"); err == nil {
		unit, err := os.ReadFile(filepath.Join(root, "lib/systemd/system/bomberd.service"))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "bomberd.service")
		os.WriteFile(path, bytes.ReplaceAll(unit, []byte("/usr/bin/bomberd"), []byte(filepath.Join(root, "usr/bin/bomberd"))), 0o644)
		if out, err := exec.Command(analyze, "verify", path).CombinedOutput(); err != nil || len(bytes.TrimSpace(out)) > 0 {
			t.Errorf("systemd-analyze verify on the installed unit: %v\n%s", err, out)
		}
	}

	// The installed bomberd on the installed configuration: on loopback and a
	// free port, with the store, the admin token and the journal in the
	// scratch root (the installed configuration names them in /var/lib/bomber).
	cfg := filepath.Join(root, "etc/bomber/config.yaml")
	db := filepath.Join(root, "var/lib/bomber/bomber.db")
	env := append(os.Environ(), "BOMBER_LISTEN=127.0.0.1:0", "BOMBER_ADMIN_LISTEN=127.0.0.1:0", "BOMBER_STORE_SQLITE_PATH="+db,
		"BOMBER_ADMIN_TOKEN_FILE="+filepath.Join(root, "var/lib/bomber/admin.token"), "BOMBER_JOURNAL_DIR="+filepath.Join(root, "var/lib/bomber/journal"),
		"BOMBER_LOG_FORMAT=console", "BOMBER_HASHING_MEMORY_KIB=64", "BOMBER_HASHING_ITERATIONS=1")
	d := exec.Command(filepath.Join(root, "usr/bin/bomberd"), "--config", cfg)
	d.Env, d.Dir = env, root
	log := &syncBuffer{}
	d.Stdout, d.Stderr = log, log
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- d.Wait() }()
	defer func() {
		d.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("bomberd exited with %v", err)
			}
		case <-time.After(15 * time.Second):
			d.Process.Kill()
			t.Error("bomberd did not stop on SIGTERM")
		}
		if t.Failed() {
			t.Logf("bomberd log:\n%s", log.String())
		}
	}()
	addr := waitListening(t, log, done)
	for _, want := range []string{`"config": "` + cfg + `"`, `"version": "v1.2.3-4-gabc"`} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the start-up log lacks %s", want)
		}
	}
	if strings.Contains(log.String(), "created the demo accounts") {
		t.Error("the packaged configuration created demo accounts")
	}
	// as after apt install: the service has made the store, the operator
	// adds an account
	ctl := exec.Command(filepath.Join(root, "usr/bin/bomberctl"), "--config", cfg, "user", "add", "Alice", "--password", "s3cret")
	ctl.Env = env
	if out, err := ctl.CombinedOutput(); err != nil {
		t.Fatalf("installed bomberctl: %v\n%s", err, out)
	}
	if got := login(t, addr, "Alice", "s3cret"); got != "01000101 03000101" {
		t.Errorf("login as the account bomberctl made: %q, want InfoResp OK and PasswdResp OK", got)
	}

	// Purge removes the files and the state directory.
	d.Process.Signal(syscall.SIGTERM)
	<-done
	done <- nil
	dpkg("--purge", "bomber")
	for _, gone := range []string{"usr/bin/bomberd", "etc/bomber/config.yaml", "var/lib/bomber"} {
		if _, err := os.Stat(filepath.Join(root, gone)); err == nil {
			t.Errorf("%s is still there after purge", gone)
		}
	}
}

// waitListening waits for bomberd's "listening" log line and returns the address.
func waitListening(t *testing.T, log *syncBuffer, done chan error) string {
	t.Helper()
	re := regexp.MustCompile(`\tlistening\t\{"addr": "([^"]+)"\}`)
	deadline := time.Now().Add(30 * time.Second)
	for {
		if m := re.FindStringSubmatch(log.String()); m != nil {
			return m[1]
		}
		select {
		case err := <-done:
			done <- err
			t.Fatalf("bomberd exited: %v\n%s", err, log.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("bomberd did not listen:\n%s", log.String())
		}
	}
}

// login sends Info and Passwd and returns the two answers in hex.
func login(t *testing.T, addr, name, pw string) string {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	var answers []string
	for _, seg := range [][]byte{append([]byte{0, 0, byte(len(name))}, name...), append([]byte{2, 0, byte(len(pw))}, pw...)} {
		if _, err := c.Write(seg); err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 4)
		if _, err := io.ReadFull(r, b); err != nil {
			t.Fatalf("reading the answer: %v", err)
		}
		answers = append(answers, hex.EncodeToString(b))
	}
	return strings.Join(answers, " ")
}
