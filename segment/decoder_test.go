package segment

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
)

// decodeAll feeds stream to a fresh decoder in chunks of the given sizes
// (cycled) and returns the segments and the protocol error, if any.
func decodeAll(stream []byte, chunks []int) ([]Segment, error) {
	var d Decoder
	var segs []Segment
	for i := 0; len(stream) > 0; i++ {
		n := len(stream)
		if len(chunks) > 0 {
			n = min(chunks[i%len(chunks)], len(stream))
		}
		p := stream[:n]
		stream = stream[n:]
		took, err := d.Feed(p, func(s Segment) bool {
			segs = append(segs, s)
			return true
		})
		if err != nil {
			return segs, err
		}
		if took != len(p) {
			panic("Feed left bytes without being stopped")
		}
	}
	return segs, nil
}

func sampleStream() []byte {
	var b []byte
	for _, s := range []Segment{
		Name(Info, "Novate"), Name(Passwd, "123"), Code(PasswdResp, 1), Name(SyncBegin, "Larry"),
		Empty(SyncEnd), Name(SendInvit, "abcdefghijklmnopqrstuvwxyz012"), NewBoard([6]Coord{{0, 2}, {3, 2}, {0, 5}, {5, 5}, {7, 0}, {7, 3}}),
		NewSingle(Coord{9, 9}, Binary), NewDouble(Coord{0, 2}, Coord{3, 2}, ASCII), Empty(GameOver), Name(NewOffline, "Beth"),
	} {
		b = s.AppendTo(b)
	}
	return b
}

func TestDecoderSplits(t *testing.T) {
	stream := bytes.Repeat(sampleStream(), 5)
	want, err := decodeAll(stream, nil)
	if err != nil || len(want) != 55 {
		t.Fatalf("all at once: %d segments, err %v", len(want), err)
	}
	for _, chunks := range [][]int{{1}, {2}, {3}, {1, 2}, {31, 1}, {32}, {33}, {127}, {128}, {129}, {5, 7, 11}} {
		got, err := decodeAll(stream, chunks)
		if err != nil {
			t.Fatalf("chunks %v: %v", chunks, err)
		}
		if len(got) != len(want) {
			t.Fatalf("chunks %v: %d segments, want %d", chunks, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("chunks %v: segment %d = %v, want %v", chunks, i, got[i], want[i])
			}
		}
	}
}

func TestDecoderRejectsHeaderBeforePayload(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		err  error
	}{
		{"unknown descriptor alone", []byte{0x51}, ErrUnknownType},
		{"unused 0x05", []byte{0x05}, ErrUnknownType},
		{"over-long length, no payload yet", []byte{0x00, 0x00, 0x1e}, ErrLength},
		{"huge length", []byte{0x0c, 0xff, 0xff}, ErrLength},
		{"SyncEnd with a byte", []byte{0x08, 0x00, 0x01}, ErrLength},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d Decoder
			d.Write(tt.in)
			_, ok, err := d.Next()
			if ok || !errors.Is(err, tt.err) {
				t.Fatalf("Next = ok %v err %v, want %v", ok, err, tt.err)
			}
			// the error is sticky: nothing after it is decoded
			x := Name(Info, "x")
			d.Write(x.AppendTo(nil))
			if _, ok, err2 := d.Next(); ok || err2 == nil {
				t.Fatalf("decoder went on after a protocol error")
			}
		})
	}
}

func TestDecoderPartialAndFree(t *testing.T) {
	var d Decoder
	single := NewSingle(Coord{1, 2}, ASCII)
	seg := single.AppendTo(nil)
	d.Write(seg[:2])
	if _, ok, err := d.Next(); ok || err != nil || !d.Partial() {
		t.Fatalf("half a header: ok %v err %v partial %v", ok, err, d.Partial())
	}
	// fill through Free/Commit, the way a transport reads straight into the ring
	free := d.Free()
	n := copy(free, seg[2:])
	d.Commit(n)
	s, ok, err := d.Next()
	if !ok || err != nil || s.Type != SingleCoord || d.Partial() {
		t.Fatalf("after commit: %v ok %v err %v partial %v", s, ok, err, d.Partial())
	}
	// a full ring refuses more bytes
	big := make([]byte, 2*RingSize)
	for i := 0; i < len(big); i += 3 {
		copy(big[i:], []byte{0x0f, 0, 0})
	}
	if w := d.Write(big); w != RingSize {
		t.Fatalf("wrote %d into an empty ring, want %d", w, RingSize)
	}
	if len(d.Free()) != 0 || d.Buffered() != RingSize {
		t.Fatalf("full ring: free %d buffered %d", len(d.Free()), d.Buffered())
	}
}

func TestDecoderRandomSplits(t *testing.T) {
	stream := bytes.Repeat(sampleStream(), 20)
	want, _ := decodeAll(stream, nil)
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		chunks := make([]int, 1+r.IntN(8))
		for i := range chunks {
			chunks[i] = 1 + r.IntN(70)
		}
		got, err := decodeAll(stream, chunks)
		if err != nil || len(got) != len(want) {
			t.Fatalf("chunks %v: %d segments, err %v", chunks, len(got), err)
		}
	}
}

// TestFeedStops: when the callback says stop, Feed reports how far it got,
// keeps what it has not handed out, and the rest of the stream (fed again)
// yields exactly the segments not yet seen.
func TestFeedStops(t *testing.T) {
	stream := bytes.Repeat(sampleStream(), 3) // longer than the ring
	want, _ := decodeAll(stream, nil)
	for stopAt := 1; stopAt < len(want); stopAt += 7 {
		var d Decoder
		var got []Segment
		n, err := d.Feed(stream, func(s Segment) bool {
			got = append(got, s)
			return len(got) < stopAt
		})
		if err != nil || len(got) != stopAt || n > len(stream) {
			t.Fatalf("stop at %d: %d segments, took %d, err %v", stopAt, len(got), n, err)
		}
		if _, err := d.Feed(stream[n:], func(s Segment) bool { got = append(got, s); return true }); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("stop at %d, then the rest: %d segments, want %d", stopAt, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("stop at %d: segment %d is %v, want %v", stopAt, i, got[i], want[i])
			}
		}
	}
}

// TestDecodeAfterCommit: bytes read straight into the ring (Free, Commit)
// decode like fed ones, a protocol error included.
func TestDecodeAfterCommit(t *testing.T) {
	stream := append(bytes.Repeat(sampleStream(), 2), 0x1f, 0, 0) // ends with an unknown type
	want, wantErr := decodeAll(stream, nil)
	var d Decoder
	var got []Segment
	var err error
	for rest := stream; len(rest) > 0 && err == nil; {
		free := d.Free()
		n := copy(free, rest)
		d.Commit(n)
		rest = rest[n:]
		err = d.Decode(func(s Segment) bool { got = append(got, s); return true })
	}
	if !errors.Is(err, ErrUnknownType) || !errors.Is(wantErr, ErrUnknownType) || len(got) != len(want) {
		t.Fatalf("%d segments, err %v; want %d, %v", len(got), err, len(want), wantErr)
	}
}
