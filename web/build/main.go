// Command build bundles the web client (web/src) into web/dist with
// esbuild's Go API, so the bundle is made by `go generate ./web` (or
// `make web`) and nobody needs Node or npm to build or serve it.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	root := flag.String("root", ".", "the web/ directory (holding src/ and dist/)")
	out := flag.String("out", "", "output directory (default ROOT/dist)")
	flag.Parse()
	dir := *out
	if dir == "" {
		dir = filepath.Join(*root, "dist")
	}
	if err := Build(*root, dir); err != nil {
		fmt.Fprintln(os.Stderr, "web/build:", err)
		os.Exit(1)
	}
}
