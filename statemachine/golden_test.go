package statemachine_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/bomber-game/bomber/account"
	"github.com/bomber-game/bomber/rules/games"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/segment/transcript"
	"github.com/bomber-game/bomber/statemachine/replay"
)

var update = flag.Bool("update", false, "rewrite golden transcripts with the hub's actual answers")

// TestGolden replays every transcript under testdata/transcripts through a
// fresh hub (demo accounts, password 123) and compares the server's answers
// with the recorded ones. Every game a transcript ends must give a record
// the account store takes and that replays through its rules.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("../testdata/transcripts/*.txt")
	if len(files) == 0 {
		t.Fatal("no golden transcripts")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			r, want := replayFile(t, file)
			got := r.Output()
			storable(t, r.Records())
			if *update {
				var b bytes.Buffer
				if err := transcript.Write(&b, got, true); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if d := transcript.Diff(want, got); d != "" {
				t.Errorf("%s: server answers differ (- recorded, + actual):\n%s", file, d)
			}
		})
	}
}

// TestProtocolExamplesAreGolden: the examples of docs/protocol.md section
// 8.7 stand, line for line, in the golden transcripts they name, and every
// extended message type has one.
func TestProtocolExamplesAreGolden(t *testing.T) {
	raw, err := os.ReadFile("../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	start := strings.Index(doc, "### 8.7 ")
	end := strings.Index(doc, "### 8.8 ")
	if start < 0 || end < start {
		t.Fatal("docs/protocol.md has no section 8.7")
	}
	head := regexp.MustCompile(`(?m)^(\w+) \((\S+\.txt), line (\d+)\):\n\n` + "```" + `\n((?:.+\n)+?)` + "```")
	seen := map[string]bool{}
	for _, m := range head.FindAllStringSubmatch(doc[start:end], -1) {
		name, file, line := m[1], m[2], m[3]
		seen[name] = true
		tr, err := os.ReadFile(filepath.Join("../testdata/transcripts", file))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		lines := strings.Split(string(tr), "\n")
		n, _ := strconv.Atoi(line)
		for i, want := range strings.Split(strings.TrimSuffix(m[4], "\n"), "\n") {
			if k := n - 1 + i; k >= len(lines) || lines[k] != want {
				t.Errorf("%s: %s line %d is not the documented example %q", name, file, n+i, want)
			}
		}
	}
	for ty := segment.Type(0x20); ty < 0x40; ty++ {
		if ty.KnownExtended() && !seen[ty.String()] {
			t.Errorf("no golden example of %v in docs/protocol.md 8.7", ty)
		}
	}
}

// replayFile runs the transcript file through a fresh hub (demo accounts,
// the configuration its notes give) and returns the runner and the
// transcript as recorded.
func replayFile(t *testing.T, file string) (*replay.Runner, []transcript.Entry) {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want, err := transcript.Parse(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := replay.ConfigFromNotes(want)
	if err != nil {
		t.Fatal(err)
	}
	r := replay.New(cfg, replay.DemoAccounts())
	r.Inputs(want)
	for _, e := range want {
		r.Feed(e)
	}
	return r, want
}

// storable fails t for a record the account store would refuse (bomberd
// logs "game record refused" and drops it) or that does not replay
// through its game's rules.
func storable(t *testing.T, recs []record.Game) {
	t.Helper()
	for i := range recs {
		rec := &recs[i]
		stored := *rec // a transcript's clock starts at 0, a daemon's at the wall clock
		stored.Start += 1e18
		stored.End += 1e18
		if err := account.CheckGame(stored); err != nil {
			t.Errorf("record %d (%s, %s) refused by the store: %v", i+1, rec.Game, rec.Reason, err)
		}
		spec, ok := games.Lookup(rec.Game)
		if !ok {
			t.Errorf("record %d: unknown game %q", i+1, rec.Game)
			continue
		}
		if _, err := record.Replay(spec, rec); err != nil {
			t.Errorf("record %d (%s, %s): %v", i+1, rec.Game, rec.Reason, err)
		}
	}
}
