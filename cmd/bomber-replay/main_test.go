package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/server/servertest"
)

const goldenDir = "../../testdata/transcripts"

func runCmd(args ...string) (int, string) {
	var out, errs bytes.Buffer
	code := run(args, &out, &errs)
	return code, out.String() + errs.String()
}

// TestReplaysEveryGoldenTranscript is how `make test` replays every
// transcript under testdata/ through the command.
func TestReplaysEveryGoldenTranscript(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.txt"))
	if len(files) == 0 {
		t.Fatal("no golden transcripts")
	}
	code, out := runCmd(goldenDir)
	if code != exitOK {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if want := fmt.Sprintf("%d passed, 0 failed\n", len(files)); !strings.HasSuffix(out, want) {
		t.Fatalf("summary: want %q in\n%s", want, out)
	}
	// recorded timing changes nothing for files without time stamps
	if code, out := runCmd("--timing", "recorded", goldenDir); code != exitOK {
		t.Fatalf("recorded timing: exit %d:\n%s", code, out)
	}
}

func golden(t *testing.T, name string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(goldenDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

func write(t *testing.T, text string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "case.txt")
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func mustReplace(t *testing.T, s, old, new string) string {
	t.Helper()
	if !strings.Contains(s, old) {
		t.Fatalf("fixture lacks %q", old)
	}
	return strings.Replace(s, old, new, 1)
}

func TestAlteredTranscriptShowsADiff(t *testing.T) {
	// the recorded answer to Albert's password says "wrong password"
	text := mustReplace(t, golden(t, "08_bad_input.txt"),
		"a < 03 00 01 01  # PasswdResp 1 (OK)", "a < 03 00 01 03  # PasswdResp 3 (wrong password)")
	file := write(t, text)
	code, out := runCmd(file)
	if code != exitDiff {
		t.Fatalf("exit %d, want %d:\n%s", code, exitDiff, out)
	}
	for _, want := range []string{
		"FAIL " + file + " (- recorded, + actual)",
		"    - a < 03 00 01 03  # PasswdResp 3 (wrong password)   (line 7)",
		"    + a < 03 00 01 01  # PasswdResp 1 (OK)",
		"0 passed, 1 failed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// one bad file among good ones still fails the run, and the good ones pass
	code, out = runCmd(goldenDir, file)
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.txt"))
	if code != exitDiff || !strings.Contains(out, fmt.Sprintf("%d passed, 1 failed", len(files))) {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// timed is a capture-like transcript with time stamps and masked passwords:
// an idle connection times out after 30s with no clock line.
const timed = `# config: login-timeout=30s
t=0.000000 idle open  # from 192.0.2.1:4000
t=1.000000 b open
t=1.010000 b > 00 00 04 42 65 74 68  # Info "Beth"
t=1.012000 b < 01 00 01 01  # InfoResp 1 (OK)
t=1.020000 b > 02 00 03 2a 2a 2a  # Passwd (masked)
t=1.022000 b < 03 00 01 01  # PasswdResp 1 (OK)
t=1.022000 b < 08 00 00  # SyncEnd
t=30.100000 idle closed
t=40.000000 b close
`

// hangUp is a capture (its "in" lines are the hub's inputs) in which Beth
// hangs up as Albert invites her: the daemon read both in one go, so the
// invitation reached the hub before the input saying Beth was gone, and
// the RecvInvit the hub sent her went nowhere.
const hangUp = `c1 open  # from 127.0.0.1:40001
in 01 02 01 09 31 32 37 2e 30 2e 30 2e 31  # open c1 from 127.0.0.1
c2 open  # from 127.0.0.1:40002
in 01 04 02 09 31 32 37 2e 30 2e 30 2e 31  # open c2 from 127.0.0.1
c1 > 00 00 06 41 6c 62 65 72 74  # Info "Albert"
in 02 06 01 00 00 06 41 6c 62 65 72 74  # receive c1: Info "Albert"
in 04 08 01 00  # answer check 1: found
c1 < 01 00 01 01  # InfoResp 1 (OK)
c1 > 02 00 03 2a 2a 2a  # Passwd (masked)
in 02 0a 01 02 00 02 00 31  # receive c1: Passwd (masked)
in 04 0c 02 00  # answer check 2: found
c1 < 03 00 01 01  # PasswdResp 1 (OK)
c1 < 08 00 00  # SyncEnd
c2 > 00 00 04 42 65 74 68  # Info "Beth"
in 02 0e 02 00 00 04 42 65 74 68  # receive c2: Info "Beth"
in 04 10 03 00  # answer check 3: found
c2 < 01 00 01 01  # InfoResp 1 (OK)
c2 > 02 00 03 2a 2a 2a  # Passwd (masked)
in 02 12 02 02 00 02 00 32  # receive c2: Passwd (masked)
in 04 14 04 00  # answer check 4: found
c2 < 03 00 01 01  # PasswdResp 1 (OK)
c2 < 06 00 06 41 6c 62 65 72 74  # SyncBegin "Albert"
c2 < 08 00 00  # SyncEnd
c1 < 07 00 04 42 65 74 68  # NewOnline "Beth"
c2 close
c1 > 09 00 04 42 65 74 68  # SendInvit "Beth"
in 02 16 01 09 00 04 42 65 74 68  # receive c1: SendInvit "Beth"
in 03 18 02  # closed c2
c1 < 10 00 04 42 65 74 68  # NewOffline "Beth"
c1 < 0b 00 01 00  # InvitResponse 0 (no such user)
c1 close
in 03 1a 01  # closed c1
`

// TestCaptureHangUpBeforeItsInput: in a capture, a connection's close line
// comes before the input that tells the hub; what the hub sends it in
// between was never sent, and the replay does not expect it either. The
// capture replays from its inputs whatever the options (its answers are
// inputs: no accounts or masking needed; its times too).
func TestCaptureHangUpBeforeItsInput(t *testing.T) {
	file := write(t, hangUp)
	for _, args := range [][]string{nil, {"--timing", "recorded"}, {"--ignore", "order"}} {
		if code, out := runCmd(append(args, file)...); code != exitOK {
			t.Errorf("with %v: exit %d:\n%s", args, code, out)
		}
	}
}

// restored is a capture whose first inputs are of a connection it did not
// open: a daemon that restored its world at start fed its hub the inputs
// from before, of connections gone before the capture began, and wrote
// nothing to them.
const restored = `in 01 02 07 09 31 32 37 2e 30 2e 30 2e 31  # open c7 from 127.0.0.1
in 02 04 07 00 00 06 41 6c 62 65 72 74  # receive c7: Info "Albert"
in 04 06 01 00  # answer check 1: found
in 03 08 07  # closed c7
c1 open  # from 127.0.0.1:40001
in 01 0a 01 09 31 32 37 2e 30 2e 30 2e 31  # open c1 from 127.0.0.1
c1 > 00 00 04 42 65 74 68  # Info "Beth"
in 02 0c 01 00 00 04 42 65 74 68  # receive c1: Info "Beth"
in 04 0e 02 00  # answer check 2: found
c1 < 01 00 01 01  # InfoResp 1 (OK)
c1 close
in 03 10 01  # closed c1
`

// TestCaptureBeganAfterAConnection: the hub's answers to a connection the
// capture never opened are not expected of the replay; the inputs are
// still fed (Beth's check is the second).
func TestCaptureBeganAfterAConnection(t *testing.T) {
	if code, out := runCmd(write(t, restored)); code != exitOK {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestOptionsChangeTheVerdict(t *testing.T) {
	g05 := golden(t, "01_login_userlist.txt")
	tests := []struct {
		name   string
		text   string
		strict []string // flags under which it must fail
		lax    []string // flags under which it must pass
	}{
		{
			name:   "a segment type the server no longer sends",
			text:   mustReplace(t, g05, "novate < 07 00 05 4c 61 72 72 79  # NewOnline \"Larry\"\n", ""),
			strict: nil,
			lax:    []string{"--ignore", "types:0x07"},
		},
		{
			name:   "two types in one name",
			text:   mustReplace(t, mustReplace(t, g05, "novate < 07 00 05 4c 61 72 72 79  # NewOnline \"Larry\"\n", ""), "larry < 08 00 00  # SyncEnd\n", ""),
			strict: []string{"--ignore", "types:0x07"},
			lax:    []string{"--ignore", "types:0x07,0x08"},
		},
		{
			name:   "a server hang-up not recorded",
			text:   mustReplace(t, golden(t, "12_timeouts_pipelining.txt"), "idle closed\n", ""),
			strict: []string{"--ignore", "types:0x01"},
			lax:    []string{"--ignore", "closed"},
		},
		{
			name:   "answers to two connections in another order",
			text:   swapLines(t, g05, "larry < 08 00 00  # SyncEnd", "novate < 07 00 05 4c 61 72 72 79  # NewOnline \"Larry\""),
			strict: nil,
			lax:    []string{"--ignore", "order"},
		},
		{
			name:   "a capture file that begins mid-session",
			text:   "z > 0d 00 02 31 31\nz < 0d 00 02 01 01\n" + g05,
			strict: nil,
			lax:    []string{"--ignore", "unopened"},
		},
		{
			name:   "a timeout only the time stamps show",
			text:   timed,
			strict: []string{"--masked"},
			lax:    []string{"--masked", "--timing", "recorded"},
		},
		{
			name:   "masked passwords",
			text:   timed,
			strict: []string{"--timing", "recorded"},
			lax:    []string{"--timing", "recorded", "--masked"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := write(t, tc.text)
			if code, out := runCmd(append(tc.strict, file)...); code != exitDiff {
				t.Errorf("with %v: exit %d, want %d:\n%s", tc.strict, code, exitDiff, out)
			}
			// flags may also follow the file
			if code, out := runCmd(append([]string{file}, tc.lax...)...); code != exitOK {
				t.Errorf("with %v: exit %d, want 0:\n%s", tc.lax, code, out)
			}
		})
	}
}

func swapLines(t *testing.T, s, a, b string) string {
	t.Helper()
	s = mustReplace(t, s, a, "\x00")
	s = mustReplace(t, s, b, a)
	return strings.Replace(s, "\x00", b, 1)
}

func TestAccountsFile(t *testing.T) {
	dir := t.TempDir()
	acc := filepath.Join(dir, "accounts")
	if err := os.WriteFile(acc, []byte("# test accounts\n\nNovate 123\nLarry\t123\nBeth 123\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out := runCmd("--accounts", acc, filepath.Join(goldenDir, "01_login_userlist.txt")); code != exitOK {
		t.Errorf("exit %d:\n%s", code, out)
	}
	// Novate's password is not the one the golden file logs in with
	if err := os.WriteFile(acc, []byte("Novate secret word\nLarry 123\nBeth 123\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := runCmd("--accounts", acc, filepath.Join(goldenDir, "01_login_userlist.txt"))
	if code != exitDiff || !strings.Contains(out, "PasswdResp 3 (wrong password)") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestUsageErrors(t *testing.T) {
	broken := write(t, "a open\na < 01 00\n")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no files", nil, "no transcripts given"},
		{"unknown ignore name", []string{"--ignore", "comments", goldenDir}, `unknown name "comments"`},
		{"bad type list", []string{"--ignore", "types:six", goldenDir}, "not a descriptor byte"},
		{"bad timing", []string{"--timing", "slow", goldenDir}, "--timing wants fast or recorded"},
		{"both modes", []string{"--addr", "127.0.0.1:1", "--inprocess", goldenDir}, "exclude each other"},
		{"missing file", []string{"no/such/file.txt"}, "no such file"},
		{"unparsable transcript", []string{broken}, "ERROR " + broken + ": line 2"},
		{"missing accounts file", []string{"--accounts", "no/such/accounts", goldenDir}, "no such file"},
		{"server not there", []string{"--addr", "127.0.0.1:1", filepath.Join(goldenDir, "01_login_userlist.txt")}, "connect"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out := runCmd(tc.args...)
			if code != exitUsage || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, want %d and %q in:\n%s", code, exitUsage, tc.want, out)
			}
		})
	}
}

// TestOverSockets drives a real transport on loopback.
func TestOverSockets(t *testing.T) {
	addr, _ := servertest.Start(t, server.Config{}, false)
	files := []string{filepath.Join(goldenDir, "01_login_userlist.txt"), filepath.Join(goldenDir, "04_invite_accept_game.txt")}
	code, out := runCmd(append([]string{"--addr", addr}, files...)...)
	if code != exitOK || !strings.Contains(out, "2 passed, 0 failed") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	altered := write(t, mustReplace(t, golden(t, "04_invite_accept_game.txt"),
		"larry < 0c 00 0c 30 32 33 32 30 37 33 37 35 32 38 32", "larry < 0c 00 0c 30 32 33 32 30 37 33 37 35 37 38 37"))
	code, out = runCmd("--addr", addr, "--timeout", "300ms", altered)
	if code != exitDiff {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, want := range []string{
		"line 23, larry:",
		"  - larry < 0c 00 0c 30 32 33 32 30 37 33 37 35 37 38 37  # Board (0,2)-(3,2) (0,7)-(3,7) (5,7)-(8,7)",
		"  + larry < 0c 00 0c 30 32 33 32 30 37 33 37 35 32 38 32  # Board (0,2)-(3,2) (0,7)-(3,7) (5,2)-(8,2)",
		"0 passed, 1 failed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
