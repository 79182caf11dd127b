package statemachine_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment/transcript"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

var update = flag.Bool("update", false, "rewrite golden transcripts with the hub's actual answers")

// configFrom reads "# config: key=value ..." narration lines.
func configFrom(t *testing.T, entries []transcript.Entry) statemachine.Config {
	t.Helper()
	var cfg statemachine.Config
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Comment, "config:")
		if e.Op != transcript.Note || !ok {
			continue
		}
		for _, kv := range strings.Fields(rest) {
			k, v, _ := strings.Cut(kv, "=")
			var err error
			switch k {
			case "dialect":
				cfg.Dialect, err = statemachine.ParseDialect(v)
			case "first":
				if v == "invitee" {
					cfg.First = statemachine.Invitee
				}
			case "kick-grace":
				cfg.KickGrace, err = time.ParseDuration(v)
			case "login-timeout":
				cfg.LoginTimeout, err = time.ParseDuration(v)
			case "hide-unknown-users":
				cfg.HideUnknownUsers = v == "true"
			default:
				err = fmt.Errorf("unknown key")
			}
			if err != nil {
				t.Fatalf("config %s: %v", kv, err)
			}
		}
	}
	return cfg
}

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
			got := replay.Run(configFrom(t, want), replay.DemoAccounts(), want)
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
