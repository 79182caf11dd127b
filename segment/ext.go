package segment

import (
	"errors"
	"fmt"
)

// Extended protocol version 1 (rooms). The frame is unchanged; descriptors
// 0x20-0x3F carry "messages" of a type T and a body of 0..cap(T) bytes. A
// body longer than MaxPayload is cut into 29-byte chunks: every chunk but the
// last travels with descriptor T|More and exactly 29 bytes, the last (1..29
// bytes) with descriptor T. A body of 0..29 bytes is one segment T.
//
//	body 40 bytes of Chat (0x30): b0 00 1d <29 bytes>   30 00 0b <11 bytes>
//
// Body primitives are big-endian: u8 u16 u32 u64 i8 i16 i32; str = u8 length
// + UTF-8 bytes; bytes16 = u16 length + bytes; h32 = 32 raw bytes. The body
// layouts below name the fields of the typed messages in messages.go.
const (
	ProtocolVersion = 1    // the version Hello and Welcome carry
	MaxMessage      = 1024 // the largest cap of any message type (View)
	MaxStr          = 255  // longest str (its length is one byte)

	// More is the fragment bit: T|More carries 29 bytes of T's body and says
	// more follows.
	More Type = 0x80

	extFirst Type = 0x20 // first extended descriptor
	extLast  Type = 0x50 // last extended descriptor
)

// Feature bits of Hello and Welcome (u32).
const (
	FeatureTables uint32 = 1  // rooms: the game catalog, tables, games played at them
	FeatureChat   uint32 = 2  // Chat and ChatMsg
	FeatureResume uint32 = 4  // Seated, Resume, Away, Bye: seats held through a dropped connection
	FeatureBots   uint32 = 8  // Bot: computer players in seats
	FeatureClocks uint32 = 16 // Clock: turn clocks
	// FeatureGameFacts: each Game of the catalogue ends with the game's
	// title and the offers it allows (GameFacts). A client that does not
	// ask for it gets the Game layout without them, as before.
	FeatureGameFacts uint32 = 32
	// FeaturePing: Ping and Pong, so a client can tell a server that has
	// stopped answering (a frozen node keeps its sockets open) from a
	// quiet one.
	FeaturePing uint32 = 64
)

// Liveness (FeaturePing): a client pings after PingInterval without
// hearing from the server, and gives the connection up (closes it and
// reconnects) when no Pong, nor anything else, has come PingTimeout after
// the Ping. The server answers a Ping at once in every state.
const (
	PingInterval = 15 // seconds
	PingTimeout  = 10 // seconds
)

// The extended message types. "C→S" is client to server. Each line gives
// the cap (largest body) and the body layout, then an example (bodies over
// 29 bytes take several segments).
const (
	// Hello 0x20 C→S, cap 29: version u8, features u32. Valid only as the
	// first segment of a connection; it switches the connection to the
	// extended protocol.
	//   20 00 05 01 00 00 00 03          Hello v1 tables|chat
	Hello Type = 0x20
	// Welcome 0x21 S→C, cap 29: version u8, features u32 (those both sides
	// support), maxMessage u16.
	//   21 00 07 01 00 00 00 03 04 00    Welcome v1 tables|chat max 1024
	Welcome Type = 0x21
	// CatalogReq 0x22 C→S, cap 0: (empty). Answered with one Game per game,
	// then Ack(0x22).
	//   22 00 00                         CatalogReq
	CatalogReq Type = 0x22
	// GameInfo 0x23 ("Game") S→C, cap 1024: name str, minSeats u8, maxSeats
	// u8, nOpts u8, nOpts × (key str, kind u8, default str, min i32, max i32,
	// nChoices u8, nChoices × str, doc str); then, to a client that asked
	// for FeatureGameFacts, title str, flags u8 (GameTakeback, GameDraws).
	//   23 00 08 04 64 6f 74 73 02 02 00 Game "dots" 2..2 seats, no options
	//   23 00 18 04 64 6f 74 73 02 04 00 0e 44 6f 74 73 20 61 6e 64 20 42 6f 78 65 73 01
	//                                    Game "dots" 2..4 seats, no options, "Dots and Boxes", takeback
	GameInfo Type = 0x23
	// Create 0x24 C→S, cap 256: game str, seats u8, flags u8, nOpts u8,
	// nOpts × (key str, value str).
	//   24 00 08 04 64 6f 74 73 02 01 00 Create "dots" 2 seats private
	Create Type = 0x24
	// ListReq 0x25 C→S, cap 0: (empty). Answered with one Table per listed
	// table, then Ack(0x25).
	//   25 00 00                         ListReq
	ListReq Type = 0x25
	// Join 0x26 C→S, cap 64: table u32, seat u8 (SeatAny: any free seat),
	// code str.
	//   26 00 06 00 00 00 07 ff 00       Join table 7, any seat, no code
	Join Type = 0x26
	// Watch 0x27 C→S, cap 64: table u32, code str.
	//   27 00 05 00 00 00 07 00          Watch table 7
	Watch Type = 0x27
	// Leave 0x28 C→S, cap 0: leave the table you sit or watch at.
	//   28 00 00                         Leave
	Leave Type = 0x28
	// Invite 0x29 C→S, cap 32: user str.
	//   29 00 05 04 42 65 74 68          Invite "Beth"
	Invite Type = 0x29
	// Ready 0x2A C→S, cap 0: the seated player is ready. At a table with
	// the Create option start=host (key "start", value "host") it is also
	// the host's Start button: the host's Ready starts the game once every
	// seat is filled; anyone else's only sets its ready flag. The Create
	// that asks for it (dots, 2 seats, flags 0, one option), then Ready:
	//   24 00 13 04 64 6f 74 73 02 00 01 05 73 74 61 72 74 04 68 6f 73 74 Create "dots" 2 seats start=host
	//   2a 00 00                         Ready
	Ready Type = 0x2A
	// Move 0x2B C→S, cap 18: kind u8, len u8 (≤ 16), arg[len].
	//   2b 00 04 01 02 03 04             Move kind 1 arg 03 04
	Move Type = 0x2B
	// MoveText 0x2C C→S, cap 64: notation (the rest of the body, UTF-8).
	//   2c 00 02 65 34                   MoveText "e4"
	MoveText Type = 0x2C
	// ViewReq 0x2D C→S, cap 0: asks for a View.
	//   2d 00 00                         ViewReq
	ViewReq Type = 0x2D
	// Offer 0x2E both ways, cap 8. C→S: what u8, answer u8. S→C: what u8,
	// state u8, seat u8.
	//   2e 00 02 01 00  (C→S)            Offer draw, propose
	//   2e 00 03 01 01 00  (S→C)         Offer draw agreed, seat 0
	Offer Type = 0x2E
	// Resign 0x2F C→S, cap 0: give the game up.
	//   2f 00 00                         Resign
	Resign Type = 0x2F
	// Chat 0x30 C→S, cap 300: scope u8, text (the rest of the body). Scope
	// 0 lobby; 1 the table's one room for players and watchers; 2 its
	// watchers' own room at a table created with chat=separate (elsewhere
	// the one room, the line sent on as scope 1).
	//   30 00 03 01 68 69                Chat table "hi"
	Chat Type = 0x30
	// TableInfo 0x31 ("Table") S→C, cap 512: id u32, game str, flags u8,
	// phase u8, watchers u16, code str, nSeats u8, nSeats × (name str,
	// seatFlags u8), nOpts u8, nOpts × (key str, value str).
	//   31 00 15 00 00 00 07 04 64 6f 74 73 00 00 00 00 00 01 03 41 6c 69 01 00
	//                                    Table 7 "dots" waiting, seat "Ali" ready
	TableInfo Type = 0x31
	// Joined 0x32 S→C, cap 29: table u32, seat u8 (SeatWatcher: watching);
	// table 0: you left.
	//   32 00 05 00 00 00 07 01          Joined table 7 seat 1
	Joined Type = 0x32
	// Started 0x33 S→C, cap 64: table u32, seats u8, seedCommit h32.
	// (37 bytes: always two segments; 00×24 is 24 zero bytes of the hash)
	//   b3 00 1d 00 00 00 07 02 00×24    Started|More table 7, 2 seats, hash...
	//   33 00 08 00×8                    Started ...last 8 bytes of the hash
	Started Type = 0x33
	// StepMsg 0x34 ("Step") S→C, cap 29: seq u32, kind u8, player i8, a i16,
	// b i16, c i16.
	//   34 00 0c 00 00 00 05 02 01 00 03 00 04 ff ff
	//                                    Step 5 kind 2 player 1 (3,4,-1)
	StepMsg Type = 0x34
	// Moved 0x35 S→C, cap 96: seq u32, seat u8, kind u8, len u8, arg[len],
	// notation str.
	//   35 00 0b 00 00 00 05 01 01 01 04 02 65 34  Moved 5 seat 1 "e4"
	Moved Type = 0x35
	// ViewMsg 0x36 ("View") S→C, cap 1024: seq u32, viewer i8, status u8,
	// nToMove u8, toMove u8[n], nScores u8, scores i16[n], cells bytes16,
	// extra bytes16.
	//   36 00 0f 00 00 00 05 00 00 01 00 00 00 02 01 02 00 00
	//                                    View 5 viewer 0, seat 0 to move, cells 01 02
	ViewMsg Type = 0x36
	// GameEnd 0x37 S→C, cap 128: table u32, status u8 (1 won, 2 drawn),
	// nWinners u8, winners u8[n], nScores u8, scores i16[n], reason str,
	// seed h32.
	//   b7 00 1d 00 00 00 07 01 01 00 00 06 72 65 73 69 67 6e 00×14
	//                                    GameEnd|More table 7 won by seat 0 "resign"
	//   37 00 12 00×18                   GameEnd ...the rest of the seed
	GameEnd Type = 0x37
	// ErrorMsg 0x38 ("Error") S→C, cap 64: req u8, code u8, text str.
	//   38 00 05 26 03 02 6e 6f          Error Join TableFull "no"
	ErrorMsg Type = 0x38
	// ChatMsg 0x39 S→C, cap 340: scope u8, table u32, from str, text (the
	// rest of the body).
	//   39 00 0c 00 00 00 00 00 04 42 65 74 68 68 69  ChatMsg lobby Beth "hi"
	ChatMsg Type = 0x39
	// Invited 0x3A S→C, cap 96: from str, table u32, game str, code str.
	//   3a 00 0f 04 42 65 74 68 00 00 00 07 04 64 6f 74 73 00
	//                                    Invited by Beth to table 7 "dots"
	Invited Type = 0x3A
	// Commit 0x3B S→C, cap 64: table u32, seat u8, hash h32.
	//   bb 00 1d 00 00 00 07 01 00×24    Commit|More table 7 seat 1, hash...
	//   3b 00 08 00×8                    Commit ...last 8 bytes of the hash
	Commit Type = 0x3B
	// Ping 0x3C C→S, cap 4: nonce u32 (the client's choice). With
	// FeaturePing only; answered at once, in every state after Hello, with
	// Pong carrying the same nonce.
	//   3c 00 04 00 00 00 07             Ping nonce 7
	Ping Type = 0x3C
	// Pong 0x3D S→C, cap 4: nonce u32 (the Ping's).
	//   3d 00 04 00 00 00 07             Pong nonce 7
	Pong Type = 0x3D
	// Ack 0x3F S→C, cap 29: req u8 (the request that is complete).
	//   3f 00 01 22                      Ack CatalogReq
	Ack Type = 0x3F
)

// caps holds cap+1 per extended type (0: unassigned), indexed by t-extFirst.
var caps = [extLast - extFirst + 1]int16{
	Hello - extFirst: 29 + 1, Welcome - extFirst: 29 + 1, CatalogReq - extFirst: 0 + 1,
	GameInfo - extFirst: 1024 + 1, Create - extFirst: 256 + 1, ListReq - extFirst: 0 + 1,
	Join - extFirst: 64 + 1, Watch - extFirst: 64 + 1, Leave - extFirst: 0 + 1,
	Invite - extFirst: 32 + 1, Ready - extFirst: 0 + 1, Move - extFirst: 18 + 1,
	MoveText - extFirst: 64 + 1, ViewReq - extFirst: 0 + 1, Offer - extFirst: 8 + 1,
	Resign - extFirst: 0 + 1, Chat - extFirst: 300 + 1, TableInfo - extFirst: 512 + 1,
	Joined - extFirst: 29 + 1, Started - extFirst: 64 + 1, StepMsg - extFirst: 29 + 1,
	Moved - extFirst: 96 + 1, ViewMsg - extFirst: 1024 + 1, GameEnd - extFirst: 128 + 1,
	ErrorMsg - extFirst: 64 + 1, ChatMsg - extFirst: 340 + 1, Invited - extFirst: 96 + 1,
	Commit - extFirst: 64 + 1, Ping - extFirst: 4 + 1, Pong - extFirst: 4 + 1, Ack - extFirst: 29 + 1,
	Bot - extFirst: 1 + 1, Seated - extFirst: 29 + 1, Resume - extFirst: 29 + 1,
	Clock - extFirst: 64 + 1, Away - extFirst: 29 + 1, Bye - extFirst: 0 + 1,
	Legal - extFirst: 1024 + 1, SignUp - extFirst: 64 + 1,
	Seek - extFirst: 256 + 1, Seeking - extFirst: 256 + 1,
	HistoryReq - extFirst: 64 + 1, RatingRow - extFirst: 96 + 1, GameRow - extFirst: 200 + 1,
	ReplayReq - extFirst: 10 + 1, Replay - extFirst: 512 + 1, Account - extFirst: 64 + 1,
	HintReq - extFirst: 29 + 1, Hints - extFirst: 1024 + 1,
}

// extNames are the spec's names (what transcripts and people read).
var extNames = [extLast - extFirst + 1]string{
	"Hello", "Welcome", "CatalogReq", "Game", "Create", "ListReq", "Join", "Watch",
	"Leave", "Invite", "Ready", "Move", "MoveText", "ViewReq", "Offer", "Resign",
	"Chat", "Table", "Joined", "Started", "Step", "Moved", "View", "GameEnd",
	"Error", "ChatMsg", "Invited", "Commit", "Ping", "Pong", "SignUp", "Ack",
	"Bot", "Seated", "HintReq", "Resume", "Clock", "Away", "Bye", "Legal",
	"Seek", "Seeking", "HistoryReq", "RatingRow", "GameRow", "ReplayReq", "Replay", "Account",
	"Hints",
}

// Extended reports whether t lies in the extended range 0x20..0x50, with or
// without the More bit (assigned or not; see KnownExtended).
func (t Type) Extended() bool { b := t &^ More; return b >= extFirst && b <= extLast }

// Fragment reports whether t is the fragment form T|More of an extended type.
func (t Type) Fragment() bool { return t&More != 0 && t.Extended() }

// Base is t without the More bit.
func (t Type) Base() Type {
	if t.Extended() {
		return t &^ More
	}
	return t
}

// KnownExtended reports whether t is a message type of extended protocol v1
// (base or fragment form).
func (t Type) KnownExtended() bool { return MessageCap(t) >= 0 }

// MessageCap is the largest body of t's base type (Chat and Chat|More: 300),
// or -1 when t is not an extended message type of v1.
func MessageCap(t Type) int {
	if !t.Extended() {
		return -1
	}
	return int(caps[t.Base()-extFirst]) - 1
}

func extName(t Type) string {
	name := extNames[t.Base()-extFirst]
	if name == "" {
		return fmt.Sprintf("Type(0x%02x)", uint8(t))
	}
	if t.Fragment() {
		return name + "|More"
	}
	return name
}

// checkExtended applies the continuation framing rules to an extended
// header: a fragment carries exactly 29 bytes and exists only for types
// whose cap exceeds 29; a final segment carries 0..min(29, cap).
func checkExtended(t Type, n int) error {
	c := MessageCap(t)
	if c < 0 {
		return fmt.Errorf("%w 0x%02x", ErrUnknownType, uint8(t))
	}
	if t.Fragment() {
		if c <= MaxPayload || n != MaxPayload {
			return fmt.Errorf("%w: %v with %d payload bytes (a fragment carries %d, and only for a cap over %d; cap %d)",
				ErrLength, t, n, MaxPayload, MaxPayload, c)
		}
		return nil
	}
	if m := min(MaxPayload, c); n < 0 || n > m {
		return fmt.Errorf("%w: %v with %d payload bytes (want 0..%d)", ErrLength, t, n, m)
	}
	return nil
}

// ErrFragment: the segments of one message break the continuation rules
// (another descriptor between fragments, a fragment not of 29 bytes, a body
// over its type's cap, an empty last segment after fragments). Like the
// other framing errors it closes the connection.
var ErrFragment = errors.New("bad message fragmentation")

// AppendMessage appends to dst the segments that carry one message of
// extended type t with body: ⌈len/29⌉ segments (one for 0..29 bytes), all
// but the last T|More with 29 bytes. It appends nothing when t is not an
// extended message type or body exceeds MessageCap(t); message Encode
// methods check the cap, so bodies built by them always fit.
func AppendMessage(dst []Segment, t Type, body []byte) []Segment {
	t = t.Base()
	if c := MessageCap(t); c < 0 || len(body) > c {
		return dst
	}
	for len(body) > MaxPayload {
		s := Segment{Type: t | More, n: MaxPayload}
		copy(s.data[:], body)
		dst = append(dst, s)
		body = body[MaxPayload:]
	}
	s := Segment{Type: t, n: uint8(len(body))}
	copy(s.data[:], body)
	return append(dst, s)
}

// Assembler joins the segments of one connection's messages back into
// bodies. The zero value is ready. Its buffer grows to the largest body seen
// (at most MaxMessage) and is reused, so steady state allocates nothing.
// After a framing error it stops and keeps returning that error until Reset.
type Assembler struct {
	t       Type // base type of the message in progress
	pending bool // a fragment has arrived and its message is not complete
	buf     []byte
	err     error
}

// Add takes the next segment of the connection. It returns done true with
// the message's type and body when s completes a message; body aliases the
// assembler's buffer until the next Add. A reference segment (0x00-0x10) is
// a message of its own, its payload the body. A framing violation returns an
// error wrapping ErrFragment (or, for a segment no Decoder would have
// produced, ErrUnknownType or ErrLength).
func (a *Assembler) Add(s Segment) (t Type, body []byte, done bool, err error) {
	if a.err != nil {
		return 0, nil, false, a.err
	}
	if !s.Type.Extended() {
		if a.pending {
			return a.fail(fmt.Errorf("%w: %v arrived inside a %v message", ErrFragment, s.Type, a.t))
		}
		if err := CheckHeader(s.Type, s.Len()); err != nil {
			return a.fail(err)
		}
		a.buf = append(a.buf[:0], s.Payload()...)
		return s.Type, a.buf, true, nil
	}
	base := s.Type.Base()
	c := MessageCap(base)
	if c < 0 {
		return a.fail(fmt.Errorf("%w 0x%02x", ErrUnknownType, uint8(s.Type)))
	}
	if a.pending && base != a.t {
		return a.fail(fmt.Errorf("%w: %v arrived inside a %v message", ErrFragment, s.Type, a.t))
	}
	if !a.pending {
		a.buf = a.buf[:0]
	}
	n := len(a.buf) + s.Len()
	switch {
	case n > c:
		return a.fail(fmt.Errorf("%w: %v body passes its cap of %d bytes", ErrFragment, base, c))
	case s.Type.Fragment() && s.Len() != MaxPayload:
		return a.fail(fmt.Errorf("%w: %v fragment of %d bytes, want %d", ErrFragment, base, s.Len(), MaxPayload))
	case !s.Type.Fragment() && a.pending && s.Len() == 0:
		return a.fail(fmt.Errorf("%w: empty last segment of a %v message", ErrFragment, base))
	}
	if n > cap(a.buf) { // grow by doubling, never past the cap
		nb := make([]byte, len(a.buf), min(c, max(2*cap(a.buf), n, 4*MaxPayload)))
		a.buf = nb[:copy(nb, a.buf)]
	}
	a.buf = append(a.buf, s.Payload()...)
	if s.Type.Fragment() {
		a.t, a.pending = base, true
		return 0, nil, false, nil
	}
	a.pending = false
	return base, a.buf, true, nil
}

func (a *Assembler) fail(err error) (Type, []byte, bool, error) {
	a.err, a.pending = err, false
	a.buf = a.buf[:0]
	return 0, nil, false, err
}

// Pending reports whether a message is half received (a fragment arrived,
// its last segment has not).
func (a *Assembler) Pending() bool { return a.pending }

// Buffered is the number of body bytes held for the message in progress.
func (a *Assembler) Buffered() int {
	if !a.pending {
		return 0
	}
	return len(a.buf)
}

// Body is the body held for the message in progress (empty when none);
// it aliases the assembler's buffer until the next Add.
func (a *Assembler) Body() []byte {
	if !a.pending {
		return nil
	}
	return a.buf
}

// Err is the framing error that stopped the assembler, or nil.
func (a *Assembler) Err() error { return a.err }

// Reset forgets any message in progress and error, keeping the buffer.
func (a *Assembler) Reset() { a.t, a.pending, a.err, a.buf = 0, false, nil, a.buf[:0] }

// AssemblerState is what an Assembler holds between segments, so a
// replicated server can save a connection's half-received message in a
// snapshot and restore it on another node.
type AssemblerState struct {
	Type    Type   // base type of the message in progress (with Pending)
	Pending bool   // fragments have arrived and the message is not complete
	Body    []byte // the body bytes received so far (with Pending)
	Failed  bool   // a framing error stopped the assembler (until Reset)
}

// State returns a's state; Body aliases a's buffer until the next Add.
func (a *Assembler) State() AssemblerState {
	st := AssemblerState{Type: a.t, Pending: a.pending, Failed: a.err != nil}
	if a.pending {
		st.Body = a.buf
	}
	return st
}

// errRestoredFailure stands for the framing error of an assembler restored
// as Failed: the original error's text is not kept, only that it stopped.
var errRestoredFailure = fmt.Errorf("%w: the assembler had stopped on a framing error", ErrFragment)

// SetState makes a continue from st (copying its body), as if it had
// received the segments that produced st. It refuses a state no sequence of
// segments can produce (a body over its type's cap or not whole fragments),
// leaving a unchanged.
func (a *Assembler) SetState(st AssemblerState) error {
	if st.Pending {
		c := MessageCap(st.Type)
		switch {
		case !st.Type.Extended() || st.Type.Fragment() || c < 0:
			return fmt.Errorf("%w: no message of type 0x%02x can be in progress", ErrFragment, uint8(st.Type))
		case len(st.Body) == 0 || len(st.Body)%MaxPayload != 0 || len(st.Body) > c:
			return fmt.Errorf("%w: %d bytes cannot be whole fragments of a %v message", ErrFragment, len(st.Body), st.Type)
		case st.Failed:
			return fmt.Errorf("%w: a failed assembler has no message in progress", ErrFragment)
		}
	}
	a.Reset()
	if st.Failed {
		a.err = errRestoredFailure
		return nil
	}
	if st.Pending {
		a.t, a.pending = st.Type, true
		a.buf = append(a.buf, st.Body...)
	}
	return nil
}
