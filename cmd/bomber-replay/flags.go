package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/bomber-game/bomber/cmd/internal/cli"
)

// options are the parsed flags.
type options struct {
	addr      string
	inprocess bool
	recorded  bool
	ignore    ignoreSet
	accounts  string
	masked    bool
	timeout   time.Duration
	records   listFlag // --record files: game records (JSON), not transcripts
	store     string   // --store DRIVER:WHERE: replay records from an account store
	ids       []uint64 // --id: which stored records (default: the newest MaxGames)
}

// recordMode: the command replays game records rather than transcripts.
func (o options) recordMode() bool { return len(o.records) > 0 || o.store != "" }

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }
func (l *listFlag) String() string     { return strings.Join(*l, " ") }

// idFlag is a repeatable game id flag.
type idFlag struct{ ids *[]uint64 }

func (f idFlag) Set(v string) error {
	id, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return fmt.Errorf("%q is not a game id", v)
	}
	*f.ids = append(*f.ids, id)
	return nil
}

func (f idFlag) String() string {
	if f.ids == nil {
		return ""
	}
	return fmt.Sprint(*f.ids)
}

// errUsage: the command line is wrong (the flag package has printed why).
var errUsage = errors.New("usage")

// ignoreSet is the parsed --ignore names.
type ignoreSet struct {
	names    []string // as given, for netreplay
	types    map[byte]bool
	closed   bool
	order    bool
	unopened bool
}

// Set parses one --ignore NAME.
func (ig *ignoreSet) Set(name string) error {
	switch {
	case name == "closed":
		ig.closed = true
	case name == "order":
		ig.order = true
	case name == "unopened":
		ig.unopened = true
	case strings.HasPrefix(name, "types:"):
		list := strings.TrimPrefix(name, "types:")
		if list == "" {
			return fmt.Errorf("types: wants descriptors, e.g. types:0x06,0x07")
		}
		for _, t := range strings.Split(list, ",") {
			v, err := strconv.ParseUint(strings.TrimSpace(t), 0, 8)
			if err != nil {
				return fmt.Errorf("types: %q is not a descriptor byte (write 0x06)", t)
			}
			if ig.types == nil {
				ig.types = map[byte]bool{}
			}
			ig.types[byte(v)] = true
		}
		// netreplay reads exactly "0x%02x"
		var norm []string
		for b := range 256 {
			if ig.types[byte(b)] {
				norm = append(norm, fmt.Sprintf("0x%02x", b))
			}
		}
		name = "types:" + strings.Join(norm, ",")
	default:
		return fmt.Errorf("unknown name %q (want types:0x..,0x.., closed, order or unopened)", name)
	}
	ig.names = append(ig.names, name)
	return nil
}

func (ig *ignoreSet) String() string { return strings.Join(ig.names, " ") }

// errDone: --help or --version was answered; exit 0.
var errDone = errors.New("done")

func parseArgs(args []string, stdout, stderr io.Writer) (options, []string, error) {
	var opt options
	var timing string
	fs := flag.NewFlagSet("bomber-replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&opt.addr, "addr", "", "drive the running server at `host:port`")
	fs.BoolVar(&opt.inprocess, "inprocess", false, "run the state machine in-process (default without --addr)")
	fs.StringVar(&timing, "timing", "fast", "`fast` or recorded (keep the t= time stamps)")
	fs.Var(&opt.ignore, "ignore", "do not report this kind of difference: types:0x06,0x07, closed, order, unopened (repeatable)")
	fs.StringVar(&opt.accounts, "accounts", "", "in-process accounts `file`: one \"user password\" per line (default: demo accounts, password 123)")
	fs.BoolVar(&opt.masked, "masked", false, "passwords in the transcripts are masked with '*'; compare with masked account passwords")
	fs.DurationVar(&opt.timeout, "timeout", 2*time.Second, "over TCP, how long to wait for one step's answers")
	fs.Var(&opt.records, "record", "replay the game record(s) in this JSON `file` (bomberctl games export ID --json) through the rules (repeatable)")
	fs.StringVar(&opt.store, "store", "", "replay game records from this account store: sqlite:`PATH` or mysql:DSN")
	fs.Var(idFlag{&opt.ids}, "id", "with --store: the record with this `id` (repeatable; default: the newest 1000)")
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "usage: bomber-replay [--addr host:port | --inprocess] [--timing fast|recorded] [--ignore NAME]... [--accounts FILE] [--masked] FILE|DIR...")
		fmt.Fprintln(w, "       bomber-replay [--record FILE.json]... [--store sqlite:PATH|mysql:DSN [--id ID]...]")
		cli.DefaultsStd(fs, w)
	}
	// flags may come before, between or after the files
	var paths []string
	for {
		if done, code := cli.ParseStd(fs, args, stdout, stderr, usage); done {
			if code == 0 {
				return opt, nil, errDone
			}
			return opt, nil, errUsage
		}
		if fs.NArg() == 0 {
			break
		}
		paths = append(paths, fs.Arg(0))
		args = fs.Args()[1:]
	}
	bad := func(format string, a ...any) (options, []string, error) {
		cli.Fail(stderr, "bomber-replay", fmt.Sprintf(format, a...), usage)
		return opt, nil, errUsage
	}
	switch timing {
	case "fast":
	case "recorded":
		opt.recorded = true
	default:
		return bad("--timing wants fast or recorded, not %q", timing)
	}
	if opt.addr != "" && opt.inprocess {
		return bad("--addr and --inprocess exclude each other")
	}
	if opt.addr != "" && (opt.accounts != "" || opt.masked) {
		return bad("--accounts and --masked are for in-process replays; a running server has its own accounts")
	}
	opt.inprocess = opt.addr == ""
	if opt.recordMode() {
		if len(paths) > 0 || opt.addr != "" {
			return bad("game records (--record, --store) are replayed on their own, without transcripts or --addr")
		}
		if len(opt.ids) > 0 && opt.store == "" {
			return bad("--id needs --store")
		}
		return opt, nil, nil
	}
	if len(opt.ids) > 0 {
		return bad("--id needs --store")
	}
	if len(paths) == 0 {
		return bad("no transcripts given")
	}
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			fmt.Fprintf(stderr, "bomber-replay: %v\n", err)
			return opt, nil, err
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		m, _ := filepath.Glob(filepath.Join(p, "*.txt"))
		if len(m) == 0 {
			fmt.Fprintf(stderr, "bomber-replay: no *.txt in %s\n", p)
			return opt, nil, errUsage
		}
		files = append(files, m...)
	}
	return opt, files, nil
}
