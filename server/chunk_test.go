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
	n := wholeSegments(out, chunkDefault)
	if n%32 != 0 || n > chunkDefault || n+32 <= chunkDefault {
		t.Fatalf("chunk of %d bytes from 32-byte segments", n)
	}
	for len(out) > 0 {
		k := wholeSegments(out, chunkDefault)
		if _, err := segment.Parse(out[:segment.HeaderLen+int(out[2])]); err != nil || k%32 != 0 {
			t.Fatalf("chunk %d does not start on a segment: %v", k, err)
		}
		out = out[k:]
	}
	empty := segment.Empty(segment.SyncEnd)
	if n := wholeSegments(empty.AppendTo(nil), chunkDefault); n != 3 {
		t.Fatalf("one empty segment: %d", n)
	}
}

// TestChunkIsAPacket: a write holds one packet's payload of the
// connection's MSS, room left for TCP options, so that it leaves as one
// packet and ends on a segment; no MSS (not TCP) keeps the Ethernet-sized
// default.
func TestChunkIsAPacket(t *testing.T) {
	for _, c := range []struct{ mss, want int }{
		{0, chunkDefault},    // not TCP, or unknown
		{-1, chunkDefault},   // a failed getsockopt
		{1448, 1408},         // Ethernet with timestamps
		{1460, 1420},         // Ethernet without
		{1360, 1320},         // a tunnel: below the default, which would cut
		{32741, 32701},       // loopback, once accepted
		{65483, 65443},       // loopback's largest
		{88, minChunk},       // the kernel's least: a few packets a write, not a call per segment
		{9001 * 8, maxChunk}, // beyond what a chunk holds
	} {
		if got := chunkFor(c.mss); got != c.want {
			t.Errorf("chunkFor(%d) = %d, want %d", c.mss, got, c.want)
		}
	}
}
