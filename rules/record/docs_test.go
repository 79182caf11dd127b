package record

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func readDoc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../../docs/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sameReasons checks that names are exactly Reasons, each once.
func sameReasons(t *testing.T, where string, names []string) {
	t.Helper()
	var want []string
	for _, r := range Reasons {
		want = append(want, string(r))
	}
	got := slices.Clone(names)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s names the reasons %q; record.Reasons is %q", where, names, want)
	}
}

// TestDocsNameTheReasons: every place the docs list why a game ended
// names exactly record.Reasons, and every reason the docs cite by name
// is one of them.
func TestDocsNameTheReasons(t *testing.T) {
	ops := readDoc(t, "operations.md")
	_, section, ok := strings.Cut(ops, "### Recorded games\n")
	if !ok {
		t.Fatal("docs/operations.md has no Recorded games section")
	}
	section, _, _ = strings.Cut(section, "\n\n### ")
	var table []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\|").FindAllStringSubmatch(section, -1) {
		table = append(table, m[1])
	}
	sameReasons(t, "the Recorded games table of docs/operations.md", table)

	metric := regexp.MustCompile("(?m)^\\| `bomber_games_finished_total` .*`reason`: ([a-z_, ]*[a-z_])").FindStringSubmatch(ops)
	if metric == nil {
		t.Fatal("docs/operations.md does not list bomber_games_finished_total's reasons")
	}
	sameReasons(t, "bomber_games_finished_total in docs/operations.md", strings.Split(metric[1], ", "))

	proto := readDoc(t, "protocol.md")
	list := regexp.MustCompile(`(?s)The game is recorded once, with why it ended.*?:\s(.*?)\. A move,`).FindStringSubmatch(proto)
	if list == nil {
		t.Fatal("docs/protocol.md does not list why a game is recorded as ended")
	}
	var named []string
	for _, m := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(list[1], -1) {
		named = append(named, m[1])
	}
	sameReasons(t, "docs/protocol.md's end of a game", named)

	cited := regexp.MustCompile("(?:reason|ends|ends as|recorded as) `([a-z_]+)`|`([a-z_]+)` in the record")
	for _, doc := range []string{"operations.md", "protocol.md", "client.md", "testing.md"} {
		for _, m := range cited.FindAllStringSubmatch(readDoc(t, doc), -1) {
			name := m[1] + m[2]
			if Reason(name).Index() < 0 {
				t.Errorf("docs/%s cites the reason %q, which record.Reasons does not have", doc, name)
			}
		}
	}
}
