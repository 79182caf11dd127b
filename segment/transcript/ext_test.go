package transcript

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/bomber-game/bomber/segment"
)

func hexLine(conn, dir string, segs []segment.Segment) []string {
	var lines []string
	for _, s := range segs {
		lines = append(lines, fmt.Sprintf("%s %s % x", conn, dir, s.AppendTo(nil)))
	}
	return lines
}

func TestParseLineExtended(t *testing.T) {
	for _, line := range []string{
		"c1 < 21 00 07 01 00 00 00 03 04 00",        // Welcome
		"c1 < b6 00 1d" + strings.Repeat(" 00", 29), // View|More: a fragment
		"c1 < 36 00 00", // View, empty last segment
		"c1 > 20 00 05 01 00 00 00 03 30 00 03 00 68 69  # Hello; Chat", // any bytes may be sent
	} {
		if _, ok, err := ParseLine(line); !ok || err != nil {
			t.Errorf("%q: ok %v err %v", line, ok, err)
		}
	}
	for _, line := range []string{
		"c1 < 51 00 00", // unknown
		"c1 < b6 00 1c" + strings.Repeat(" 00", 28), // a fragment must carry 29 bytes
		"c1 < a2 00 1d" + strings.Repeat(" 00", 29), // CatalogReq (cap 0) has no fragments
		"c1 < 2b 00 13" + strings.Repeat(" 00", 19), // Move over its cap of 18
	} {
		if _, _, err := ParseLine(line); !errors.Is(err, ErrSyntax) {
			t.Errorf("%q: err %v, want a syntax error", line, err)
		}
	}
}

// TestWriteDescribesExtendedMessages: a written transcript comments each
// extended segment readably, and describes a fragmented message whole at
// its last segment, in both directions.
func TestWriteDescribesExtendedMessages(t *testing.T) {
	hello := segment.AppendMessage(nil, segment.Hello, segment.HelloMsg{Version: 1, Features: 3}.Append(nil))
	chat := segment.AppendMessage(nil, segment.Chat, segment.ChatBody{Scope: segment.ScopeLobby, Text: strings.Repeat("ab", 20)}.Append(nil))
	table := segment.AppendMessage(nil, segment.TableInfo, segment.TableBody{ID: 7, Game: "dots", Seats: []segment.SeatInfo{{Name: "Albert", Flags: segment.SeatReady}, {Name: "Beth"}}}.Append(nil))
	errMsg := segment.AppendMessage(nil, segment.ErrorMsg, segment.ErrorBody{Req: segment.Join, Code: segment.ErrCodeTableFull, Text: "full"}.Append(nil))
	lines := []string{"a open"}
	lines = append(lines, hexLine("a", ">", hello)...)
	lines = append(lines, hexLine("a", ">", chat)...)
	lines = append(lines, hexLine("a", "<", table)...)
	lines = append(lines, hexLine("a", "<", errMsg)...)
	lines = append(lines, "b open", "b > 30 00 03 00 68 69") // no Hello: closed as unknown
	es, err := Parse(strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(&b, es, false); err != nil {
		t.Fatal(err)
	}
	out := strings.Split(strings.TrimSpace(b.String()), "\n")
	want := []string{
		"",
		"# Hello version=1 features=3",
		"# Chat|More (29 bytes, more follows)",
		`# Chat scope=0 text="` + strings.Repeat("ab", 20) + `" (41 bytes in 2 segments)`,
		"# Table|More (29 bytes, more follows)",
		`# Table id=7 game="dots" flags=0 phase=0 watchers=0 code="" seats=[{name="Albert" flags=1} {name="Beth" flags=0}] options=[] (30 bytes in 2 segments)`,
		`# Error req=Join code=3 text="full"`,
		"",
		"# protocol error: unknown segment descriptor 0x30",
	}
	if len(out) != len(want) {
		t.Fatalf("%d lines:\n%s", len(out), b.String())
	}
	for i, w := range want {
		if !strings.HasSuffix(out[i], w) {
			t.Errorf("line %d: %s\nwant suffix %s", i+1, out[i], w)
		}
	}
}
