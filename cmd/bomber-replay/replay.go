package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/bomber-game/bomber/netreplay"
	"github.com/bomber-game/bomber/segment/transcript"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// outcome of one transcript.
type outcome int

const (
	passed outcome = iota
	failed
	broken // could not be read or replayed
)

func replayAll(opt options, files []string, stdout, stderr io.Writer) int {
	accounts := replay.DemoAccounts()
	if opt.accounts != "" {
		var err error
		if accounts, err = readAccounts(opt.accounts); err != nil {
			fmt.Fprintf(stderr, "bomber-replay: %v\n", err)
			return exitUsage
		}
	}
	if opt.masked {
		for u, p := range accounts {
			accounts[u] = strings.Repeat("*", len(p))
		}
	}
	var n [3]int
	for _, f := range files {
		o, report := replayFile(opt, accounts, f)
		n[o]++
		switch o {
		case passed:
			fmt.Fprintf(stdout, "PASS %s\n", f)
		case failed:
			fmt.Fprintf(stdout, "FAIL %s (- recorded, + actual)\n%s", f, indent(report))
		case broken:
			fmt.Fprintf(stdout, "ERROR %s: %s\n", f, report)
		}
	}
	summary := fmt.Sprintf("%d passed, %d failed", n[passed], n[failed])
	if n[broken] > 0 {
		summary += fmt.Sprintf(", %d could not be replayed", n[broken])
	}
	fmt.Fprintln(stdout, summary)
	switch {
	case n[broken] > 0:
		return exitUsage
	case n[failed] > 0:
		return exitDiff
	}
	return exitOK
}

// replayFile replays one transcript and returns the readable report of its
// differences, or of why it could not be replayed.
func replayFile(opt options, accounts replay.Accounts, file string) (outcome, string) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return broken, err.Error()
	}
	entries, err := transcript.Parse(bytes.NewReader(raw))
	if err != nil {
		return broken, err.Error()
	}
	if opt.ignore.unopened {
		entries = dropUnopened(entries)
	}
	if !opt.inprocess {
		diffs, err := netreplay.Run(context.Background(), entries, netreplay.Options{
			Addr:       opt.addr,
			Timeout:    opt.timeout,
			AsRecorded: opt.recorded,
			Ignore:     opt.ignore.names,
		})
		if err != nil {
			return broken, err.Error()
		}
		if len(diffs) > 0 {
			return failed, netreplay.Format(diffs)
		}
		return passed, ""
	}
	cfg, err := replay.ConfigFromNotes(entries)
	if err != nil {
		return broken, err.Error()
	}
	got := runInProcess(cfg, accounts, entries, opt.recorded)
	if d := compare(entries, got, opt.ignore); d != "" {
		return failed, d
	}
	return passed, ""
}

// dropUnopened removes the events of connections that have no open line,
// as at the start of a rotated capture file.
func dropUnopened(es []transcript.Entry) []transcript.Entry {
	opened := map[string]bool{}
	for _, e := range es {
		if e.Op == transcript.Open {
			opened[e.Conn] = true
		}
	}
	return slices.DeleteFunc(slices.Clone(es), func(e transcript.Entry) bool {
		return e.Conn != "" && !opened[e.Conn]
	})
}

// compare diffs the recorded and the actual events after dropping what
// the ignore set names; with "order" each connection is compared alone.
func compare(want, got []transcript.Entry, ig ignoreSet) string {
	keep := func(es []transcript.Entry) []transcript.Entry {
		return slices.DeleteFunc(transcript.Events(es), ig.skip)
	}
	want, got = keep(want), keep(got)
	if !ig.order {
		return transcript.Diff(want, got)
	}
	return transcript.DiffByConn(want, got)
}

// skip reports whether an event is left out of the comparison.
func (ig ignoreSet) skip(e transcript.Entry) bool {
	switch e.Op {
	case transcript.Closed:
		return ig.closed
	case transcript.Recv:
		return len(e.Data) > 0 && ig.types[e.Data[0]]
	}
	return false
}

func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString("    " + l)
		}
	}
	return b.String()
}

// readAccounts reads "user password" lines; blank lines and lines starting
// with '#' are skipped. The password is the rest of the line after the
// first run of blanks, so it may hold spaces inside.
func readAccounts(file string) (replay.Accounts, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	a := replay.Accounts{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		user, pw := line, ""
		if i := strings.IndexAny(line, " \t"); i >= 0 {
			user, pw = line[:i], strings.TrimLeft(line[i:], " \t")
		}
		a[user] = pw
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(a) == 0 {
		return nil, fmt.Errorf("%s: no accounts", file)
	}
	return a, nil
}
