package statemachine_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/bomber-game/bomber/segment/transcript"
	"github.com/bomber-game/bomber/statemachine/replay"
)

var update = flag.Bool("update", false, "rewrite golden transcripts with the hub's actual answers")

// TestGolden replays every transcript under testdata/transcripts through a
// fresh hub (demo accounts, password 123) and compares the server's answers
// with the recorded ones.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("../testdata/transcripts/*.txt")
	if len(files) == 0 {
		t.Fatal("no golden transcripts")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
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
			got := replay.Run(cfg, replay.DemoAccounts(), want)
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
