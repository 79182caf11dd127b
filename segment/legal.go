package segment

import "fmt"

// Legal moves sent with every update (feature bit FeatureLegal), as a chess
// server sends the destinations of each piece: a client draws the targets
// of a picked piece from them and never re-implements a game's rules.
const (
	// FeatureLegal: the seat to move receives Legal, its legal moves, after
	// each accepted move, at the start, on Resume and with every View.
	FeatureLegal uint32 = 128

	// Legal 0x47 S→C, cap 1024: table u32, seq u32 (the update it belongs
	// to, as in View), seat u8, flags u8 (LegalMore, LegalTooMany), nGroups
	// u8, nGroups × (kind u8, len u8, prefix [len/2]byte, n u8, n × suffix
	// [len-len/2]byte). Each group lists n moves of one kind and argument
	// length that share the first half of their argument (the piece: a
	// checkers square, a Pai Sho tile or point); each move's argument is
	// prefix ‖ suffix (its destination). The offer and resign kinds (250 and
	// up) are not listed: every seat may always use them.
	//   47 00 0f 00 00 00 01 00 00 00 03 00 00 01 01 02 01 0b 02 0f 10
	//                                    Legal table 1 seq 3 seat 0: kind 1 11-15, 11-16
	Legal Type = 0x47
)

// Legal flags.
const (
	// LegalMore: another Legal for the same table and seq follows with more
	// groups; the list is whole at the first Legal without it.
	LegalMore uint8 = 1
	// LegalTooMany: the seat has more legal moves than the server lists
	// (a Bomber board, placed in tens of thousands of ways); no groups
	// follow and the rules judge each move as it is made.
	LegalTooMany uint8 = 2
)

// LegalGroup is the moves of one kind whose arguments start with Prefix;
// each is Prefix ‖ one of Suffixes (all of the same length).
type LegalGroup struct {
	Kind     uint8
	Len      uint8 // argument length of every move of the group
	Prefix   []byte
	Suffixes [][]byte
}

// LegalBody is Legal's body.
type LegalBody struct {
	Table  uint32
	Seq    uint32
	Seat   uint8
	Flags  uint8
	Groups []LegalGroup
}

// Type is Legal.
func (LegalBody) Type() Type { return Legal }

// Encode appends the body. Every group's prefix must be Len/2 bytes and
// every suffix Len-Len/2.
func (m LegalBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Legal)
	w.u32(m.Table)
	w.u32(m.Seq)
	w.u8(m.Seat)
	w.u8(m.Flags)
	w.count(len(m.Groups))
	for _, g := range m.Groups {
		p := int(g.Len) / 2
		if int(g.Len) > MaxMoveArg || len(g.Prefix) != p {
			w.fail(fmt.Errorf("%w: Legal group of kind %d: prefix of %d bytes for an argument of %d", ErrTooLong, g.Kind, len(g.Prefix), g.Len))
		}
		w.u8(g.Kind)
		w.u8(g.Len)
		w.raw(g.Prefix)
		w.count(len(g.Suffixes))
		for _, s := range g.Suffixes {
			if len(s) != int(g.Len)-p {
				w.fail(fmt.Errorf("%w: Legal group of kind %d: suffix of %d bytes", ErrTooLong, g.Kind, len(s)))
			}
			w.raw(s)
		}
	}
	return w.done()
}

// Append appends the body.
func (m LegalBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeLegalBody reads a Legal body.
func DecodeLegalBody(body []byte) (m LegalBody, err error) {
	r := reader(Legal, body)
	m.Table, m.Seq, m.Seat, m.Flags = r.U32(), r.U32(), r.U8(), r.U8()
	n := r.Count(3)
	for range n {
		g := LegalGroup{Kind: r.U8(), Len: r.U8()}
		if g.Len > MaxMoveArg {
			r.Fail("Legal group argument of %d bytes (at most %d)", g.Len, MaxMoveArg)
			break
		}
		p := int(g.Len) / 2
		g.Prefix = cloneBytes(r.take(p))
		k := r.U8()
		for range k {
			g.Suffixes = append(g.Suffixes, append([]byte{}, r.take(int(g.Len)-p)...))
		}
		m.Groups = append(m.Groups, g)
	}
	return m, r.Done()
}

// Moves lists the group's moves as (kind, argument) pairs.
func (g LegalGroup) Moves() [][]byte {
	out := make([][]byte, 0, len(g.Suffixes))
	for _, s := range g.Suffixes {
		out = append(out, append(append([]byte{}, g.Prefix...), s...))
	}
	return out
}
