package main

import (
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
)

// helpFlags are the flags the Flags section of --help describes, each as
// often as it appears at the start of a line there.
func helpFlags(t *testing.T, help string) map[string]int {
	t.Helper()
	_, section, ok := strings.Cut(help, "\nFlags:\n")
	if !ok {
		t.Fatalf("--help has no Flags section:\n%s", help)
	}
	section, _, _ = strings.Cut(section, "\n\n")
	got := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^\s+(?:-h, )?--([a-z]+)`).FindAllStringSubmatch(section, -1) {
		got[m[1]]++
	}
	return got
}

// TestHelpMatchesTheFlagSet: --help describes every flag the command line
// accepts exactly once, and no flag it does not accept.
func TestHelpMatchesTheFlagSet(t *testing.T) {
	var out, errb strings.Builder
	if _, done, code := parseFlags([]string{"--help"}, &out, &errb); !done || code != 0 {
		t.Fatalf("--help: done %v code %d stderr %q", done, code, errb.String())
	}
	got := helpFlags(t, out.String())
	var cfg config
	fs, _ := flagSet(&cfg)
	want := map[string]bool{"help": true, "version": true}
	fs.VisitAll(func(f *flag.Flag) { want[f.Name] = true })
	for name := range want {
		if got[name] != 1 {
			t.Errorf("--help describes --%s %d times, want once", name, got[name])
		}
	}
	for name := range got {
		if !want[name] {
			t.Errorf("--help describes --%s, which is no flag", name)
		}
	}
}

// TestHelpListsTheTablesKeys: the keys of bomber --tables are in --help
// too, not only in docs/client.md.
func TestHelpListsTheTablesKeys(t *testing.T) {
	var out, errb strings.Builder
	parseFlags([]string{"--help"}, &out, &errb)
	help := out.String()
	_, tables, ok := strings.Cut(help, "Keys (--tables):")
	if !ok {
		t.Fatalf("--help has no keys for --tables:\n%s", help)
	}
	for _, k := range []string{"w watch", "J ", "c create", "tab ", "R R", "M ", "v replay", "b ", ": or m", "y / n", "home/end"} {
		if !strings.Contains(tables, k) {
			t.Errorf("the --tables keys of --help lack %q", k)
		}
	}
}

// TestClientDocListsEveryFlag: the flags table of docs/client.md has a row
// for every flag.
func TestClientDocListsEveryFlag(t *testing.T) {
	doc, err := os.ReadFile("../../docs/client.md")
	if err != nil {
		t.Fatal(err)
	}
	var cfg config
	fs, _ := flagSet(&cfg)
	fs.VisitAll(func(f *flag.Flag) {
		if !regexp.MustCompile("(?m)^\\| `--" + f.Name + "[ `]").Match(doc) {
			t.Errorf("docs/client.md's flags table has no row for --%s", f.Name)
		}
	})
}
