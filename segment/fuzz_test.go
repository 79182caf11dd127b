package segment

import (
	"bytes"
	"errors"
	"testing"
)

func addSeeds(f *testing.F) {
	f.Add(sampleStream(), uint8(1))
	f.Add([]byte{0x0e, 0, 6, '-', '1', '-', '1', '3', '2'}, uint8(2))
	f.Add([]byte{0x00, 0x00, 0x1e, 'x'}, uint8(3))
	f.Add([]byte{0x05}, uint8(1))
	f.Add([]byte{0x0c, 0x00, 0x0c, '0', '2', '3', '2', '0', '5', '5', '5', '7', '0', '7', '3'}, uint8(5))
}

// FuzzDecoderSplits: feeding any stream in pieces (of a fuzzed size, and a
// byte at a time) yields exactly what feeding it all at once yields.
func FuzzDecoderSplits(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, stream []byte, chunk uint8) {
		whole, errWhole := decodeAll(stream, nil)
		for _, chunks := range [][]int{{1}, {int(chunk%64) + 1}, {int(chunk%7) + 1, int(chunk%13) + 1}} {
			got, err := decodeAll(stream, chunks)
			if (err == nil) != (errWhole == nil) || len(got) != len(whole) {
				t.Fatalf("chunks %v: %d segments err %v; all at once %d err %v", chunks, len(got), err, len(whole), errWhole)
			}
			for i := range got {
				if got[i] != whole[i] {
					t.Fatalf("chunks %v: segment %d differs", chunks, i)
				}
			}
		}
	})
}

// FuzzRoundTrip: every segment the decoder accepts encodes back to the bytes
// it came from, parses to itself, and its coordinate readers never panic.
func FuzzRoundTrip(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, stream []byte, _ uint8) {
		segs, err := decodeAll(stream, nil)
		if err != nil && !errors.Is(err, ErrUnknownType) && !errors.Is(err, ErrLength) {
			t.Fatalf("unexpected error kind: %v", err)
		}
		var out []byte
		for _, s := range segs {
			b := s.AppendTo(nil)
			back, err := Parse(b)
			if err != nil || back != s {
				t.Fatalf("segment %v does not round-trip: %v", s, err)
			}
			out = append(out, b...)
			_ = s.String()
			if c, err := s.Single(); err == nil {
				if back := NewSingle(c, ASCII); back.Len() != 2 {
					t.Fatal("single re-encode")
				}
			}
			if h, tl, err := s.Double(); err == nil {
				d := NewDouble(h, tl, Binary)
				if h2, t2, err := d.Double(); err != nil || h2 != h || t2 != tl {
					t.Fatal("double re-encode")
				}
			}
			if b, err := s.Board(); err == nil {
				if back := NewBoard(b); back.Len() != BoardLen {
					t.Fatal("board re-encode")
				}
			}
		}
		if !bytes.HasPrefix(stream, out) {
			t.Fatalf("re-encoded segments are not a prefix of the input")
		}
	})
}
