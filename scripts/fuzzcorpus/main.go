// Command fuzzcorpus adds files (captures from bomberd, with their "in"
// lines) to a Go fuzz target's seed corpus, in the corpus file format of
// go test:
//
//	go run ./scripts/fuzzcorpus -dir statemachine/testdata/fuzz/FuzzInputs capture-*.txt
//
// FuzzInputs then starts from what real clients did.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	dir := flag.String("dir", "statemachine/testdata/fuzz/FuzzInputs", "the fuzz target's corpus directory")
	flag.Parse()
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, f := range flag.Args() {
		b, err := os.ReadFile(f)
		if err == nil {
			out := filepath.Join(*dir, filepath.Base(f))
			err = os.WriteFile(out, fmt.Appendf(nil, "go test fuzz v1\n[]byte(%q)\n", b), 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
