package segment

import "fmt"

// RingSize is the capacity of a connection's input ring: a few whole
// segments. It is a power of two so positions wrap with a mask.
const RingSize = 128

// Decoder reassembles segments from a byte stream that arrives in any split.
// It owns a small fixed ring buffer, so a connection costs RingSize bytes of
// input buffering no matter what the peer sends. A header is checked as soon
// as its bytes are in, before the decoder waits for the payload; after a
// protocol error the decoder stops and keeps returning that error.
//
// Which descriptors it accepts depends on its Dialect; the zero value
// negotiates: reference types, and the extended ones once the connection's
// first segment was Hello.
type Decoder struct {
	r, w    uint32 // free-running read and write positions
	err     error
	dialect Dialect
	ext     bool // extended descriptors are accepted now
	seen    bool // a whole segment has been decoded since Reset
	buf     [RingSize]byte
}

// Dialect is which descriptors a Decoder accepts.
type Dialect uint8

// Decoder dialects.
const (
	// DialectNegotiate (the zero value): the 16 reference types; a Hello as
	// the first segment switches the stream to the extended protocol, and
	// any other extended descriptor is unknown (a reference client that
	// sends one is closed, as for any unknown descriptor).
	DialectNegotiate Dialect = iota
	// DialectReference: the 16 reference types only (Hello too is unknown).
	DialectReference
	// DialectExtended: reference and extended types from the first byte
	// (server-to-client streams, tools).
	DialectExtended
)

// SetDialect chooses the descriptors d accepts; it survives Reset.
func (d *Decoder) SetDialect(x Dialect) { d.dialect, d.ext = x, x == DialectExtended }

// Extended reports whether d accepts extended descriptors now.
func (d *Decoder) Extended() bool { return d.ext }

// accepts reports whether descriptor t may start a segment here.
func (d *Decoder) accepts(t Type) bool {
	switch {
	case t.Known():
		return true
	case d.ext:
		return t.KnownExtended()
	}
	return t == Hello && d.dialect == DialectNegotiate && !d.seen
}

// Buffered is the number of bytes waiting in the ring.
func (d *Decoder) Buffered() int { return int(d.w - d.r) }

// Partial reports whether the ring holds the start of a segment that is not
// complete yet (what an incomplete-segment timeout measures).
func (d *Decoder) Partial() bool { return d.err == nil && d.w != d.r }

// Err is the protocol error that stopped the decoder, or nil.
func (d *Decoder) Err() error { return d.err }

// Write copies as much of p into the ring as fits and returns how many bytes
// it took; the caller decodes with Next and writes the rest afterwards.
func (d *Decoder) Write(p []byte) int {
	n := 0
	for n < len(p) {
		free := d.Free()
		if len(free) == 0 {
			break
		}
		c := copy(free, p[n:])
		d.w += uint32(c)
		n += c
	}
	return n
}

// Free returns the contiguous free space at the write position, so a
// transport can read(2) straight into the ring; Commit then records the
// bytes read.
func (d *Decoder) Free() []byte {
	used := d.w - d.r
	if used == RingSize {
		return nil
	}
	if used == 0 {
		// an empty ring starts over at its first byte, so the whole ring is
		// one contiguous read: a read that would have stopped at the wrap
		// would cost a second read(2) for the rest of the segment
		d.r, d.w = 0, 0
	}
	start := d.w & (RingSize - 1)
	end := start + (RingSize - used)
	if end > RingSize {
		end = RingSize
	}
	return d.buf[start:end]
}

// Commit records n bytes written into the slice returned by Free.
func (d *Decoder) Commit(n int) { d.w += uint32(n) }

func (d *Decoder) at(i uint32) byte { return d.buf[(d.r+i)&(RingSize-1)] }

// Next returns the next whole segment. It returns ok false and a nil error
// when more bytes are needed, and a protocol error (wrapping ErrUnknownType
// or ErrLength) as soon as a bad header is visible.
func (d *Decoder) Next() (s Segment, ok bool, err error) {
	if d.err != nil {
		return s, false, d.err
	}
	avail := d.w - d.r
	if avail == 0 {
		return s, false, nil
	}
	t := Type(d.at(0))
	if !d.accepts(t) {
		d.err = fmt.Errorf("%w 0x%02x", ErrUnknownType, uint8(t))
		return s, false, d.err
	}
	if avail < HeaderLen {
		return s, false, nil
	}
	n := uint32(d.at(1))<<8 | uint32(d.at(2))
	if err := CheckHeader(t, int(n)); err != nil {
		d.err = err
		return s, false, err
	}
	if avail < HeaderLen+n {
		return s, false, nil
	}
	s.Type, s.n = t, uint8(n)
	for i := range n {
		s.data[i] = d.at(HeaderLen + i)
	}
	d.r += HeaderLen + n
	if !d.seen {
		d.seen = true
		d.ext = d.ext || t == Hello
	}
	return s, true, nil
}

// Decode calls yield with every whole segment in the ring, in order, until
// yield returns false or more bytes are needed. It returns the protocol
// error that stopped the decoder (wrapping ErrUnknownType or ErrLength), if
// any. A transport that reads straight into the ring (Free, Commit) decodes
// with it; Feed is the same loop for bytes that are already in memory.
func (d *Decoder) Decode(yield func(Segment) bool) error {
	for {
		s, ok, err := d.Next()
		if err != nil {
			return err
		}
		if !ok || !yield(s) {
			return nil
		}
	}
}

// Feed copies p into the ring as it empties and calls yield with every
// whole segment, in order. It returns how many bytes of p it took (all of
// them unless yield returned false or the stream is bad) and the protocol
// error, if any. A segment split across calls is kept for the next call.
func (d *Decoder) Feed(p []byte, yield func(Segment) bool) (int, error) {
	stopped := false
	wrap := func(s Segment) bool {
		if !yield(s) {
			stopped = true
			return false
		}
		return true
	}
	n := 0
	for {
		if err := d.Decode(wrap); err != nil {
			return n, err
		}
		if stopped || n == len(p) {
			return n, nil
		}
		n += d.Write(p[n:])
	}
}

// Reset empties the decoder for reuse by a new connection; the dialect set
// by SetDialect stays, a negotiated one is forgotten.
func (d *Decoder) Reset() {
	d.r, d.w, d.err, d.seen = 0, 0, nil, false
	d.ext = d.dialect == DialectExtended
}
