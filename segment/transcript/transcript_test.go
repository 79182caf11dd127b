package transcript

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseLine(t *testing.T) {
	tests := []struct {
		line string
		ok   bool
		want Entry
		err  bool
	}{
		{"", false, Entry{}, false},
		{"   ", false, Entry{}, false},
		{"# a note", true, Entry{Op: Note, Comment: "a note"}, false},
		{"c1 open  # from 192.0.2.1:5", true, Entry{Conn: "c1", Op: Open, Comment: "from 192.0.2.1:5"}, false},
		{"c1 > 00 00 01 41  # Info \"A\"", true, Entry{Conn: "c1", Op: Send, Data: []byte{0, 0, 1, 0x41}}, false},
		{"t=1.500000 c.2 < 08 00 00", true, Entry{At: 1500 * time.Millisecond, Conn: "c.2", Op: Recv, Data: []byte{8, 0, 0}}, false},
		{"c1 > 42", true, Entry{Conn: "c1", Op: Send, Data: []byte{0x42}}, false}, // any bytes may be sent
		{"clock +2m", true, Entry{Op: Clock, Advance: 2 * time.Minute}, false},
		{"store down", true, Entry{Op: StoreDown}, false},
		{"c1 < 42", false, Entry{}, true}, // a '<' line must be one segment
		{"c1 < 08 00 00 08 00 00", false, Entry{}, true},
		{"c1 > 0", false, Entry{}, true},
		{"c1 > zz", false, Entry{}, true},
		{"c1 >", false, Entry{}, true},
		{"c1 open extra", false, Entry{}, true},
		{"c1 jump", false, Entry{}, true},
		{"c/1 open", false, Entry{}, true},
		{"clock 2m", false, Entry{}, true},
		{"clock +-2m", false, Entry{}, true},
		{"store sideways", false, Entry{}, true},
		{"t=x c1 open", false, Entry{}, true},
		{"t=1", false, Entry{}, true},
	}
	for _, tt := range tests {
		e, ok, err := ParseLine(tt.line)
		if (err != nil) != tt.err || err != nil && !errors.Is(err, ErrSyntax) {
			t.Errorf("%q: err %v, want error %v", tt.line, err, tt.err)
			continue
		}
		if ok != tt.ok {
			t.Errorf("%q: ok %v", tt.line, ok)
			continue
		}
		if !ok {
			continue
		}
		if tt.want.At == 0 {
			tt.want.At = -1
		}
		if e.Op != tt.want.Op || e.Conn != tt.want.Conn || e.At != tt.want.At || e.Advance != tt.want.Advance ||
			!bytes.Equal(e.Data, tt.want.Data) || tt.want.Comment != "" && e.Comment != tt.want.Comment {
			t.Errorf("%q: got %+v, want %+v", tt.line, e, tt.want)
		}
	}
}

// TestWriteDescribesSplitSegmentsInContext: a segment split over several
// '>' lines is described where it completes; Parse and Write round-trip.
func TestWriteDescribesSplitSegmentsInContext(t *testing.T) {
	in := "# session\nc1 open\nc1 > 0d\nc1 > 00 02 34\nc1 > 35 0f 00 00\nc1 < 0d 00 02 04 05\nc1 > 02 00 03 31 32 33\nclock +5s\nc1 close\n"
	es, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var masked, shown bytes.Buffer
	Write(&masked, es, false)
	Write(&shown, es, true)
	for _, want := range []string{
		"c1 > 0d  # 1 bytes of an incomplete segment so far",
		"c1 > 35 0f 00 00  # SingleCoord (4,5) (completed); GameOver",
		"c1 < 0d 00 02 04 05  # SingleCoord (4,5)",
		"c1 > 02 00 03 31 32 33  # Passwd (masked)",
		"clock +5s",
	} {
		if !strings.Contains(masked.String(), want) {
			t.Errorf("written transcript lacks %q:\n%s", want, masked.String())
		}
	}
	if !strings.Contains(shown.String(), `Passwd "123"`) {
		t.Error("showPasswords did not show the password")
	}
	back, err := Parse(&masked)
	if err != nil || Diff(es, back) != "" {
		t.Fatalf("round trip: %v\n%s", err, Diff(es, back))
	}
}

func TestDiff(t *testing.T) {
	parse := func(s string) []Entry {
		es, err := Parse(strings.NewReader(s))
		if err != nil {
			t.Fatal(err)
		}
		return es
	}
	want := parse("a open\na > 00 00 01 41\na < 01 00 01 00  # InfoResp 0\n# narration is not compared\na close\n")
	same := parse("t=0.1 a open  # another comment\na > 00 00 01 41\na < 01 00 01 00\na close\n")
	if d := Diff(want, same); d != "" {
		t.Fatalf("time stamps, comments and narration were compared:\n%s", d)
	}
	other := parse("a open\na > 00 00 01 41\na < 01 00 01 04\na close\n")
	d := Diff(want, other)
	if !strings.Contains(d, "- a < 01 00 01 00") || !strings.Contains(d, "+ a < 01 00 01 04") || !strings.Contains(d, "(line 3)") {
		t.Fatalf("diff does not show the change with its line:\n%s", d)
	}
}

// FuzzParse: any text either fails with ErrSyntax or parses into entries
// that write back and parse to the same events.
func FuzzParse(f *testing.F) {
	f.Add("c1 open\nc1 > 00 00 01 41\nc1 < 01 00 01 00\nclock +1s\nstore down\nc1 closed\n")
	f.Add("t=0.5 x > 0d\n# note\nx > 00 02 34 35\n")
	f.Add("c1 < 0e 00 06 2d 31 2d 31 38 37\n")
	f.Fuzz(func(t *testing.T, text string) {
		es, err := Parse(strings.NewReader(text))
		if err != nil {
			if !errors.Is(err, ErrSyntax) && !strings.Contains(err.Error(), "token too long") {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		var b bytes.Buffer
		if err := Write(&b, es, true); err != nil {
			t.Fatal(err)
		}
		back, err := Parse(&b)
		if err != nil {
			t.Fatalf("written transcript does not parse: %v\n%s", err, b.String())
		}
		if d := Diff(es, back); d != "" {
			t.Fatalf("round trip differs:\n%s", d)
		}
	})
}
