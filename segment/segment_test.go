package segment

import (
	"bytes"
	"errors"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want string
		err  error
	}{
		{"info", []byte{0x00, 0x00, 0x06, 'N', 'o', 'v', 'a', 't', 'e'}, `Info "Novate"`, nil},
		{"empty info", []byte{0x00, 0x00, 0x00}, `Info ""`, nil},
		{"passwd masked", []byte{0x02, 0x00, 0x03, '1', '2', '3'}, `Passwd (masked)`, nil},
		{"infoResp", []byte{0x01, 0x00, 0x01, 0x01}, `InfoResp 1 (OK)`, nil},
		{"syncEnd", []byte{0x08, 0x00, 0x00}, `SyncEnd`, nil},
		{"gameOver", []byte{0x0f, 0x00, 0x00}, `GameOver`, nil},
		{"single ascii", []byte{0x0d, 0x00, 0x02, '3', '4'}, `SingleCoord (3,4)`, nil},
		{"single binary", []byte{0x0d, 0x00, 0x02, 3, 4}, `SingleCoord (3,4)`, nil},
		{"double", []byte{0x0e, 0x00, 0x04, '0', '2', '3', '2'}, `DoubleCoord (0,2)-(3,2)`, nil},
		{"double malformed kept", []byte{0x0e, 0x00, 0x06, '-', '1', '-', '1', '3', '2'}, `DoubleCoord (malformed)`, nil},
		{"board", append([]byte{0x0c, 0x00, 0x0c}, "023205557073"...), `Board (0,2)-(3,2) (0,5)-(5,5) (7,0)-(7,3)`, nil},
		{"unused 05", []byte{0x05, 0x00, 0x00}, "", ErrUnknownType},
		{"unknown 11", []byte{0x11, 0x00, 0x00}, "", ErrUnknownType},
		{"unknown ff", []byte{0xff, 0x00, 0x00}, "", ErrUnknownType},
		{"too long", append([]byte{0x00, 0x00, 30}, make([]byte, 30)...), "", ErrLength},
		{"big-endian length high byte", []byte{0x00, 0x01, 0x00}, "", ErrLength},
		{"syncEnd with padding byte", []byte{0x08, 0x00, 0x01, 0x00}, "", ErrLength},
		{"code without payload", []byte{0x0b, 0x00, 0x00}, "", ErrLength},
		{"code with 2 bytes", []byte{0x0b, 0x00, 0x02, 1, 1}, "", ErrLength},
		{"short header", []byte{0x00, 0x00}, "", ErrLength},
		{"length disagrees", []byte{0x00, 0x00, 0x03, 'a'}, "", ErrLength},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse(tt.in)
			if !errors.Is(err, tt.err) {
				t.Fatalf("Parse(% x) error %v, want %v", tt.in, err, tt.err)
			}
			if err != nil {
				return
			}
			if got := s.String(); got != tt.want {
				t.Errorf("Parse(% x) = %s, want %s", tt.in, got, tt.want)
			}
			if out := s.AppendTo(nil); !bytes.Equal(out, tt.in) {
				t.Errorf("AppendTo = % x, want % x", out, tt.in)
			}
		})
	}
}

func TestCoordinates(t *testing.T) {
	b := [6]Coord{{0, 2}, {3, 2}, {0, 5}, {5, 5}, {7, 0}, {7, 3}}
	bs := NewBoard(b)
	if got := bs.AppendTo(nil); !bytes.Equal(got, append([]byte{0x0c, 0, 12}, "023205557073"...)) {
		t.Errorf("board encodes as % x, want ASCII digits", got)
	}
	if back, err := bs.Board(); err != nil || back != b {
		t.Errorf("board round trip: %v %v", back, err)
	}
	single := NewSingle(Coord{9, 0}, Binary)
	if got := single.AppendTo(nil); !bytes.Equal(got, []byte{0x0d, 0, 2, 9, 0}) {
		t.Errorf("binary single encodes as % x", got)
	}
	double := NewDouble(Coord{1, 2}, Coord{4, 2}, ASCII)
	if got := double.AppendTo(nil); !bytes.Equal(got, []byte{0x0e, 0, 4, '1', '2', '4', '2'}) {
		t.Errorf("ascii double encodes as % x", got)
	}
	mixed, _ := Parse([]byte{0x0e, 0, 4, '1', 2, 4, '2'})
	if h, tl, err := mixed.Double(); err != nil || h != (Coord{1, 2}) || tl != (Coord{4, 2}) {
		t.Errorf("mixed encodings: %v %v %v", h, tl, err)
	}
	bad := []struct {
		name string
		in   []byte
	}{
		{"letter", []byte{0x0d, 0, 2, 'a', '1'}},
		{"ten", []byte{0x0d, 0, 2, 10, 1}},
		{"colon", []byte{0x0d, 0, 2, ':', '1'}},
		{"short", []byte{0x0d, 0, 1, '1'}},
		{"reference wrong double", []byte{0x0e, 0, 6, '-', '1', '-', '1', '3', '2'}},
	}
	for _, tt := range bad {
		s, err := Parse(tt.in)
		if err != nil {
			t.Fatalf("%s: framing rejected: %v", tt.name, err)
		}
		var cerr error
		if s.Type == SingleCoord {
			_, cerr = s.Single()
		} else {
			_, _, cerr = s.Double()
		}
		if !errors.Is(cerr, ErrCoord) {
			t.Errorf("%s: err %v, want ErrCoord", tt.name, cerr)
		}
	}
}

func TestNameTruncatesAtMaxPayload(t *testing.T) {
	s := Name(Info, "abcdefghijklmnopqrstuvwxyz0123456789")
	if s.Len() != MaxPayload || s.Size() != MaxSegment {
		t.Fatalf("len %d size %d", s.Len(), s.Size())
	}
}

func TestZeroAllocations(t *testing.T) {
	stream := []byte{}
	for _, s := range []Segment{Name(Info, "Novate"), NewSingle(Coord{3, 4}, ASCII), NewDouble(Coord{0, 2}, Coord{3, 2}, ASCII), Empty(GameOver)} {
		stream = s.AppendTo(stream)
	}
	var d Decoder
	out := make([]byte, 0, 256)
	allocs := testing.AllocsPerRun(1000, func() {
		d.Reset()
		out = out[:0]
		d.Feed(stream, func(s Segment) bool {
			if s.Type == SingleCoord {
				c, _ := s.Single()
				s = NewSingle(c, Binary)
			}
			out = s.AppendTo(out)
			return true
		})
	})
	if allocs != 0 {
		t.Fatalf("decode+encode allocates %.1f times per run, want 0", allocs)
	}
	if len(out) != len(stream) {
		t.Fatalf("re-encoded %d bytes, want %d", len(out), len(stream))
	}
}
