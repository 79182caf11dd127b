package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestCommittedBundleIsFresh rebuilds the web client into a temporary
// directory and compares it with the committed web/dist: a change to
// web/src or clients/js without `go generate ./web` fails here.
func TestCommittedBundleIsFresh(t *testing.T) {
	tmp := t.TempDir()
	if err := Build("..", tmp); err != nil {
		t.Fatal(err)
	}
	built, _ := filepath.Glob(filepath.Join(tmp, "*"))
	if len(built) == 0 {
		t.Fatal("the build wrote nothing")
	}
	for _, f := range built {
		name := filepath.Base(f)
		want, _ := os.ReadFile(f)
		got, err := os.ReadFile(filepath.Join("..", "dist", name))
		if err != nil {
			t.Errorf("web/dist/%s is missing: run `go generate ./web` and commit web/dist", name)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("web/dist/%s is stale: run `go generate ./web` and commit web/dist", name)
		}
	}
}
