package segment

// Seats that survive: computer players in seats, seats held through a dropped
// connection, turn clocks. Descriptors 0x40-0x46 (0x42 stays unassigned).
const (
	// Bot 0x40 C→S, cap 1: seat u8 (0xFF: every empty seat). The table's
	// creator gives empty seats of a waiting table to the computer.
	//   40 00 01 ff                      Bot every empty seat
	Bot Type = 0x40
	// Seated 0x41 S→C, cap 29: table u32, seat u8, token [16]byte: the
	// resume token of the seat you now hold.
	//   41 00 15 00 00 00 01 00 5a×16    Seated table 1 seat 0
	Seated Type = 0x41
	// Resume 0x43 C→S, cap 29: table u32, seat u8, token [16]byte, lastSeq
	// u32 (the last update sequence seen; Moved after it are sent again).
	//   43 00 19 00 00 00 01 00 5a×16 00 00 00 05  Resume table 1 seat 0 after 5
	Resume Type = 0x43
	// Clock 0x44 S→C, cap 64: table u32, n u8, n × (left i32 ms, flags u8
	// [1 running, 2 paused while away]); left is -1 for a seat without time.
	//   44 00 0f 00 00 00 01 02 00 00 75 30 01 00 00 75 30 00  Clock 30 s running, 30 s
	Clock Type = 0x44
	// Away 0x45 S→C, cap 29: table u32, seat u8, grace u32 (ms the seat is
	// held for; 0: its player is back).
	//   45 00 09 00 00 00 01 01 00 00 ea 60  Away seat 1 for 60s
	Away Type = 0x45
	// Bye 0x46 C→S, cap 0: the client is closing on purpose; its seats are
	// held for the shorter grace period.
	//   46 00 00                         Bye
	Bye Type = 0x46
)

// Clock flags.
const (
	ClockRunning uint8 = 1
	ClockPaused  uint8 = 2
)

// TokenLen is the length of a resume token.
const TokenLen = 16

// BotMsg is Bot's body.
type BotMsg struct{ Seat uint8 }

// Type is Bot.
func (BotMsg) Type() Type { return Bot }

// Encode appends the body.
func (m BotMsg) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Bot)
	w.u8(m.Seat)
	return w.done()
}

// Append appends the body.
func (m BotMsg) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeBotMsg reads a Bot body.
func DecodeBotMsg(body []byte) (m BotMsg, err error) {
	r := reader(Bot, body)
	m.Seat = r.U8()
	return m, r.Done()
}

// SeatedBody is Seated's body.
type SeatedBody struct {
	Table uint32
	Seat  uint8
	Token [TokenLen]byte
}

// Type is Seated.
func (SeatedBody) Type() Type { return Seated }

// Encode appends the body.
func (m SeatedBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Seated)
	w.u32(m.Table)
	w.u8(m.Seat)
	w.raw(m.Token[:])
	return w.done()
}

// Append appends the body.
func (m SeatedBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeSeatedBody reads a Seated body.
func DecodeSeatedBody(body []byte) (m SeatedBody, err error) {
	r := reader(Seated, body)
	m.Table, m.Seat = r.U32(), r.U8()
	copy(m.Token[:], r.take(TokenLen))
	return m, r.Done()
}

// ResumeMsg is Resume's body.
type ResumeMsg struct {
	Table   uint32
	Seat    uint8
	Token   [TokenLen]byte
	LastSeq uint32
}

// Type is Resume.
func (ResumeMsg) Type() Type { return Resume }

// Encode appends the body.
func (m ResumeMsg) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Resume)
	w.u32(m.Table)
	w.u8(m.Seat)
	w.raw(m.Token[:])
	w.u32(m.LastSeq)
	return w.done()
}

// Append appends the body.
func (m ResumeMsg) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeResumeMsg reads a Resume body.
func DecodeResumeMsg(body []byte) (m ResumeMsg, err error) {
	r := reader(Resume, body)
	m.Table, m.Seat = r.U32(), r.U8()
	copy(m.Token[:], r.take(TokenLen))
	m.LastSeq = r.U32()
	return m, r.Done()
}

// ClockSeat is one seat's clock.
type ClockSeat struct {
	Left  int32 // ms; -1 without time
	Flags uint8 // ClockRunning | ClockPaused
}

// ClockBody is Clock's body.
type ClockBody struct {
	Table uint32
	Seats []ClockSeat
}

// Type is Clock.
func (ClockBody) Type() Type { return Clock }

// Encode appends the body.
func (m ClockBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Clock)
	w.u32(m.Table)
	w.count(len(m.Seats))
	for _, s := range m.Seats {
		w.i32(s.Left)
		w.u8(s.Flags)
	}
	return w.done()
}

// Append appends the body.
func (m ClockBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeClockBody reads a Clock body.
func DecodeClockBody(body []byte) (m ClockBody, err error) {
	r := reader(Clock, body)
	m.Table = r.U32()
	n := r.Count(5)
	for range n {
		m.Seats = append(m.Seats, ClockSeat{Left: r.I32(), Flags: r.U8()})
	}
	return m, r.Done()
}

// AwayBody is Away's body.
type AwayBody struct {
	Table uint32
	Seat  uint8
	Grace uint32 // ms; 0: back
}

// Type is Away.
func (AwayBody) Type() Type { return Away }

// Encode appends the body.
func (m AwayBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Away)
	w.u32(m.Table)
	w.u8(m.Seat)
	w.u32(m.Grace)
	return w.done()
}

// Append appends the body.
func (m AwayBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeAwayBody reads an Away body.
func DecodeAwayBody(body []byte) (m AwayBody, err error) {
	r := reader(Away, body)
	m.Table, m.Seat, m.Grace = r.U32(), r.U8(), r.U32()
	return m, r.Done()
}
