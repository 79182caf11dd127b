package server

import (
	"testing"

	"github.com/bomber-game/bomber/segment"
)

func TestWholeSegments(t *testing.T) {
	var out []byte
	for i := 0; i < 100; i++ {
		s := segment.Name(segment.SyncBegin, "abcdefghijklmnopqrstuvwxyz012") // 32 bytes
		out = s.AppendTo(out)
	}
	n := wholeSegments(out)
	if n%32 != 0 || n > chunkMax || n+32 <= chunkMax {
		t.Fatalf("chunk of %d bytes from 32-byte segments", n)
	}
	for len(out) > 0 {
		k := wholeSegments(out)
		if _, err := segment.Parse(out[:segment.HeaderLen+int(out[2])]); err != nil || k%32 != 0 {
			t.Fatalf("chunk %d does not start on a segment: %v", k, err)
		}
		out = out[k:]
	}
	empty := segment.Empty(segment.SyncEnd)
	if n := wholeSegments(empty.AppendTo(nil)); n != 3 {
		t.Fatalf("one empty segment: %d", n)
	}
}
