package segment

import (
	"bufio"
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

// TestProtocolDocExamples checks the hex examples of docs/protocol.md
// section 8 up to 8.7 (whose golden-transcript examples
// statemachine.TestProtocolExamplesAreGolden checks): each line is one segment, fragments of one message follow each
// other, and the text beside the last segment of a message starts with
// what DescribeMessage says of it.
func TestProtocolDocExamples(t *testing.T) {
	f, err := os.Open("../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in8, inBlock, checked := false, false, 0
	var a Assembler
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			in8 = strings.HasPrefix(line, "## 8.")
		case strings.HasPrefix(line, "### 8.7 "):
			in8 = false
		case in8 && line == "```":
			inBlock = !inBlock
			a.Reset()
		case in8 && inBlock:
			hexPart, desc, ok := strings.Cut(line, "   ")
			if !ok {
				t.Errorf("no description: %q", line)
				continue
			}
			raw, err := hex.DecodeString(strings.ReplaceAll(hexPart, " ", ""))
			if err != nil {
				t.Errorf("%q: %v", line, err)
				continue
			}
			s, err := Parse(raw)
			if err != nil {
				t.Errorf("%q: %v", line, err)
				continue
			}
			ty, body, done, err := a.Add(s)
			if err != nil {
				t.Errorf("%q: %v", line, err)
				continue
			}
			want := s.String()
			if done {
				want = DescribeMessage(ty, body)
			}
			if desc = strings.TrimSpace(desc); !strings.HasPrefix(desc, want) {
				t.Errorf("%q:\n doc says %s\ncode says %s", line, desc, want)
			}
			checked++
		}
	}
	if checked < 40 {
		t.Errorf("only %d examples checked", checked)
	}
}
