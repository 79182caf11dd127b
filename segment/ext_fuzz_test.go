package segment

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

// rawSegments reads a fuzz input as segments without any framing check:
// descriptor, length byte (mod 30), that many payload bytes. It builds
// what a hostile peer could make a decoder emit, and more.
func rawSegments(in []byte) []Segment {
	var out []Segment
	for len(in) >= 2 {
		s := Segment{Type: Type(in[0]), n: in[1] % (MaxPayload + 1)}
		in = in[2:]
		n := copy(s.data[:s.n], in)
		s.n = uint8(n)
		in = in[n:]
		out = append(out, s)
	}
	return out
}

// streamOf is the rawSegments form of segs.
func streamOf(segs []Segment) []byte {
	var b []byte
	for _, s := range segs {
		b = append(append(b, byte(s.Type), s.n), s.Payload()...)
	}
	return b
}

func addAssemblerSeeds(f *testing.F) {
	var all []Segment
	for _, m := range samples() {
		all = AppendMessage(all, m.Type(), m.Append(nil))
	}
	f.Add(streamOf(all))
	f.Add(streamOf(frags(ViewMsg, 36*29+1)))
	f.Add(streamOf(append(frags(Chat, 40)[:1], Name(Info, "x"))))
	f.Add(streamOf([]Segment{{Type: Chat | More, n: 28}}))
}

// FuzzAssembler: any stream of segments never panics the assembler, never
// makes it buffer past the cap of the message in progress, and every
// message it completes re-fragments to exactly the segments it came in.
func FuzzAssembler(f *testing.F) {
	addAssemblerSeeds(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		var a Assembler
		var since []Segment // segments of the message in progress
		for _, s := range rawSegments(in) {
			since = append(since, s)
			ty, body, done, err := a.Add(s)
			if err != nil {
				if !errors.Is(err, ErrFragment) && !errors.Is(err, ErrUnknownType) && !errors.Is(err, ErrLength) {
					t.Fatalf("unexpected error kind: %v", err)
				}
				if _, _, _, again := a.Add(Empty(GameOver)); again == nil {
					t.Fatal("assembler went on after an error")
				}
				return
			}
			if a.Pending() {
				if c := MessageCap(since[0].Type.Base()); a.Buffered() > c || cap(a.buf) > MaxMessage {
					t.Fatalf("buffered %d (buffer %d) for a cap of %d", a.Buffered(), cap(a.buf), c)
				}
			}
			if !done {
				continue
			}
			want := []Segment{s}
			if ty.Extended() {
				want = AppendMessage(nil, ty, body)
			} else if ty != s.Type || !bytes.Equal(body, s.Payload()) {
				t.Fatalf("reference segment %v came out as %v % x", s, ty, body)
			}
			if !reflect.DeepEqual(want, since) {
				t.Fatalf("%v message of %d bytes re-fragments to %v, came as %v", ty, len(body), want, since)
			}
			since = since[:0]
		}
	})
}

func addBodySeeds(f *testing.F) {
	for _, m := range samples() {
		f.Add(uint8(m.Type()-extFirst), m.Append(nil))
	}
	f.Add(uint8(GameInfo-extFirst), []byte{1, 'g', 2, 2, 255, 0, 0})
	f.Add(uint8(Move-extFirst), []byte{1, 17})
}

// FuzzBodies: no body makes a decoder panic, and what decodes encodes back
// to the same bytes and decodes to the same value again.
func FuzzBodies(f *testing.F) {
	addBodySeeds(f)
	f.Fuzz(func(t *testing.T, tb uint8, body []byte) {
		ty := extFirst + Type(tb%32)
		m, err := DecodeMessage(ty, body)
		_ = DescribeMessage(ty, body)
		if err != nil {
			if !errors.Is(err, ErrBody) && !errors.Is(err, ErrUnknownType) {
				t.Fatalf("%v: unexpected error kind: %v", ty, err)
			}
			return
		}
		if m.Type() != ty {
			t.Fatalf("%v decoded as %T", ty, m)
		}
		out, err := m.Encode(nil)
		if err != nil {
			t.Fatalf("%v: decoded %#v does not encode: %v", ty, m, err)
		}
		if !bytes.Equal(out, body) {
			t.Fatalf("%v: % x re-encodes as % x", ty, body, out)
		}
		again, err := DecodeMessage(ty, out)
		if err != nil || !reflect.DeepEqual(again, m) {
			t.Fatalf("%v: second decode %#v, %v; first %#v", ty, again, err, m)
		}
	})
}
