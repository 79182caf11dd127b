// Package cli gives Bomber's commands the same command-line manners: --help
// prints the usage on standard output and exits 0, --version prints the
// version, and a wrong flag or command prints what was wrong and the usage on
// standard error and exits 2.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/spf13/pflag"
)

// version is set at link time by the Makefile:
//
//	go build -ldflags "-X github.com/bomber-game/bomber/cmd/internal/cli.version=v1.2.3"
var version string

// Version is the build's version: the -ldflags tag when given, else the
// module version from the build info (set by go install module@version),
// else devel with the VCS revision when the build recorded one.
func Version() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", ""
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		return "devel-" + rev + dirty
	}
	return "devel"
}

// ExitUsage is the exit status for a wrong command line.
const ExitUsage = 2

// Parse parses args with a pflag set after adding --version to it. done
// reports that the command should exit with code: after --help (usage on
// stdout, 0), --version (stdout, 0) or a parse error (the error and the
// usage on stderr, 2). usage writes the command's whole help to w.
func Parse(fs *pflag.FlagSet, args []string, stdout, stderr io.Writer, usage func(w io.Writer)) (done bool, code int) {
	if fs.Lookup("version") == nil {
		fs.Bool("version", false, "print the version and exit")
	}
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.SetOutput(stderr)
	showVersion, _ := fs.GetBool("version")
	return finish(fs.Name(), err, errors.Is(err, pflag.ErrHelp), showVersion, stdout, stderr, usage)
}

// ParseStd is Parse for a standard library flag set.
func ParseStd(fs *flag.FlagSet, args []string, stdout, stderr io.Writer, usage func(w io.Writer)) (done bool, code int) {
	if fs.Lookup("version") == nil {
		fs.Bool("version", false, "print the version and exit")
	}
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.SetOutput(stderr)
	showVersion := fs.Lookup("version").Value.String() == "true"
	return finish(fs.Name(), err, errors.Is(err, flag.ErrHelp), showVersion, stdout, stderr, usage)
}

func finish(name string, err error, help, showVersion bool, stdout, stderr io.Writer, usage func(io.Writer)) (bool, int) {
	switch {
	case help:
		usage(stdout)
		return true, 0
	case err != nil:
		return true, Fail(stderr, name, err.Error(), usage)
	case showVersion:
		fmt.Fprintf(stdout, "%s %s\n", name, Version())
		return true, 0
	}
	return false, 0
}

// Fail prints "name: why", a blank line and the usage on w, and returns
// ExitUsage: for a wrong command line found after parsing (an unknown
// command, a missing argument).
func Fail(w io.Writer, name, why string, usage func(io.Writer)) int {
	fmt.Fprintf(w, "%s: %s\n\n", name, why)
	usage(w)
	return ExitUsage
}

// Defaults writes a pflag set's flag list to w.
func Defaults(fs *pflag.FlagSet, w io.Writer) {
	out := fs.Output()
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(out)
}

// DefaultsStd writes a standard library flag set's flag list to w.
func DefaultsStd(fs *flag.FlagSet, w io.Writer) {
	out := fs.Output()
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(out)
}
