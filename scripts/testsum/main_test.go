package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// goJSON is go test -json's stream for two packages: one with a passing
// test that logs, a skipped one and a failing subtest; one that does not
// build.
const goJSON = `{"Action":"start","Package":"example/a"}
{"Action":"run","Package":"example/a","Test":"TestOK"}
{"Action":"output","Package":"example/a","Test":"TestOK","Output":"=== RUN   TestOK\n"}
{"Action":"output","Package":"example/a","Test":"TestOK","Output":"    a_test.go:9: a log of a passing test\n"}
{"Action":"output","Package":"example/a","Test":"TestOK","Output":"--- PASS: TestOK (0.00s)\n"}
{"Action":"pass","Package":"example/a","Test":"TestOK","Elapsed":0}
{"Action":"run","Package":"example/a","Test":"TestMySQL"}
{"Action":"output","Package":"example/a","Test":"TestMySQL","Output":"--- SKIP: TestMySQL (0.00s)\n"}
{"Action":"skip","Package":"example/a","Test":"TestMySQL","Elapsed":0}
{"Action":"run","Package":"example/a","Test":"TestT"}
{"Action":"run","Package":"example/a","Test":"TestT/sub"}
{"Action":"output","Package":"example/a","Test":"TestT/sub","Output":"=== RUN   TestT/sub\n"}
{"Action":"output","Package":"example/a","Test":"TestT/sub","Output":"    a_test.go:20: want 2, got 3\n"}
{"Action":"output","Package":"example/a","Test":"TestT/sub","Output":"    --- FAIL: TestT/sub (0.00s)\n"}
{"Action":"fail","Package":"example/a","Test":"TestT/sub","Elapsed":0}
{"Action":"output","Package":"example/a","Test":"TestT","Output":"--- FAIL: TestT (0.00s)\n"}
{"Action":"fail","Package":"example/a","Test":"TestT","Elapsed":0}
{"Action":"output","Package":"example/a","Output":"FAIL\n"}
{"Action":"output","Package":"example/a","Output":"FAIL\texample/a\t0.01s\n"}
{"Action":"fail","Package":"example/a","Elapsed":0.01}
{"ImportPath":"example/b","Action":"build-output","Output":"b.go:3:1: syntax error\n"}
{"Action":"start","Package":"example/b"}
{"Action":"output","Package":"example/b","Output":"FAIL\texample/b [build failed]\n"}
{"Action":"fail","Package":"example/b","Elapsed":0,"FailedBuild":"example/b"}
{"Action":"start","Package":"example/c"}
{"Action":"run","Package":"example/c","Test":"TestC"}
{"Action":"pass","Package":"example/c","Test":"TestC","Elapsed":0}
{"Action":"output","Package":"example/c","Output":"PASS\n"}
{"Action":"output","Package":"example/c","Output":"ok  \texample/c\t0.02s\n"}
{"Action":"pass","Package":"example/c","Elapsed":0.02}
`

func TestGoTestShownAsWithoutJSONAndCounted(t *testing.T) {
	var out bytes.Buffer
	c := goTest(strings.NewReader(goJSON), &out)
	// TestOK and TestC pass; TestMySQL is skipped; TestT/sub and TestT
	// fail; example/b fails without a test
	if c != (counts{passed: 2, failed: 3, skipped: 1}) {
		t.Errorf("counts %+v, want 2 passed, 3 failed, 1 skipped", c)
	}
	want := "    a_test.go:20: want 2, got 3\n    --- FAIL: TestT/sub (0.00s)\n--- FAIL: TestT (0.00s)\nFAIL\nFAIL\texample/a\t0.01s\n" +
		"b.go:3:1: syntax error\nFAIL\texample/b [build failed]\nok  \texample/c\t0.02s\n" +
		"failed tests, each with its first messages (the whole output is above):\n--- FAIL: TestT/sub (example/a)\n    a_test.go:20: want 2, got 3\n"
	if out.String() != want {
		t.Errorf("shown:\n%s\nwant:\n%s", out.String(), want)
	}
}

// TestFailureRecappedAtTheEnd: a test logs through zaptest, fails, then
// prints a daemon's log as it cleans up, and another package's results
// follow. The end of what is shown (what CI keeps) names the test and its
// failure's first line, and the log's header but none of the logs' lines;
// a test with many messages shows its first four.
func TestFailureRecappedAtTheEnd(t *testing.T) {
	ev := func(test, output string) string {
		b, _ := json.Marshal(event{Action: "output", Package: "example/cluster", Test: test, Output: output})
		return string(b) + "\n"
	}
	stream := ev("TestCut", "    logger.go:146: 2026-11-29T21:14:47.066Z\tINFO\tnode0\ttook the leader lease\n")
	stream += ev("TestCut", "    hosts_test.go:40: host1 did not start:\n")
	for i := range 50 {
		stream += ev("TestCut", fmt.Sprintf("        2026-11-29T20:45:57Z INFO line %d of host1's log\n", i))
	}
	stream += ev("TestCut", "    process_test.go:129: host0's log:\n") + ev("TestCut", "        2026-11-29T20:46:57Z INFO stopped\n")
	stream += ev("TestCut", "--- FAIL: TestCut (66.53s)\n") + `{"Action":"fail","Package":"example/cluster","Test":"TestCut"}` + "\n"
	for i := range 6 {
		stream += ev("TestMany", fmt.Sprintf("    many_test.go:%d: message %d\n", i+1, i))
	}
	stream += `{"Action":"fail","Package":"example/cluster","Test":"TestMany"}` + "\n"
	stream += `{"Action":"output","Package":"example/web","Output":"ok  \texample/web\t196.004s\n"}` + "\n"
	var out bytes.Buffer
	goTest(strings.NewReader(stream), &out)
	_, end, ok := strings.Cut(out.String(), "ok  \texample/web\t196.004s\n")
	if !ok {
		t.Fatalf("no package result in:\n%s", out.String())
	}
	want := "failed tests, each with its first messages (the whole output is above):\n" +
		"--- FAIL: TestCut (example/cluster)\n    hosts_test.go:40: host1 did not start:\n    process_test.go:129: host0's log:\n" +
		"--- FAIL: TestMany (example/cluster)\n    many_test.go:1: message 0\n    many_test.go:2: message 1\n    many_test.go:3: message 2\n    many_test.go:4: message 3\n    ...\n"
	if end != want {
		t.Errorf("the end:\n%s\nwant:\n%s", end, want)
	}
	// a long message is cut, between characters
	long := "    wide_test.go:9: " + strings.Repeat("é", 300) + "\n"
	r := appendRecap(nil, event{Test: "TestWide", Package: "example/a"}, []string{long})
	if got := r[len(r)-1]; len([]rune(got)) != recapWidth+3 || !utf8.ValidString(got) || !strings.HasSuffix(got, "é...") {
		t.Errorf("a long message recapped as %q", got)
	}
}

// nodeSpec is the end of Node's test runner output with the spec reporter.
const nodeSpec = `✔ logs in (12.3ms)
✖ plays (4.5ms)
ℹ tests 9
ℹ suites 0
ℹ pass 6
ℹ fail 1
ℹ cancelled 1
ℹ skipped 0
ℹ todo 1
ℹ duration_ms 812.1
`

func TestNodeOutputCountedFromItsSummary(t *testing.T) {
	var out bytes.Buffer
	if c := nodeTest(strings.NewReader(nodeSpec), &out); c != (counts{passed: 6, failed: 2, skipped: 1}) {
		t.Errorf("spec counts %+v, want 6 passed, 2 failed, 1 skipped", c)
	}
	if out.String() != nodeSpec {
		t.Errorf("the output was not passed through:\n%s", out.String())
	}
	tap := "ok 1 - logs in\n# tests 2\n# pass 2\n# fail 0\n# skipped 0\n"
	if c := nodeTest(strings.NewReader(tap), &out); c != (counts{passed: 2}) {
		t.Errorf("TAP counts %+v, want 2 passed", c)
	}
}

// TestRunsAndTotals runs commands as make test does: the counts of each
// add up to the last line, and a command's failure is testsum's.
func TestRunsAndTotals(t *testing.T) {
	file := filepath.Join(t.TempDir(), "counts")
	stream := filepath.Join(t.TempDir(), "go.json")
	os.WriteFile(stream, []byte(goJSON), 0o644)
	var out, errs bytes.Buffer
	if code := run([]string{"-counts", file, "--", "sh", "-c", "cat " + stream + "; exit 1"}, &out, &errs); code != 1 {
		t.Errorf("go run: exit %d, want the command's 1 (%s)", code, errs.String())
	}
	if code := run([]string{"-counts", file, "-node", "--", "printf", "ℹ pass 4\\nℹ skipped 2\\n"}, &out, &errs); code != 0 {
		t.Errorf("node run: exit %d, want 0 (%s)", code, errs.String())
	}
	// exit 0, yet a test failed: the run fails
	if code := run([]string{"-counts", file, "-node", "--", "printf", "ℹ fail 1\\n"}, &out, &errs); code != 1 {
		t.Errorf("node run with a failure: exit %d, want 1", code)
	}
	// exit 3 with no test reported: one failure
	if code := run([]string{"-counts", file, "--", "sh", "-c", "echo cannot start; exit 3"}, &out, &errs); code != 3 {
		t.Errorf("a command that fails outside its tests: exit %d, want 3", code)
	}
	out.Reset()
	if code := run([]string{"-total", file}, &out, &errs); code != 0 {
		t.Fatalf("-total: exit %d (%s)", code, errs.String())
	}
	want := "make test: 6 passed, 5 failed, 3 skipped (Go 2 passed, 4 failed, 1 skipped; JavaScript 4 passed, 1 failed, 2 skipped)\n"
	if out.String() != want {
		t.Errorf("-total printed %q, want %q", out.String(), want)
	}
}
