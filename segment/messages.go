package segment

import "fmt"

// Typed bodies of the extended messages (layouts beside the type constants
// in ext.go). Client-to-server bodies are named ...Msg, server-to-client ones
// ...Body; Chat's C→S body is ChatBody because ChatMsg names the S→C type.
//
// Every body type has Encode, which appends the body to dst or returns dst
// unchanged and an error wrapping ErrTooLong (a str over MaxStr bytes, a
// list over 255 items, a body over the cap; strings are never cut), and
// Append, which is Encode for callers that built the value within the
// limits (on an error it appends nothing). Decode<Name> reads a whole body;
// it fails with ErrBody on a short body, bytes left over or a body over the
// cap, and its result shares no memory with body.

// Message is any typed body.
type Message interface {
	Type() Type                        // the message type it travels as
	Encode(dst []byte) ([]byte, error) // append the body, checked
	Append(dst []byte) []byte          // append the body; nothing when Encode would fail
}

// Segments appends the segments carrying m to dst. It builds the body in
// scratch and returns scratch for reuse.
func Segments(dst []Segment, scratch []byte, m Message) ([]Segment, []byte, error) {
	body, err := m.Encode(scratch[:0])
	if err != nil {
		return dst, body, err
	}
	return AppendMessage(dst, m.Type(), body), body, nil
}

// Special seat numbers.
const (
	SeatAny     uint8 = 0xFF // Join: any free seat
	SeatWatcher uint8 = 0xFF // Joined: you watch
)

// Create flags: bit 0 private, bits 1-2 the watch policy.
const (
	FlagPrivate     uint8 = 1    // the table gets a join code and is not listed to others
	WatchPolicyMask uint8 = 0x06 // bits 1-2: WatchAnyone, WatchWithCode or WatchNobody, shifted left 1
	WatchAnyone     uint8 = 0    // anyone may watch
	WatchWithCode   uint8 = 1    // only join-code holders may watch
	WatchNobody     uint8 = 2    // nobody may watch
)

// WatchPolicy reads the watch policy out of Create flags.
func WatchPolicy(flags uint8) uint8 { return flags & WatchPolicyMask >> 1 }

// Option kinds (OptionInfo.Kind).
const (
	OptInt    uint8 = 0 // an integer in Min..Max
	OptBool   uint8 = 1 // "0" or "1"
	OptChoice uint8 = 2 // one of Choices
)

// Table phases (TableBody.Phase).
const (
	PhaseWaiting uint8 = 0
	PhasePlaying uint8 = 1
	PhaseOver    uint8 = 2
)

// Seat flags (SeatInfo.Flags).
const (
	SeatReady uint8 = 1
	SeatBot   uint8 = 2
	SeatGone  uint8 = 4
)

// Offer kinds, answers (C→S) and states (S→C).
const (
	OfferDraw     uint8 = 1
	OfferRematch  uint8 = 2
	OfferTakeback uint8 = 3

	OfferPropose uint8 = 0
	OfferAccept  uint8 = 1
	OfferDecline uint8 = 2

	OfferProposed  uint8 = 0
	OfferAgreed    uint8 = 1
	OfferDeclined  uint8 = 2
	OfferExpired   uint8 = 3
	OfferWithdrawn uint8 = 4
)

// Chat scopes.
const (
	ScopeLobby    uint8 = 0
	ScopeTable    uint8 = 1 // your table's one room (its players' room at a chat=separate table)
	ScopeWatchers uint8 = 2 // your table's watchers' room at a chat=separate table; elsewhere the one room
)

// GameEnd statuses.
const (
	EndNoResult uint8 = 0 // abandoned: nobody was there to win
	EndWon      uint8 = 1
	EndDrawn    uint8 = 2
)

// MaxMoveArg is the longest move argument (Move, Moved).
const MaxMoveArg = 16

// Error codes (ErrorBody.Code).
const (
	ErrCodeBadRequest    uint8 = 1  // malformed body
	ErrCodeNoTable       uint8 = 2  // no such table
	ErrCodeTableFull     uint8 = 3  // no free seat (or not the one asked for)
	ErrCodeNotAtTable    uint8 = 4  // you neither sit nor watch at a table
	ErrCodeAtTable       uint8 = 5  // you already sit or watch elsewhere
	ErrCodeIllegal       uint8 = 6  // the rules refuse the move
	ErrCodeNotYourTurn   uint8 = 7  // another seat is to move
	ErrCodeGameOver      uint8 = 8  // the game is over or not running
	ErrCodeBadOption     uint8 = 9  // unknown option or value out of range
	ErrCodeTooManyTables uint8 = 10 // the server's table limit
	ErrCodeNotAllowed    uint8 = 11 // join code, watch policy or watcher cap
	ErrCodeChatBadUTF8   uint8 = 12 // chat text is not UTF-8
	ErrCodeChatTooLong   uint8 = 13 // chat text too long
	ErrCodeChatFlood     uint8 = 14 // chatting too fast
	ErrCodeNoUser        uint8 = 15 // no such user (Invite)
	ErrCodeNotLoggedIn   uint8 = 16 // log in first
	ErrCodeBadNotation   uint8 = 17 // MoveText not understood
	ErrCodeNoOffer       uint8 = 18 // nothing to answer
	ErrCodeUnknownGame   uint8 = 19 // Create names no game of the catalog
	ErrCodeNotSeated     uint8 = 20 // only seated players may do that
	// SignUp's refusals: the name, or one that looks like it, has an
	// account; the name or the password breaks the sign-up rules; the
	// server takes no sign-ups; too many sign-ups from the address or from
	// everyone lately; the account store could not answer.
	ErrCodeNameTaken    uint8 = 21
	ErrCodeBadName      uint8 = 22
	ErrCodeBadPassword  uint8 = 23
	ErrCodeSignUpClosed uint8 = 24
	ErrCodeRateLimited  uint8 = 25
	ErrCodeUnavailable  uint8 = 26
)

var errCodeNames = [...]string{"", "BadRequest", "NoTable", "TableFull", "NotAtTable", "AtTable",
	"Illegal", "NotYourTurn", "GameOver", "BadOption", "TooManyTables", "NotAllowed",
	"ChatBadUTF8", "ChatTooLong", "ChatFlood", "NoUser", "NotLoggedIn", "BadNotation",
	"NoOffer", "UnknownGame", "NotSeated", "NameTaken", "BadName", "BadPassword", "SignUpClosed",
	"RateLimited", "Unavailable", "WrongPassword"}

// ErrCodeName names an Error code as the spec does ("TableFull").
func ErrCodeName(c uint8) string {
	if c > 0 && int(c) < len(errCodeNames) {
		return errCodeNames[c]
	}
	return fmt.Sprintf("code%d", c)
}

// reader starts decoding a body of type t, refusing one over t's cap.
func reader(t Type, body []byte) Reader {
	r := NewReader(body)
	if c := MessageCap(t); len(body) > c {
		r.Fail("%v body of %d bytes (cap %d)", t, len(body), c)
	}
	return r
}

// cloneBytes copies p; empty is nil, so decoded values compare predictably.
func cloneBytes(p []byte) []byte {
	if len(p) == 0 {
		return nil
	}
	return append([]byte(nil), p...)
}

// EmptyMsg is a message with an empty body (CatalogReq, ListReq, Leave,
// Ready, ViewReq, Resign).
type EmptyMsg struct{ T Type }

// Type is e.T.
func (e EmptyMsg) Type() Type { return e.T }

// Encode appends nothing.
func (e EmptyMsg) Encode(dst []byte) ([]byte, error) { return dst, nil }

// Append appends nothing.
func (e EmptyMsg) Append(dst []byte) []byte { return dst }

// DecodeEmpty checks that a body that should be empty is.
func DecodeEmpty(body []byte) error {
	if len(body) != 0 {
		return fmt.Errorf("%w: %d bytes in an empty body", ErrBody, len(body))
	}
	return nil
}

// HelloMsg is Hello's body.
type HelloMsg struct {
	Version  uint8
	Features uint32
}

// Type is Hello.
func (HelloMsg) Type() Type { return Hello }

// Encode appends the body.
func (m HelloMsg) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Hello)
	w.u8(m.Version)
	w.u32(m.Features)
	return w.done()
}

// Append appends the body.
func (m HelloMsg) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeHelloMsg reads a Hello body.
func DecodeHelloMsg(body []byte) (m HelloMsg, err error) {
	r := reader(Hello, body)
	m.Version, m.Features = r.U8(), r.U32()
	return m, r.Done()
}

// WelcomeBody is Welcome's body.
type WelcomeBody struct {
	Version    uint8
	Features   uint32 // the features both sides support
	MaxMessage uint16 // the largest cap (MaxMessage)
}

// Type is Welcome.
func (WelcomeBody) Type() Type { return Welcome }

// Encode appends the body.
func (m WelcomeBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Welcome)
	w.u8(m.Version)
	w.u32(m.Features)
	w.u16(m.MaxMessage)
	return w.done()
}

// Append appends the body.
func (m WelcomeBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeWelcomeBody reads a Welcome body.
func DecodeWelcomeBody(body []byte) (m WelcomeBody, err error) {
	r := reader(Welcome, body)
	m.Version, m.Features, m.MaxMessage = r.U8(), r.U32(), r.U16()
	return m, r.Done()
}

// KV is an option setting: key and value as text.
type KV struct{ Key, Value string }

func (w *writer) kvs(kvs []KV) {
	w.count(len(kvs))
	for _, kv := range kvs {
		w.str(kv.Key)
		w.str(kv.Value)
	}
}

func (r *Reader) kvs() []KV {
	n := r.Count(2)
	if n == 0 {
		return nil
	}
	kvs := make([]KV, n)
	for i := range kvs {
		kvs[i] = KV{r.Str(), r.Str()}
	}
	return kvs
}

// OptionInfo describes one option of a game (GameInfoBody).
type OptionInfo struct {
	Key      string
	Kind     uint8 // OptInt, OptBool, OptChoice
	Default  string
	Min, Max int32 // OptInt bounds
	Choices  []string
	Doc      string
}

// GameInfoBody is Game's body (0x23): one game of the catalog.
type GameInfoBody struct {
	Name     string
	Min, Max uint8 // seats
	Options  []OptionInfo
	// Facts follow the options when the client asked for
	// FeatureGameFacts; nil: not sent (not asked for, or an older server).
	Facts *GameFacts
}

// GameFacts is what a Game says of its game, besides seats and options,
// to a client that asked for FeatureGameFacts.
type GameFacts struct {
	Title string // the game's name for people ("Dots and Boxes")
	Flags uint8  // GameTakeback | GameDraws
}

// GameFacts flags: the offers the game allows.
const (
	GameTakeback uint8 = 1 // a move can be taken back (Offer takeback)
	GameDraws    uint8 = 2 // a draw can be agreed (Offer draw)
)

// Type is GameInfo.
func (GameInfoBody) Type() Type { return GameInfo }

// Encode appends the body.
func (m GameInfoBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, GameInfo)
	w.str(m.Name)
	w.u8(m.Min)
	w.u8(m.Max)
	w.count(len(m.Options))
	for _, o := range m.Options {
		w.str(o.Key)
		w.u8(o.Kind)
		w.str(o.Default)
		w.i32(o.Min)
		w.i32(o.Max)
		w.count(len(o.Choices))
		for _, c := range o.Choices {
			w.str(c)
		}
		w.str(o.Doc)
	}
	if m.Facts != nil {
		w.str(m.Facts.Title)
		w.u8(m.Facts.Flags)
	}
	return w.done()
}

// Append appends the body.
func (m GameInfoBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeGameInfoBody reads a Game body.
func DecodeGameInfoBody(body []byte) (m GameInfoBody, err error) {
	r := reader(GameInfo, body)
	m.Name, m.Min, m.Max = r.Str(), r.U8(), r.U8()
	if n := r.Count(13); n > 0 {
		m.Options = make([]OptionInfo, n)
		for i := range m.Options {
			o := &m.Options[i]
			o.Key, o.Kind, o.Default, o.Min, o.Max = r.Str(), r.U8(), r.Str(), r.I32(), r.I32()
			if k := r.Count(1); k > 0 {
				o.Choices = make([]string, k)
				for j := range o.Choices {
					o.Choices[j] = r.Str()
				}
			}
			o.Doc = r.Str()
		}
	}
	if r.Len() > 0 {
		m.Facts = &GameFacts{Title: r.Str(), Flags: r.U8()}
	}
	return m, r.Done()
}

// CreateMsg is Create's body.
type CreateMsg struct {
	Game         string
	Seats, Flags uint8 // Flags: FlagPrivate | watch policy << 1
	Options      []KV
}

// Type is Create.
func (CreateMsg) Type() Type { return Create }

// Encode appends the body.
func (m CreateMsg) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Create)
	w.str(m.Game)
	w.u8(m.Seats)
	w.u8(m.Flags)
	w.kvs(m.Options)
	return w.done()
}

// Append appends the body.
func (m CreateMsg) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeCreateMsg reads a Create body.
func DecodeCreateMsg(body []byte) (m CreateMsg, err error) {
	r := reader(Create, body)
	m.Game, m.Seats, m.Flags = r.Str(), r.U8(), r.U8()
	m.Options = r.kvs()
	return m, r.Done()
}

// JoinMsg is Join's body.
type JoinMsg struct {
	Table uint32
	Seat  uint8 // SeatAny: any free seat
	Code  string
}

// Type is Join.
func (JoinMsg) Type() Type { return Join }

// Encode appends the body.
func (m JoinMsg) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Join)
	w.u32(m.Table)
	w.u8(m.Seat)
	w.str(m.Code)
	return w.done()
}

// Append appends the body.
func (m JoinMsg) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeJoinMsg reads a Join body.
func DecodeJoinMsg(body []byte) (m JoinMsg, err error) {
	r := reader(Join, body)
	m.Table, m.Seat, m.Code = r.U32(), r.U8(), r.Str()
	return m, r.Done()
}

// WatchMsg is Watch's body.
type WatchMsg struct {
	Table uint32
	Code  string
}

// Type is Watch.
func (WatchMsg) Type() Type { return Watch }

// Encode appends the body.
func (m WatchMsg) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Watch)
	w.u32(m.Table)
	w.str(m.Code)
	return w.done()
}

// Append appends the body.
func (m WatchMsg) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeWatchMsg reads a Watch body.
func DecodeWatchMsg(body []byte) (m WatchMsg, err error) {
	r := reader(Watch, body)
	m.Table, m.Code = r.U32(), r.Str()
	return m, r.Done()
}

// InviteMsg is Invite's body.
type InviteMsg struct{ User string }

// Type is Invite.
func (InviteMsg) Type() Type { return Invite }

// Encode appends the body.
func (m InviteMsg) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Invite)
	w.str(m.User)
	return w.done()
}

// Append appends the body.
func (m InviteMsg) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeInviteMsg reads an Invite body.
func DecodeInviteMsg(body []byte) (m InviteMsg, err error) {
	r := reader(Invite, body)
	m.User = r.Str()
	return m, r.Done()
}

// MoveMsg is Move's body: a rules.Move. Arg bytes past Len are not sent.
type MoveMsg struct {
	Kind, Len uint8
	Arg       [MaxMoveArg]uint8
}

// Type is Move.
func (MoveMsg) Type() Type { return Move }

func (w *writer) move(kind, n uint8, arg *[MaxMoveArg]uint8) {
	w.u8(kind)
	if n > MaxMoveArg {
		w.fail(fmt.Errorf("%w: %v argument of %d bytes (max %d)", ErrTooLong, w.t, n, MaxMoveArg))
		return
	}
	w.u8(n)
	w.raw(arg[:n])
}

func (r *Reader) move(arg *[MaxMoveArg]uint8) (kind, n uint8) {
	kind, n = r.U8(), r.U8()
	if n > MaxMoveArg {
		r.Fail("move argument of %d bytes (max %d)", n, MaxMoveArg)
		return kind, 0
	}
	copy(arg[:], r.take(int(n)))
	return kind, n
}

// Encode appends the body.
func (m MoveMsg) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Move)
	w.move(m.Kind, m.Len, &m.Arg)
	return w.done()
}

// Append appends the body.
func (m MoveMsg) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeMoveMsg reads a Move body.
func DecodeMoveMsg(body []byte) (m MoveMsg, err error) {
	r := reader(Move, body)
	m.Kind, m.Len = r.move(&m.Arg)
	return m, r.Done()
}

// MoveTextMsg is MoveText's body: a move in the game's notation.
type MoveTextMsg struct{ Notation string }

// Type is MoveText.
func (MoveTextMsg) Type() Type { return MoveText }

// Encode appends the body.
func (m MoveTextMsg) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, MoveText)
	w.text(m.Notation)
	return w.done()
}

// Append appends the body.
func (m MoveTextMsg) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeMoveTextMsg reads a MoveText body.
func DecodeMoveTextMsg(body []byte) (m MoveTextMsg, err error) {
	r := reader(MoveText, body)
	m.Notation = string(r.Rest())
	return m, r.Done()
}

// OfferMsg is Offer's client-to-server body.
type OfferMsg struct {
	What   uint8 // OfferDraw, OfferRematch, OfferTakeback
	Answer uint8 // OfferPropose, OfferAccept, OfferDecline
}

// Type is Offer.
func (OfferMsg) Type() Type { return Offer }

// Encode appends the body.
func (m OfferMsg) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Offer)
	w.u8(m.What)
	w.u8(m.Answer)
	return w.done()
}

// Append appends the body.
func (m OfferMsg) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeOfferMsg reads a client's Offer body.
func DecodeOfferMsg(body []byte) (m OfferMsg, err error) {
	r := reader(Offer, body)
	m.What, m.Answer = r.U8(), r.U8()
	return m, r.Done()
}

// OfferBody is Offer's server-to-client body.
type OfferBody struct {
	What  uint8
	State uint8 // OfferProposed .. OfferWithdrawn
	Seat  uint8 // who proposed or answered
}

// Type is Offer.
func (OfferBody) Type() Type { return Offer }

// Encode appends the body.
func (m OfferBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Offer)
	w.u8(m.What)
	w.u8(m.State)
	w.u8(m.Seat)
	return w.done()
}

// Append appends the body.
func (m OfferBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeOfferBody reads a server's Offer body.
func DecodeOfferBody(body []byte) (m OfferBody, err error) {
	r := reader(Offer, body)
	m.What, m.State, m.Seat = r.U8(), r.U8(), r.U8()
	return m, r.Done()
}

// ChatBody is Chat's body (client to server).
type ChatBody struct {
	Scope uint8 // ScopeLobby, ScopeTable, ScopeWatchers
	Text  string
}

// Type is Chat.
func (ChatBody) Type() Type { return Chat }

// Encode appends the body.
func (m ChatBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Chat)
	w.u8(m.Scope)
	w.text(m.Text)
	return w.done()
}

// Append appends the body.
func (m ChatBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeChatBody reads a Chat body.
func DecodeChatBody(body []byte) (m ChatBody, err error) {
	r := reader(Chat, body)
	m.Scope, m.Text = r.U8(), string(r.Rest())
	return m, r.Done()
}

// SeatInfo is one seat of a TableBody.
type SeatInfo struct {
	Name  string // empty: free
	Flags uint8  // SeatReady | SeatBot | SeatGone
}

// TableBody is Table's body (0x31).
type TableBody struct {
	ID       uint32
	Game     string
	Flags    uint8 // the Create flags
	Phase    uint8 // PhaseWaiting, PhasePlaying, PhaseOver
	Watchers uint16
	Code     string // join code, only to members
	Seats    []SeatInfo
	Options  []KV
}

// Type is TableInfo.
func (TableBody) Type() Type { return TableInfo }

// Encode appends the body.
func (m TableBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, TableInfo)
	w.u32(m.ID)
	w.str(m.Game)
	w.u8(m.Flags)
	w.u8(m.Phase)
	w.u16(m.Watchers)
	w.str(m.Code)
	w.count(len(m.Seats))
	for _, s := range m.Seats {
		w.str(s.Name)
		w.u8(s.Flags)
	}
	w.kvs(m.Options)
	return w.done()
}

// Append appends the body.
func (m TableBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeTableBody reads a Table body.
func DecodeTableBody(body []byte) (m TableBody, err error) {
	r := reader(TableInfo, body)
	m.ID, m.Game, m.Flags, m.Phase, m.Watchers, m.Code = r.U32(), r.Str(), r.U8(), r.U8(), r.U16(), r.Str()
	if n := r.Count(2); n > 0 {
		m.Seats = make([]SeatInfo, n)
		for i := range m.Seats {
			m.Seats[i] = SeatInfo{r.Str(), r.U8()}
		}
	}
	m.Options = r.kvs()
	return m, r.Done()
}

// JoinedBody is Joined's body.
type JoinedBody struct {
	Table uint32 // 0: you left
	Seat  uint8  // SeatWatcher: you watch
}

// Type is Joined.
func (JoinedBody) Type() Type { return Joined }

// Encode appends the body.
func (m JoinedBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Joined)
	w.u32(m.Table)
	w.u8(m.Seat)
	return w.done()
}

// Append appends the body.
func (m JoinedBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeJoinedBody reads a Joined body.
func DecodeJoinedBody(body []byte) (m JoinedBody, err error) {
	r := reader(Joined, body)
	m.Table, m.Seat = r.U32(), r.U8()
	return m, r.Done()
}

// StartedBody is Started's body.
type StartedBody struct {
	Table      uint32
	Seats      uint8
	SeedCommit [32]byte // SHA-256 of the table's 32-byte seed
}

// Type is Started.
func (StartedBody) Type() Type { return Started }

// Encode appends the body.
func (m StartedBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Started)
	w.u32(m.Table)
	w.u8(m.Seats)
	w.h32(m.SeedCommit)
	return w.done()
}

// Append appends the body.
func (m StartedBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeStartedBody reads a Started body.
func DecodeStartedBody(body []byte) (m StartedBody, err error) {
	r := reader(Started, body)
	m.Table, m.Seats, m.SeedCommit = r.U32(), r.U8(), r.H32()
	return m, r.Done()
}

// StepBody is Step's body (0x34): a rules.Step.
type StepBody struct {
	Seq     uint32
	Kind    uint8
	Player  int8
	A, B, C int16
}

// Type is StepMsg.
func (StepBody) Type() Type { return StepMsg }

// Encode appends the body.
func (m StepBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, StepMsg)
	w.u32(m.Seq)
	w.u8(m.Kind)
	w.i8(m.Player)
	w.i16(m.A)
	w.i16(m.B)
	w.i16(m.C)
	return w.done()
}

// Append appends the body.
func (m StepBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeStepBody reads a Step body.
func DecodeStepBody(body []byte) (m StepBody, err error) {
	r := reader(StepMsg, body)
	m.Seq, m.Kind, m.Player, m.A, m.B, m.C = r.U32(), r.U8(), r.I8(), r.I16(), r.I16(), r.I16()
	return m, r.Done()
}

// MovedBody is Moved's body: an accepted move.
type MovedBody struct {
	Seq             uint32
	Seat, Kind, Len uint8
	Arg             [MaxMoveArg]uint8 // bytes past Len are not sent
	Notation        string
}

// Type is Moved.
func (MovedBody) Type() Type { return Moved }

// Encode appends the body.
func (m MovedBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Moved)
	w.u32(m.Seq)
	w.u8(m.Seat)
	w.move(m.Kind, m.Len, &m.Arg)
	w.str(m.Notation)
	return w.done()
}

// Append appends the body.
func (m MovedBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeMovedBody reads a Moved body.
func DecodeMovedBody(body []byte) (m MovedBody, err error) {
	r := reader(Moved, body)
	m.Seq, m.Seat = r.U32(), r.U8()
	m.Kind, m.Len = r.move(&m.Arg)
	m.Notation = r.Str()
	return m, r.Done()
}

func (w *writer) u8s(v []uint8) {
	w.count(len(v))
	if len(v) <= 0xFF {
		w.raw(v)
	}
}

func (w *writer) i16s(v []int16) {
	w.count(len(v))
	if len(v) <= 0xFF {
		for _, x := range v {
			w.i16(x)
		}
	}
}

func (r *Reader) u8s() []uint8 { return cloneBytes(r.take(r.Count(1))) }

func (r *Reader) i16s() []int16 {
	n := r.Count(2)
	if n == 0 {
		return nil
	}
	v := make([]int16, n)
	for i := range v {
		v[i] = r.I16()
	}
	return v
}

// ViewBody is View's body (0x36): what one viewer may see of a game.
type ViewBody struct {
	Seq    uint32
	Viewer int8 // the seat it is drawn for; -1 a watcher
	Status uint8
	ToMove []uint8
	Scores []int16
	Cells  []byte
	Extra  []byte
}

// Type is ViewMsg.
func (ViewBody) Type() Type { return ViewMsg }

// Encode appends the body.
func (m ViewBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, ViewMsg)
	w.u32(m.Seq)
	w.i8(m.Viewer)
	w.u8(m.Status)
	w.u8s(m.ToMove)
	w.i16s(m.Scores)
	w.bytes16(m.Cells)
	w.bytes16(m.Extra)
	return w.done()
}

// Append appends the body.
func (m ViewBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeViewBody reads a View body.
func DecodeViewBody(body []byte) (m ViewBody, err error) {
	r := reader(ViewMsg, body)
	m.Seq, m.Viewer, m.Status = r.U32(), r.I8(), r.U8()
	m.ToMove, m.Scores = r.u8s(), r.i16s()
	m.Cells, m.Extra = cloneBytes(r.Bytes16()), cloneBytes(r.Bytes16())
	return m, r.Done()
}

// GameEndBody is GameEnd's body.
type GameEndBody struct {
	Table   uint32
	Status  uint8 // EndWon, EndDrawn, EndNoResult
	Winners []uint8
	Scores  []int16
	Reason  string
	Seed    [32]byte // the table's seed, revealed
}

// Type is GameEnd.
func (GameEndBody) Type() Type { return GameEnd }

// Encode appends the body.
func (m GameEndBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, GameEnd)
	w.u32(m.Table)
	w.u8(m.Status)
	w.u8s(m.Winners)
	w.i16s(m.Scores)
	w.str(m.Reason)
	w.h32(m.Seed)
	return w.done()
}

// Append appends the body.
func (m GameEndBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeGameEndBody reads a GameEnd body.
func DecodeGameEndBody(body []byte) (m GameEndBody, err error) {
	r := reader(GameEnd, body)
	m.Table, m.Status = r.U32(), r.U8()
	m.Winners, m.Scores = r.u8s(), r.i16s()
	m.Reason, m.Seed = r.Str(), r.H32()
	return m, r.Done()
}

// ErrorBody is Error's body (0x38).
type ErrorBody struct {
	Req  Type  // the message type refused
	Code uint8 // ErrCode...
	Text string
}

// Type is ErrorMsg.
func (ErrorBody) Type() Type { return ErrorMsg }

// Encode appends the body.
func (m ErrorBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, ErrorMsg)
	w.u8(uint8(m.Req))
	w.u8(m.Code)
	w.str(m.Text)
	return w.done()
}

// Append appends the body.
func (m ErrorBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeErrorBody reads an Error body.
func DecodeErrorBody(body []byte) (m ErrorBody, err error) {
	r := reader(ErrorMsg, body)
	m.Req, m.Code, m.Text = Type(r.U8()), r.U8(), r.Str()
	return m, r.Done()
}

// ChatMsgBody is ChatMsg's body (server to client).
type ChatMsgBody struct {
	Scope uint8
	Table uint32 // 0 for the lobby
	From  string
	Text  string
}

// Type is ChatMsg.
func (ChatMsgBody) Type() Type { return ChatMsg }

// Encode appends the body.
func (m ChatMsgBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, ChatMsg)
	w.u8(m.Scope)
	w.u32(m.Table)
	w.str(m.From)
	w.text(m.Text)
	return w.done()
}

// Append appends the body.
func (m ChatMsgBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeChatMsgBody reads a ChatMsg body.
func DecodeChatMsgBody(body []byte) (m ChatMsgBody, err error) {
	r := reader(ChatMsg, body)
	m.Scope, m.Table, m.From = r.U8(), r.U32(), r.Str()
	m.Text = string(r.Rest())
	return m, r.Done()
}

// InvitedBody is Invited's body.
type InvitedBody struct {
	From  string
	Table uint32
	Game  string
	Code  string
}

// Type is Invited.
func (InvitedBody) Type() Type { return Invited }

// Encode appends the body.
func (m InvitedBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Invited)
	w.str(m.From)
	w.u32(m.Table)
	w.str(m.Game)
	w.str(m.Code)
	return w.done()
}

// Append appends the body.
func (m InvitedBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeInvitedBody reads an Invited body.
func DecodeInvitedBody(body []byte) (m InvitedBody, err error) {
	r := reader(Invited, body)
	m.From, m.Table, m.Game, m.Code = r.Str(), r.U32(), r.Str(), r.Str()
	return m, r.Done()
}

// CommitBody is Commit's body: a commitment to a seat's hidden setup.
type CommitBody struct {
	Table uint32
	Seat  uint8
	Hash  [32]byte
}

// Type is Commit.
func (CommitBody) Type() Type { return Commit }

// Encode appends the body.
func (m CommitBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Commit)
	w.u32(m.Table)
	w.u8(m.Seat)
	w.h32(m.Hash)
	return w.done()
}

// Append appends the body.
func (m CommitBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeCommitBody reads a Commit body.
func DecodeCommitBody(body []byte) (m CommitBody, err error) {
	r := reader(Commit, body)
	m.Table, m.Seat, m.Hash = r.U32(), r.U8(), r.H32()
	return m, r.Done()
}

// AckBody is Ack's body: the request that is complete.
type AckBody struct{ Req Type }

// Type is Ack.
func (AckBody) Type() Type { return Ack }

// Encode appends the body.
func (m AckBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Ack)
	w.u8(uint8(m.Req))
	return w.done()
}

// Append appends the body.
func (m AckBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeAckBody reads an Ack body.
func DecodeAckBody(body []byte) (m AckBody, err error) {
	r := reader(Ack, body)
	m.Req = Type(r.U8())
	return m, r.Done()
}

// PingMsg is Ping's body: a nonce the Pong gives back.
type PingMsg struct{ Nonce uint32 }

// Type is Ping.
func (PingMsg) Type() Type { return Ping }

// Encode appends the body.
func (m PingMsg) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Ping)
	w.u32(m.Nonce)
	return w.done()
}

// Append appends the body.
func (m PingMsg) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodePingMsg reads a Ping body.
func DecodePingMsg(body []byte) (m PingMsg, err error) {
	r := reader(Ping, body)
	m.Nonce = r.U32()
	return m, r.Done()
}

// PongBody is Pong's body: the nonce of the Ping it answers.
type PongBody struct{ Nonce uint32 }

// Type is Pong.
func (PongBody) Type() Type { return Pong }

// Encode appends the body.
func (m PongBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Pong)
	w.u32(m.Nonce)
	return w.done()
}

// Append appends the body.
func (m PongBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodePongBody reads a Pong body.
func DecodePongBody(body []byte) (m PongBody, err error) {
	r := reader(Pong, body)
	m.Nonce = r.U32()
	return m, r.Done()
}

// DecodeMessage decodes a body of any extended type into its typed form
// (for tools and descriptions). Offer is read as OfferMsg when its body has
// 2 bytes and as OfferBody otherwise; empty types give EmptyMsg.
func DecodeMessage(t Type, body []byte) (Message, error) {
	switch t {
	case CatalogReq, ListReq, Leave, Ready, ViewReq, Resign, Bye:
		return EmptyMsg{t}, DecodeEmpty(body)
	case Hello:
		return DecodeHelloMsg(body)
	case Welcome:
		return DecodeWelcomeBody(body)
	case GameInfo:
		return DecodeGameInfoBody(body)
	case Create:
		return DecodeCreateMsg(body)
	case Join:
		return DecodeJoinMsg(body)
	case Watch:
		return DecodeWatchMsg(body)
	case Invite:
		return DecodeInviteMsg(body)
	case Move:
		return DecodeMoveMsg(body)
	case MoveText:
		return DecodeMoveTextMsg(body)
	case Offer:
		if len(body) == 2 {
			return DecodeOfferMsg(body)
		}
		return DecodeOfferBody(body)
	case Chat:
		return DecodeChatBody(body)
	case TableInfo:
		return DecodeTableBody(body)
	case Joined:
		return DecodeJoinedBody(body)
	case Started:
		return DecodeStartedBody(body)
	case StepMsg:
		return DecodeStepBody(body)
	case Moved:
		return DecodeMovedBody(body)
	case ViewMsg:
		return DecodeViewBody(body)
	case GameEnd:
		return DecodeGameEndBody(body)
	case ErrorMsg:
		return DecodeErrorBody(body)
	case ChatMsg:
		return DecodeChatMsgBody(body)
	case Invited:
		return DecodeInvitedBody(body)
	case Commit:
		return DecodeCommitBody(body)
	case Bot:
		return DecodeBotMsg(body)
	case Seated:
		return DecodeSeatedBody(body)
	case Resume:
		return DecodeResumeMsg(body)
	case Clock:
		return DecodeClockBody(body)
	case Away:
		return DecodeAwayBody(body)
	case Ping:
		return DecodePingMsg(body)
	case Pong:
		return DecodePongBody(body)
	case SignUp:
		return DecodeSignUpMsg(body)
	case Legal:
		return DecodeLegalBody(body)
	case HintReq:
		return DecodeHintReqMsg(body)
	case Hints:
		return DecodeHintsBody(body)
	case Seek:
		return DecodeSeekMsg(body)
	case Seeking:
		return DecodeSeekingBody(body)
	case HistoryReq:
		return DecodeHistoryReqMsg(body)
	case RatingRow:
		return DecodeRatingRowBody(body)
	case GameRow:
		return DecodeGameRowBody(body)
	case ReplayReq:
		return DecodeReplayReqMsg(body)
	case Replay:
		return DecodeReplayBody(body)
	case Account:
		return DecodeAccountMsg(body)
	case Ack:
		return DecodeAckBody(body)
	}
	return nil, fmt.Errorf("%w 0x%02x", ErrUnknownType, uint8(t))
}
