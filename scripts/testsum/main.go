// Command testsum runs one test command of make test and counts its tests,
// so that make test can end with one line of totals for Go and JavaScript.
//
//	testsum -counts FILE -- go test -json ./...      Go: shown as go test shows it without -json
//	testsum -counts FILE -node -- node --test ...    Node's test runner: shown as it is
//	testsum -total FILE                              the sum of FILE, one line
//
// A go test -json stream is shown as plain go test shows it: each package's
// result line, and the output of the tests that failed (a passing test's
// logs are left out); then, when tests failed, a recap of each one's first
// messages (a failure's own line is often far above the end, before the
// logs a test prints as it cleans up, and CI keeps the end). Node's output
// passes through unchanged and is counted from its summary ("ℹ pass 3"
// with the spec reporter, "# pass 3" with TAP).
// Each run appends "LANGUAGE PASSED FAILED SKIPPED" to FILE. testsum exits
// with the command's status, or 1 when it counted a failure the command's
// status did not report.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// counts are one run's tests by outcome.
type counts struct{ passed, failed, skipped int }

func (c *counts) add(o counts) {
	c.passed, c.failed, c.skipped = c.passed+o.passed, c.failed+o.failed, c.skipped+o.skipped
}

func (c counts) String() string {
	return fmt.Sprintf("%d passed, %d failed, %d skipped", c.passed, c.failed, c.skipped)
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("testsum", flag.ContinueOnError)
	fs.SetOutput(stderr)
	file := fs.String("counts", "", "append this run's counts to `FILE`")
	node := fs.Bool("node", false, "the command is Node's test runner (default: go test -json)")
	total := fs.String("total", "", "print the sum of the counts in `FILE` and exit")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *total != "" {
		line, err := totals(*total)
		if err != nil {
			fmt.Fprintln(stderr, "testsum:", err)
			return 2
		}
		fmt.Fprintln(stdout, line)
		return 0
	}
	if fs.NArg() == 0 || *file == "" {
		fmt.Fprintln(stderr, "usage: testsum -counts FILE [-node] -- COMMAND [ARG...] | testsum -total FILE")
		return 2
	}
	cmd := exec.Command(fs.Arg(0), fs.Args()[1:]...)
	cmd.Stdin, cmd.Stderr = os.Stdin, stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(stderr, "testsum:", err)
		return 2
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(stderr, "testsum:", err)
		return 2
	}
	lang, filter := "Go", goTest
	if *node {
		lang, filter = "JavaScript", nodeTest
	}
	c := filter(out, stdout)
	status := 0
	var exit *exec.ExitError
	if err := cmd.Wait(); errors.As(err, &exit) {
		status = exit.ExitCode()
	} else if err != nil {
		fmt.Fprintln(stderr, "testsum:", err)
		status = 2
	}
	if status != 0 && c.failed == 0 {
		c.failed = 1 // it failed outside any test it reported (a crash, a usage error)
	}
	if status == 0 && c.failed > 0 {
		status = 1
	}
	if err := appendCounts(*file, lang, c); err != nil {
		fmt.Fprintln(stderr, "testsum:", err)
		return 2
	}
	return status
}

// event is one line of go test -json (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// goTest shows a go test -json stream as go test shows it without -json
// and counts its tests, subtests included. A package that fails outside
// any test (a build failure, TestMain) counts as one failure.
func goTest(r io.Reader, w io.Writer) counts {
	var c counts
	held := map[string][]string{} // a running test's output, until it ends
	failedTests := map[string]int{}
	var recap []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			fmt.Fprintln(w, sc.Text()) // not an event: go's own messages
			continue
		}
		key := e.Package + " " + e.Test
		switch {
		case e.Action == "build-output":
			io.WriteString(w, e.Output)
		case e.Action == "output" && e.Test != "":
			held[key] = append(held[key], e.Output)
		case e.Action == "output":
			if e.Output != "PASS\n" && !strings.HasPrefix(e.Output, "=== ") {
				io.WriteString(w, e.Output)
			}
		case e.Test != "" && (e.Action == "pass" || e.Action == "skip"):
			if e.Action == "pass" {
				c.passed++
			} else {
				c.skipped++
			}
			delete(held, key)
		case e.Test != "" && e.Action == "fail":
			c.failed++
			failedTests[e.Package]++
			for _, line := range held[key] {
				if !strings.HasPrefix(line, "=== ") {
					io.WriteString(w, line)
				}
			}
			recap = appendRecap(recap, e, held[key])
			delete(held, key)
		case e.Test == "" && e.Action == "fail" && failedTests[e.Package] == 0:
			c.failed++
		}
	}
	if len(recap) > 0 {
		fmt.Fprintln(w, "failed tests, each with its first messages (the whole output is above):")
		for _, line := range recap {
			fmt.Fprintln(w, line)
		}
	}
	return c
}

// A message's first line as testing prints it ("    file_test.go:12: ...",
// indented deeper in subtests), or a panic's; and a message that is a
// logger's line (zaptest's: "logger.go:146: 2026-11-29T21:14:47.066Z INFO
// ..."), which tells what the code did rather than how the test failed.
var (
	messageHead = regexp.MustCompile(`^\s+[\w.-]+\.go:\d+: |^panic: `)
	logLine     = regexp.MustCompile(`^\s+[\w.-]+\.go:\d+: \d{4}-\d\d-\d\d[T ]`)
)

// Recap limits: messages a test, and characters a message line.
const recapMessages, recapWidth = 4, 240

// appendRecap appends failed test e's recap to recap: its name and
// package, then the first line of each of its first messages (a message's
// further lines, such as a log it quotes, are left out). A test that
// failed with no message of its own, only by a subtest already there, is
// left out.
func appendRecap(recap []string, e event, output []string) []string {
	var msgs []string
	for _, line := range output {
		if !messageHead.MatchString(line) || logLine.MatchString(line) {
			continue
		}
		if len(msgs) == recapMessages {
			msgs = append(msgs, "    ...")
			break
		}
		line = "    " + strings.TrimSpace(line)
		if r := []rune(line); len(r) > recapWidth {
			line = string(r[:recapWidth]) + "..."
		}
		msgs = append(msgs, line)
	}
	sub := fmt.Sprintf("--- FAIL: %s/", e.Test)
	if len(msgs) == 0 && slices.ContainsFunc(recap, func(l string) bool { return strings.HasPrefix(l, sub) }) {
		return recap
	}
	return append(append(recap, fmt.Sprintf("--- FAIL: %s (%s)", e.Test, e.Package)), msgs...)
}

// nodeSummary matches the summary lines of Node's spec and TAP reporters.
var nodeSummary = regexp.MustCompile(`^(?:ℹ|#) (pass|fail|cancelled|skipped|todo) (\d+)$`)

// nodeTest copies Node's test runner output and counts its summary: a
// cancelled test is a failure, a todo one is skipped.
func nodeTest(r io.Reader, w io.Writer) counts {
	var c counts
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		fmt.Fprintln(w, line)
		m := nodeSummary.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		switch m[1] {
		case "pass":
			c.passed += n
		case "fail", "cancelled":
			c.failed += n
		case "skipped", "todo":
			c.skipped += n
		}
	}
	return c
}

func appendCounts(file, lang string, c counts) error {
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "%s %d %d %d\n", lang, c.passed, c.failed, c.skipped)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// totals is make test's last line: the sum of every run in file, then the
// sum by language.
func totals(file string) (string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	var all counts
	by := map[string]*counts{}
	var langs []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var lang string
		var c counts
		if _, err := fmt.Sscanf(line, "%s %d %d %d", &lang, &c.passed, &c.failed, &c.skipped); err != nil {
			return "", fmt.Errorf("%s: bad line %q", file, line)
		}
		if by[lang] == nil {
			by[lang] = &counts{}
			langs = append(langs, lang)
		}
		by[lang].add(c)
		all.add(c)
	}
	var parts []string
	for _, l := range langs {
		parts = append(parts, l+" "+by[l].String())
	}
	return fmt.Sprintf("make test: %v (%s)", all, strings.Join(parts, "; ")), nil
}
