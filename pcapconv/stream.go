package pcapconv

// half is one direction of a TCP connection being reassembled.
type half struct {
	started bool
	next    uint32            // sequence number of the next byte to deliver
	early   map[uint32][]byte // segments that arrived before a gap was filled
	fin     bool              // a FIN was seen
	finSeq  uint32            // sequence number the FIN occupies
	done    bool              // every byte before the FIN was delivered
}

// maxAhead bounds how far beyond the next expected byte a segment may start
// and still be kept: farther is garbage or a different stream.
const maxAhead = 1 << 24

func (h *half) start(isn uint32) {
	h.started, h.next, h.early = true, isn, make(map[uint32][]byte)
}

// add takes one segment's payload at seq and returns the bytes that are now
// in order, one piece per segment delivered (sequence numbers wrap; every
// comparison is a signed 32-bit difference).
func (h *half) add(seq uint32, data []byte, out [][]byte) [][]byte {
	if len(data) > 0 {
		if d := int32(h.next - seq); d > 0 {
			if int(d) >= len(data) {
				return h.finish(out) // all of it was delivered already
			}
			data, seq = data[d:], h.next
		}
		if seq != h.next {
			if ahead := seq - h.next; ahead < maxAhead {
				if old, ok := h.early[seq]; !ok || len(data) > len(old) {
					h.early[seq] = append([]byte(nil), data...)
				}
			}
			return out
		}
		out = append(out, append([]byte(nil), data...))
		h.next += uint32(len(data))
	}
	// anything held that now starts at or before the next byte follows
	for found := true; found; {
		found = false
		for s, d := range h.early {
			if int32(h.next-s) < 0 {
				continue
			}
			delete(h.early, s)
			if skip := h.next - s; int(skip) < len(d) {
				out = append(out, d[skip:])
				h.next += uint32(len(d)) - skip
			}
			found = true
			break
		}
	}
	return h.finish(out)
}

// finish marks the direction done once the FIN's place is reached.
func (h *half) finish(out [][]byte) [][]byte {
	if h.fin && h.next == h.finSeq {
		h.done = true
	}
	return out
}

// setFin records the FIN at seq (after the packet's payload).
func (h *half) setFin(seq uint32) {
	if !h.fin {
		h.fin, h.finSeq = true, seq
	}
}
