// Package segment turns bytes into Bomber's typed segments and back.
//
// Every segment on the wire is
//
//	+------------+---------------------+-------------------+
//	| descriptor | payload length (BE) | payload           |
//	| 1 byte     | 2 bytes             | 0..29 bytes       |
//	+------------+---------------------+-------------------+
//
// so a whole segment is at most 32 bytes. The package knows framing and the
// layout of every payload, nothing about who may send what when (that is the
// state machine's business). Decoding and encoding allocate nothing: a Segment
// is a small value holding its payload inline.
package segment

import (
	"errors"
	"fmt"
)

// Framing limits.
const (
	HeaderLen  = 3                      // descriptor + 2-byte big-endian payload length
	MaxPayload = 29                     // largest payload the protocol allows
	MaxSegment = HeaderLen + MaxPayload // 32: largest whole segment
	BoardLen   = 12                     // Board payload: 6 coordinates of 2 digits
)

// Type is a segment descriptor, the first byte on the wire.
type Type uint8

// The 16 segment types of seed 003. "C→S" is client to server, "S→C" the
// reverse. Payload layouts (n = payload length):
const (
	// Info 0x00 C→S, n=0..29: the user name that wants to log in (an empty or
	// unknown name is answered "no such user").
	//   00 00 06 4e 6f 76 61 74 65      Info "Novate"
	Info Type = 0x00
	// InfoResp 0x01 S→C, n=1: reply code (reference: 0 no such user, 1 OK, 4 error).
	//   01 00 01 01                     InfoResp OK
	InfoResp Type = 0x01
	// Passwd 0x02 C→S, n=0..29: the password, as typed.
	//   02 00 03 31 32 33               Passwd "123"
	Passwd Type = 0x02
	// PasswdResp 0x03 S→C, n=1: reply code (reference: 1 OK, 3 wrong password, 4 error).
	//   03 00 01 03                     PasswdResp wrong password
	PasswdResp Type = 0x03
	// Refuse 0x04 S→C, n=1: a session kick (reference: 4 to the kicked session,
	// 5 to the session that kicked it).
	//   04 00 01 05                     Refuse already logged in
	Refuse Type = 0x04
	// SyncBegin 0x06 S→C, n=1..29: one online user's name during the user-list sync.
	//   06 00 05 4c 61 72 72 79         SyncBegin "Larry"
	SyncBegin Type = 0x06
	// NewOnline 0x07 S→C, n=1..29: a user came online.
	NewOnline Type = 0x07
	// SyncEnd 0x08 S→C, n=0: the user-list sync is complete.
	//   08 00 00                        SyncEnd
	SyncEnd Type = 0x08
	// SendInvit 0x09 C→S, n=0..29: invite the named user.
	SendInvit Type = 0x09
	// RecvInvit 0x0A S→C, n=1..29: the named user invites you.
	RecvInvit Type = 0x0A
	// InvitResponse 0x0B both ways, n=1: C→S 1 accept / 2 refuse; S→C the
	// outcome (reference: 0 not online, 1 accepted, 2 refused, 6 busy).
	//   0b 00 01 01                     InvitResponse accept
	InvitResponse Type = 0x0B
	// Board 0x0C both ways, n=12: heads and tail centres of three planes as
	// ASCII digits h1x h1y t1x t1y h2x h2y t2x t2y h3x h3y t3x t3y.
	//   0c 00 0c 30 32 33 32 ...        Board (0,2)-(3,2) ...
	Board Type = 0x0C
	// SingleCoord 0x0D both ways, n=2: one guessed cell x y. Clients send
	// ASCII digits; the server forwards binary bytes 0..9.
	//   0d 00 02 33 34  (C→S)           SingleCoord (3,4)
	//   0d 00 02 03 04  (S→C)           SingleCoord (3,4)
	SingleCoord Type = 0x0D
	// DoubleCoord 0x0E both ways, n=4: a guessed plane, head x y then tail
	// centre x y; encodings as SingleCoord.
	DoubleCoord Type = 0x0E
	// GameOver 0x0F both ways, n=0: C→S "I have won"; S→C "the game is over
	// for you" (the reference client shows a loss).
	//   0f 00 00                        GameOver
	GameOver Type = 0x0F
	// NewOffline 0x10 S→C, n=1..29: a user went offline.
	NewOffline Type = 0x10

	typeCount = 0x11
)

// Payload length bounds per descriptor; a zero max marks an unknown descriptor.
var lengths = [typeCount]struct{ min, max uint8 }{
	Info:          {0, MaxPayload},
	InfoResp:      {1, 1},
	Passwd:        {0, MaxPayload},
	PasswdResp:    {1, 1},
	Refuse:        {1, 1},
	0x05:          {0, 0}, // unused
	SyncBegin:     {0, MaxPayload},
	NewOnline:     {0, MaxPayload},
	SyncEnd:       {0, 0},
	SendInvit:     {0, MaxPayload},
	RecvInvit:     {0, MaxPayload},
	InvitResponse: {1, 1},
	Board:         {0, MaxPayload}, // checked as a board later; see Segment.Board
	SingleCoord:   {0, MaxPayload}, // malformed guesses are the state machine's call
	DoubleCoord:   {0, MaxPayload}, // (the reference client sends a 6-byte one)
	GameOver:      {0, 0},
	NewOffline:    {0, MaxPayload},
}

var names = [typeCount]string{
	"Info", "InfoResp", "Passwd", "PasswdResp", "Refuse", "Unused05", "SyncBegin",
	"NewOnline", "SyncEnd", "SendInvit", "RecvInvit", "InvitResponse", "Board",
	"SingleCoord", "DoubleCoord", "GameOver", "NewOffline",
}

// Known reports whether t is one of the 16 reference segment types (see
// KnownExtended for the extended protocol's).
func (t Type) Known() bool { return t < typeCount && t != 0x05 }

func (t Type) String() string {
	if t < typeCount {
		return names[t]
	}
	if t.Extended() {
		return extName(t)
	}
	return fmt.Sprintf("Type(0x%02x)", uint8(t))
}

// Protocol errors. A decoder that returns one of them has stopped: the
// connection's byte stream can no longer be trusted and should be closed.
var (
	// ErrUnknownType: the descriptor is neither one of the 16 reference
	// types nor, where the extended protocol is spoken, an extended one.
	ErrUnknownType = errors.New("unknown segment descriptor")
	// ErrLength: the payload length is impossible for the descriptor.
	ErrLength = errors.New("bad segment length")
)

// CheckHeader validates a segment header before its payload is read:
// reference types against their payload bounds, extended types (base and
// fragment forms) against the continuation rules (see ext.go).
func CheckHeader(t Type, n int) error {
	if t.Extended() {
		return checkExtended(t, n)
	}
	if !t.Known() {
		return fmt.Errorf("%w 0x%02x", ErrUnknownType, uint8(t))
	}
	if l := lengths[t]; n < int(l.min) || n > int(l.max) {
		return fmt.Errorf("%w: %v with %d payload bytes (want %d..%d)", ErrLength, t, n, l.min, l.max)
	}
	return nil
}

// Segment is one whole segment with its payload inline. The zero value is an
// Info segment with an empty payload.
type Segment struct {
	Type Type
	n    uint8
	data [MaxPayload]byte
}

// Payload returns the payload bytes; they alias s, so copy s to keep them.
func (s *Segment) Payload() []byte { return s.data[:s.n] }

// Len is the payload length.
func (s Segment) Len() int { return int(s.n) }

// Size is the whole segment's length on the wire.
func (s Segment) Size() int { return HeaderLen + int(s.n) }

// AppendTo appends the wire form of s to dst.
func (s Segment) AppendTo(dst []byte) []byte {
	dst = append(dst, byte(s.Type), 0, s.n)
	return append(dst, s.data[:s.n]...)
}

// Parse decodes exactly one whole segment from b (header and payload).
func Parse(b []byte) (Segment, error) {
	var s Segment
	if len(b) < HeaderLen {
		return s, fmt.Errorf("%w: %d bytes is shorter than a header", ErrLength, len(b))
	}
	t, n := Type(b[0]), int(b[1])<<8|int(b[2])
	if err := CheckHeader(t, n); err != nil {
		return s, err
	}
	if len(b) != HeaderLen+n {
		return s, fmt.Errorf("%w: header says %d payload bytes, have %d", ErrLength, n, len(b)-HeaderLen)
	}
	s.Type, s.n = t, uint8(n)
	copy(s.data[:], b[HeaderLen:])
	return s, nil
}

// Raw builds a segment of type t with payload p, checked against the framing
// rules (used by tools that replay recorded bytes).
func Raw(t Type, p []byte) (Segment, error) {
	var s Segment
	if err := CheckHeader(t, len(p)); err != nil {
		return s, err
	}
	s.Type, s.n = t, uint8(len(p))
	copy(s.data[:], p)
	return s, nil
}

// Empty builds a zero-payload segment (SyncEnd, GameOver).
func Empty(t Type) Segment { return Segment{Type: t} }

// Name builds a segment whose payload is a user name or password (Info,
// Passwd, SyncBegin, NewOnline, SendInvit, RecvInvit, NewOffline). Longer
// input is cut at MaxPayload bytes; callers validate names before this.
func Name[T string | []byte](t Type, name T) Segment {
	s := Segment{Type: t}
	s.n = uint8(copy(s.data[:], name))
	return s
}

// Code builds a one-byte reply segment (InfoResp, PasswdResp, Refuse, InvitResponse).
func Code(t Type, code byte) Segment {
	s := Segment{Type: t, n: 1}
	s.data[0] = code
	return s
}

// Code returns the one-byte payload of a reply segment, or false when the
// payload is not exactly one byte.
func (s *Segment) Code() (byte, bool) {
	if s.n != 1 {
		return 0, false
	}
	return s.data[0], true
}
