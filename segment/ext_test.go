package segment

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// assigned lists every extended message type of v1 with its cap, as the
// spec's table gives them.
var assigned = map[Type]int{
	Hello: 29, Welcome: 29, CatalogReq: 0, GameInfo: 1024, Create: 256, ListReq: 0, Join: 64,
	Watch: 64, Leave: 0, Invite: 32, Ready: 0, Move: 18, MoveText: 64, ViewReq: 0, Offer: 8,
	Resign: 0, Chat: 300, TableInfo: 512, Joined: 29, Started: 64, StepMsg: 29, Moved: 96,
	ViewMsg: 1024, GameEnd: 128, ErrorMsg: 64, ChatMsg: 340, Invited: 96, Commit: 64, Ack: 29,
	Bot: 1, Seated: 29, Resume: 29, Clock: 64, Away: 29, Bye: 0, Ping: 4, Pong: 4, SignUp: 64, Legal: 1024, Seek: 256, Seeking: 256,
	HistoryReq: 64, RatingRow: 96, GameRow: 200, ReplayReq: 10, Replay: 512, Account: 64, HintReq: 29, Hints: 1024,
}

func TestExtendedDescriptors(t *testing.T) {
	for d := 0; d < 256; d++ {
		ty := Type(d)
		wantCap, ok := assigned[ty]
		base, isBase := assigned[ty.Base()]
		frag := ty&More != 0 && isBase
		capWant := -1
		if ok || frag {
			capWant = base
		}
		if got := MessageCap(ty); got != capWant {
			t.Errorf("MessageCap(%#x) = %d, want %d", d, got, capWant)
		}
		if ty.KnownExtended() != (ok || frag) {
			t.Errorf("%#x KnownExtended = %v", d, ty.KnownExtended())
		}
		if ty.Extended() != (d&0x7f >= 0x20 && d&0x7f <= 0x50) {
			t.Errorf("%#x Extended = %v", d, ty.Extended())
		}
		if ty.Extended() && ty.Known() {
			t.Errorf("%#x is both a reference and an extended type", d)
		}
		for n := 0; n <= 40; n++ {
			err := CheckHeader(ty, n)
			switch {
			case ok:
				if (err == nil) != (n <= min(29, wantCap)) {
					t.Errorf("CheckHeader(%v, %d) = %v", ty, n, err)
				}
			case frag:
				if (err == nil) != (n == 29 && base > 29) {
					t.Errorf("CheckHeader(%v, %d) = %v", ty, n, err)
				}
				if err != nil && !errors.Is(err, ErrLength) {
					t.Errorf("CheckHeader(%v, %d) = %v, want ErrLength", ty, n, err)
				}
			case !ty.Known():
				if !errors.Is(err, ErrUnknownType) {
					t.Errorf("CheckHeader(%#x, %d) = %v, want unknown", d, n, err)
				}
			}
		}
	}
	if s := Type(0x51).String(); s != "Type(0x51)" {
		t.Errorf("0x51 prints as %s", s)
	}
	if GameInfo.String() != "Game" || (ViewMsg|More).String() != "View|More" {
		t.Errorf("names: %v %v", GameInfo, ViewMsg|More)
	}
}

// TestDocExamples checks every hex example beside the extended constants
// in ext.go, seats.go, history.go and legal.go: it parses as one segment whose type is the one the comment
// names, and single-segment messages decode.
func TestDocExamples(t *testing.T) {
	a, err := os.ReadFile("ext.go")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("seats.go")
	if err != nil {
		t.Fatal(err)
	}
	c, err := os.ReadFile("history.go")
	if err != nil {
		t.Fatal(err)
	}
	d, err := os.ReadFile("legal.go")
	if err != nil {
		t.Fatal(err)
	}
	f := bytes.NewReader(slices.Concat(a, b, c, d))
	example := regexp.MustCompile(`^\t//   ((?:[0-9a-f]{2}(?:×[0-9]+)?(?: |$))+)\s*(?:\((?:C→S|S→C)\)\s+)?(\S*)`)
	sc := bufio.NewScanner(f)
	count := 0
	for sc.Scan() {
		m := example.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		var raw []byte
		for _, tok := range strings.Fields(m[1]) {
			h, rep, _ := strings.Cut(tok, "×")
			b, _ := hex.DecodeString(h)
			n := 1
			if rep != "" {
				n, _ = strconv.Atoi(rep)
			}
			raw = append(raw, bytes.Repeat(b, n)...)
		}
		s, err := Parse(raw)
		if err != nil {
			t.Errorf("%q: %v", sc.Text(), err)
			continue
		}
		count++
		name := m[2]
		if name == "" && sc.Scan() { // the description continues on the next line
			name = strings.Fields(strings.TrimPrefix(strings.TrimSpace(sc.Text()), "//"))[0]
		}
		if name != s.Type.String() {
			t.Errorf("%q: comment names %q, bytes are %v", sc.Text(), name, s.Type)
		}
		if s.Type.KnownExtended() && !s.Type.Fragment() && MessageCap(s.Type) <= MaxPayload {
			if _, err := DecodeMessage(s.Type, s.Payload()); err != nil {
				t.Errorf("%q: %v", sc.Text(), err)
			}
		}
	}
	if count < len(assigned) {
		t.Errorf("%d examples for %d types", count, len(assigned))
	}
}
