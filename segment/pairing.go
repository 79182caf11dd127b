package segment

// Quick pairing (feature bit FeaturePairing): "Play <game> now". A player
// asks to be paired for a game and a time control; the server keeps a pool
// per game, time control and rated flag, pairs close ratings within
// seconds, and offers a computer opponent after a wait.
const (
	// FeaturePairing: Seek and Seeking.
	FeaturePairing uint32 = 512

	// Seek 0x48 C→S, cap 256: action u8 (SeekPlay, SeekCancel,
	// SeekComputer), game str, rated u8 (1: rated), nOpts u8, nOpts × (key
	// str, value str): the time control, in the clock keys a Create takes
	// (clock.total, clock.increment, clock.move; no other key). SeekCancel
	// and SeekComputer carry an empty game and no options. Answered with
	// Seeking; an Error when the request cannot stand (BadOption,
	// UnknownGame, AtTable, BadRequest).
	//   48 00 18 00 04 64 6f 74 73 00 01 0b 63 6c 6f 63 6b 2e 74 6f 74 61 6c 03 31 38 30
	//                                    Seek play "dots" casual clock.total=180
	//   48 00 04 01 00 00 00             Seek cancel
	Seek Type = 0x48

	// Seeking 0x49 S→C, cap 256: state u8 (SeekWaiting, SeekPaired,
	// SeekCancelled), flags u8 (SeekComputerOffered, SeekProvisional),
	// game str, rated u8, rating u16 (the player's rating the pool uses),
	// low u16, high u16 (the opponents' ratings accepted now), waited u16
	// (seconds in the pool), nOpts u8, nOpts × (key str, value str) (the
	// time control). Sent when the player enters the pool, whenever the
	// range widens, when the computer is offered, and when the seek ends:
	// paired (the table's Joined, Seated, Table, Started follow, as after a
	// Join), or cancelled (asked for, or the player sat, watched or left).
	// (36 bytes: two segments)
	//   c9 00 1d 00 02 04 64 6f 74 73 00 05 dc 04 b0 07 08 00 00 01 0b 63 6c 6f 63 6b 2e 74 6f 74 61 6c
	//   49 00 04 03 31 38 30             Seeking waiting provisional "dots" casual 1500, accepts 1200..1800, clock.total=180
	Seeking Type = 0x49
)

// Seek actions.
const (
	SeekPlay     uint8 = 0 // enter the pool (or move to another one)
	SeekCancel   uint8 = 1 // leave the pool
	SeekComputer uint8 = 2 // accept the computer the server offered
)

// Seeking states and flags.
const (
	SeekWaiting   uint8 = 0
	SeekPaired    uint8 = 1
	SeekCancelled uint8 = 2

	SeekComputerOffered uint8 = 1 // a computer opponent is offered: Seek SeekComputer takes it
	SeekProvisional     uint8 = 2 // the player's rating for the game is provisional (or none yet)
)

// SeekMsg is Seek's body.
type SeekMsg struct {
	Action  uint8
	Game    string
	Rated   uint8 // 1: rated
	Options []KV
}

// Type is Seek.
func (SeekMsg) Type() Type { return Seek }

// Encode appends the body.
func (m SeekMsg) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Seek)
	w.u8(m.Action)
	w.str(m.Game)
	w.u8(m.Rated)
	w.kvs(m.Options)
	return w.done()
}

// Append appends the body.
func (m SeekMsg) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeSeekMsg reads a Seek body.
func DecodeSeekMsg(body []byte) (m SeekMsg, err error) {
	r := reader(Seek, body)
	m.Action, m.Game = r.U8(), r.Str()
	m.Rated = r.U8()
	m.Options = r.kvs()
	return m, r.Done()
}

// SeekingBody is Seeking's body.
type SeekingBody struct {
	State   uint8
	Flags   uint8
	Game    string
	Rated   uint8
	Rating  uint16
	Low     uint16
	High    uint16
	Waited  uint16 // seconds
	Options []KV
}

// Type is Seeking.
func (SeekingBody) Type() Type { return Seeking }

// Encode appends the body.
func (m SeekingBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Seeking)
	w.u8(m.State)
	w.u8(m.Flags)
	w.str(m.Game)
	w.u8(m.Rated)
	w.u16(m.Rating)
	w.u16(m.Low)
	w.u16(m.High)
	w.u16(m.Waited)
	w.kvs(m.Options)
	return w.done()
}

// Append appends the body.
func (m SeekingBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeSeekingBody reads a Seeking body.
func DecodeSeekingBody(body []byte) (m SeekingBody, err error) {
	r := reader(Seeking, body)
	m.State, m.Flags, m.Game = r.U8(), r.U8(), r.Str()
	m.Rated = r.U8()
	m.Rating, m.Low, m.High, m.Waited = r.U16(), r.U16(), r.U16(), r.U16()
	m.Options = r.kvs()
	return m, r.Done()
}
