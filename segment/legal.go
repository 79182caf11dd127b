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
	//   47 00 11 00 00 00 01 00 00 00 03 00 00 01 01 02 0b 02 0f 10
	//                                    Legal table 1 seq 3 seat 0: kind 1 11-15, 11-16
	Legal Type = 0x47

	// HintReq 0x42 C→S, cap 29: table u32, n u8, chosen [n]byte (the first
	// parts of the move the seat builds in parts, at most MaxMoveArg
	// bytes; for a Bomber board 0, 4 or 8 bytes: head x, y, tail x, y of
	// each plane drawn so far). With FeatureLegal, while the seat builds
	// such a move (a Bomber board while boards are placed) the server
	// answers with Hints; otherwise with Error (NotAtTable, NotSeated,
	// GameOver, NotYourTurn, Illegal for chosen parts no move completes).
	//   42 00 09 00 00 00 02 04 00 02 03 02 HintReq table 2 chosen 02-32
	HintReq Type = 0x42
	// Hints 0x50 S→C, cap 1024: Legal's layout (table, seq, seat, flags,
	// groups), listing each legal next part as a move of the whole move's
	// kind whose argument is the part: for Bomber, kind 1 with len 4,
	// prefix the head x, y and suffixes the tails x, y of each plane that
	// still completes a board. LegalMore as in Legal; sent only to the
	// seat that asked.
	//   50 00 14 00 00 00 02 00 00 00 00 00 00 01 01 04 04 04 02 07 04 04 01
	//                                    Hints table 2 seq 0 seat 0: planes 44-74, 44-41
	Hints Type = 0x50
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
func (m LegalBody) Encode(dst []byte) ([]byte, error) { return m.encode(dst, Legal) }

func (m LegalBody) encode(dst []byte, t Type) ([]byte, error) {
	w := newWriter(dst, t)
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
func DecodeLegalBody(body []byte) (m LegalBody, err error) { return decodeLegal(Legal, body) }

func decodeLegal(t Type, body []byte) (m LegalBody, err error) {
	r := reader(t, body)
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

// HintsBody is Hints' body: Legal's fields.
type HintsBody LegalBody

// Type is Hints.
func (HintsBody) Type() Type { return Hints }

// Encode appends the body, as LegalBody.Encode does.
func (m HintsBody) Encode(dst []byte) ([]byte, error) { return LegalBody(m).encode(dst, Hints) }

// Append appends the body.
func (m HintsBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeHintsBody reads a Hints body.
func DecodeHintsBody(body []byte) (HintsBody, error) {
	m, err := decodeLegal(Hints, body)
	return HintsBody(m), err
}

// HintReqMsg is HintReq's body.
type HintReqMsg struct {
	Table  uint32
	Chosen []byte
}

// Type is HintReq.
func (HintReqMsg) Type() Type { return HintReq }

// Encode appends the body.
func (m HintReqMsg) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, HintReq)
	w.u32(m.Table)
	if len(m.Chosen) > MaxMoveArg {
		w.fail(fmt.Errorf("%w: HintReq with %d chosen bytes (at most %d)", ErrTooLong, len(m.Chosen), MaxMoveArg))
	}
	w.u8(uint8(len(m.Chosen)))
	w.raw(m.Chosen)
	return w.done()
}

// Append appends the body.
func (m HintReqMsg) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeHintReqMsg reads a HintReq body.
func DecodeHintReqMsg(body []byte) (m HintReqMsg, err error) {
	r := reader(HintReq, body)
	m.Table = r.U32()
	n := int(r.U8())
	if n > MaxMoveArg {
		r.Fail("HintReq with %d chosen bytes (at most %d)", n, MaxMoveArg)
	} else {
		m.Chosen = cloneBytes(r.take(n))
	}
	return m, r.Done()
}
