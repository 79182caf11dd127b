package segment

// Profiles, game history, leaderboards and replay (feature bit
// FeatureHistory), and account care (FeatureAccount): a logged-in player
// asks about anyone's ratings and games, steps through any stored game, and
// changes their password or deletes their account.
const (
	// FeatureHistory: HistoryReq (answered with RatingRow or GameRow per
	// entry, then Ack) and ReplayReq (answered with Replay and a View).
	FeatureHistory uint32 = 1024
	// FeatureAccount: Account (change password, delete the account).
	FeatureAccount uint32 = 2048

	// HistoryReq 0x4A C→S, cap 64: what u8 (HistProfile, HistGames,
	// HistRatings, HistLeaders), user str ("" yourself), game str, page u16.
	// HistProfile: a RatingRow per game the user played rated. HistGames:
	// a GameRow per game of page (HistPage games a page, newest first; page
	// 0 the newest), of one game or ("") all. HistRatings: a RatingRow per
	// rated game the user played (their rating after it), of one game or
	// all, newest first (at most HistRatingRows). HistLeaders: a RatingRow
	// per player of game whose rating is not provisional, highest first (at
	// most HistLeaderRows). Every answer ends with Ack(HistoryReq); an
	// unknown user is Error NoUser.
	//   4a 00 08 01 03 41 64 61 00 00 00 HistoryReq profile "Ada"
	//   4a 00 09 04 00 04 64 6f 74 73 00 00
	//                                    HistoryReq leaders game "dots"
	HistoryReq Type = 0x4A
	// RatingRow 0x4B S→C, cap 96: what u8 (the request it answers), user
	// str, game str, rating u16, deviation u16, games u32 (rated games it
	// counts; 0 in HistRatings), flags u8 (RowProvisional), at u32 (Unix
	// seconds: the last rated game's end), gameID u64 (HistRatings: the
	// game that made the change; else 0), before u16 (HistRatings: the
	// rating before that game; else 0). Ratings are rounded.
	//   cb 00 1d 01 03 41 64 61 04 64 6f 74 73 05 dc 00 32 00 00 00 0c 00 69 2d 1a 80 00 00 00 00 00 00
	//                                    RatingRow|More profile Ada dots 1500±50 12 games...
	//   4b 00 04 00 00 00 00             RatingRow ...gameID 0, before 0
	RatingRow Type = 0x4B
	// GameRow 0x4C S→C, cap 200: id u64, game str, result u8 (GameLost,
	// GameWon, GameDrawn, GameNoResult, for the user asked about), flags u8
	// (RowRated, RowBot), change i16 (what it did to the user's rating;
	// 0 unrated), ended u32 (Unix seconds), moves u16, reason str, nOpp
	// u8, nOpp × opponent str (the other seats' players; "" a computer or an
	// empty seat).
	//   cc 00 1d 00 00 00 00 00 00 00 07 04 64 6f 74 73 01 01 00 0c 69 2d 1a 80 00 1e 08 72 65 73 69 67
	//                                    GameRow|More game 7 dots won rated +12...
	//   4c 00 09 6e 65 64 01 04 42 65 74 68
	//                                    GameRow ..."resigned" against Beth
	GameRow Type = 0x4C
	// ReplayReq 0x4D C→S, cap 10: id u64, ply u16 (0: before the first
	// move; past the last: the last). Answered with Replay, then a View of
	// the position after ply moves as a watcher saw it (seq = ply, table
	// 0), or Error NoTable for a game the store does not hold.
	//   4d 00 0a 00 00 00 00 00 00 00 07 00 02 ReplayReq game 7 ply 2
	ReplayReq Type = 0x4D
	// Replay 0x4E S→C, cap 512: id u64, game str, ply u16, plies u16, seat
	// i8 (who made move ply; -1 at ply 0), notation str (move ply's), status
	// u8 and reason str (how the game ended), nSeats u8, nSeats × name str,
	// nOpts u8, nOpts × (key str, value str) (the table's options, as Table
	// gives them).
	//   ce 00 1d 00 00 00 00 00 00 00 07 04 64 6f 74 73 00 02 00 1e 00 02 68 31 01 08 72 65 73 69 67 6e
	//                                    Replay|More game 7 dots ply 2 of 30, seat 0 "h1"...
	//   4e 00 0d 65 64 02 03 41 64 61 04 42 65 74 68 00
	//                                    Replay ...won "resigned", Ada v Beth, no options
	Replay Type = 0x4E
	// Account 0x4F C→S, cap 64: what u8 (AccountPassword, AccountDelete),
	// password str (the current one), new str (AccountPassword: the new
	// password, by the sign-up rules; AccountDelete: empty). Answered with
	// Ack(Account), or Error WrongPassword (which counts as a failed login),
	// BadPassword or Unavailable. After deleting, the server closes the
	// connection.
	//   4f 00 0d 02 0a 73 65 63 72 65 74 2d 70 77 31 00
	//                                    Account delete, password "secret-pw1"
	Account Type = 0x4F
)

// What a HistoryReq asks (and a RatingRow answers).
const (
	HistProfile uint8 = 1 // a user's ratings, one per game
	HistGames   uint8 = 2 // a page of a user's games
	HistRatings uint8 = 3 // a user's rating history
	HistLeaders uint8 = 4 // a game's leaderboard
)

// Sizes of HistoryReq's answers.
const (
	HistPage       = 10  // GameRows a page
	HistRatingRows = 100 // most RatingRows of a rating history
	HistLeaderRows = 50  // most RatingRows of a leaderboard
)

// RatingRow flags.
const RowProvisional uint8 = 1 // the rating is provisional (its deviation is high)

// GameRow flags.
const (
	RowRated uint8 = 1 // the game was rated
	RowBot   uint8 = 2 // a computer held a seat at some point
)

// GameRow results, for the user asked about.
const (
	GameLost     uint8 = 0
	GameWon      uint8 = 1
	GameDrawn    uint8 = 2
	GameNoResult uint8 = 3 // abandoned or aborted
)

// What an Account message does.
const (
	AccountPassword uint8 = 1 // change the password
	AccountDelete   uint8 = 2 // delete the account
)

// ErrCodeWrongPassword: Account's current password is wrong.
const ErrCodeWrongPassword uint8 = 27

// HistoryReqMsg is HistoryReq's body.
type HistoryReqMsg struct {
	What uint8
	User string
	Game string
	Page uint16
}

// Type is HistoryReq.
func (HistoryReqMsg) Type() Type { return HistoryReq }

// Encode appends the body.
func (m HistoryReqMsg) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, HistoryReq)
	w.u8(m.What)
	w.str(m.User)
	w.str(m.Game)
	w.u16(m.Page)
	return w.done()
}

// Append appends the body.
func (m HistoryReqMsg) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeHistoryReqMsg reads a HistoryReq body.
func DecodeHistoryReqMsg(body []byte) (m HistoryReqMsg, err error) {
	r := reader(HistoryReq, body)
	m.What, m.User, m.Game, m.Page = r.U8(), r.Str(), r.Str(), r.U16()
	return m, r.Done()
}

// RatingRowBody is RatingRow's body.
type RatingRowBody struct {
	What      uint8
	User      string
	Game      string
	Rating    uint16
	Deviation uint16
	Games     uint32
	Flags     uint8
	At        uint32
	GameID    uint64
	Before    uint16
}

// Type is RatingRow.
func (RatingRowBody) Type() Type { return RatingRow }

// Encode appends the body.
func (m RatingRowBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, RatingRow)
	w.u8(m.What)
	w.str(m.User)
	w.str(m.Game)
	w.u16(m.Rating)
	w.u16(m.Deviation)
	w.u32(m.Games)
	w.u8(m.Flags)
	w.u32(m.At)
	w.b = AppendU64(w.b, m.GameID)
	w.u16(m.Before)
	return w.done()
}

// Append appends the body.
func (m RatingRowBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeRatingRowBody reads a RatingRow body.
func DecodeRatingRowBody(body []byte) (m RatingRowBody, err error) {
	r := reader(RatingRow, body)
	m.What, m.User, m.Game = r.U8(), r.Str(), r.Str()
	m.Rating, m.Deviation, m.Games, m.Flags = r.U16(), r.U16(), r.U32(), r.U8()
	m.At, m.GameID, m.Before = r.U32(), r.U64(), r.U16()
	return m, r.Done()
}

// GameRowBody is GameRow's body.
type GameRowBody struct {
	ID        uint64
	Game      string
	Result    uint8
	Flags     uint8
	Change    int16
	Ended     uint32
	Moves     uint16
	Reason    string
	Opponents []string
}

// Type is GameRow.
func (GameRowBody) Type() Type { return GameRow }

// Encode appends the body.
func (m GameRowBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, GameRow)
	w.b = AppendU64(w.b, m.ID)
	w.str(m.Game)
	w.u8(m.Result)
	w.u8(m.Flags)
	w.i16(m.Change)
	w.u32(m.Ended)
	w.u16(m.Moves)
	w.str(m.Reason)
	w.count(len(m.Opponents))
	for _, o := range m.Opponents {
		w.str(o)
	}
	return w.done()
}

// Append appends the body.
func (m GameRowBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeGameRowBody reads a GameRow body.
func DecodeGameRowBody(body []byte) (m GameRowBody, err error) {
	r := reader(GameRow, body)
	m.ID, m.Game, m.Result, m.Flags = r.U64(), r.Str(), r.U8(), r.U8()
	m.Change, m.Ended, m.Moves, m.Reason = r.I16(), r.U32(), r.U16(), r.Str()
	m.Opponents = r.strs()
	return m, r.Done()
}

// strs reads a u8 count and that many str.
func (r *Reader) strs() []string {
	n := int(r.U8())
	if n == 0 || r.Err() != nil {
		return nil
	}
	out := make([]string, 0, min(n, r.Len()))
	for range n {
		out = append(out, r.Str())
	}
	return out
}

// ReplayReqMsg is ReplayReq's body.
type ReplayReqMsg struct {
	ID  uint64
	Ply uint16
}

// Type is ReplayReq.
func (ReplayReqMsg) Type() Type { return ReplayReq }

// Encode appends the body.
func (m ReplayReqMsg) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, ReplayReq)
	w.b = AppendU64(w.b, m.ID)
	w.u16(m.Ply)
	return w.done()
}

// Append appends the body.
func (m ReplayReqMsg) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeReplayReqMsg reads a ReplayReq body.
func DecodeReplayReqMsg(body []byte) (m ReplayReqMsg, err error) {
	r := reader(ReplayReq, body)
	m.ID, m.Ply = r.U64(), r.U16()
	return m, r.Done()
}

// ReplayBody is Replay's body.
type ReplayBody struct {
	ID       uint64
	Game     string
	Ply      uint16
	Plies    uint16
	Seat     int8
	Notation string
	Status   uint8 // EndWon, EndDrawn, or 0 for a game without a result
	Reason   string
	Seats    []string
	Options  []KV
}

// Type is Replay.
func (ReplayBody) Type() Type { return Replay }

// Encode appends the body.
func (m ReplayBody) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Replay)
	w.b = AppendU64(w.b, m.ID)
	w.str(m.Game)
	w.u16(m.Ply)
	w.u16(m.Plies)
	w.i8(m.Seat)
	w.str(m.Notation)
	w.u8(m.Status)
	w.str(m.Reason)
	w.count(len(m.Seats))
	for _, s := range m.Seats {
		w.str(s)
	}
	w.kvs(m.Options)
	return w.done()
}

// Append appends the body.
func (m ReplayBody) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeReplayBody reads a Replay body.
func DecodeReplayBody(body []byte) (m ReplayBody, err error) {
	r := reader(Replay, body)
	m.ID, m.Game, m.Ply, m.Plies = r.U64(), r.Str(), r.U16(), r.U16()
	m.Seat, m.Notation, m.Status, m.Reason = r.I8(), r.Str(), r.U8(), r.Str()
	m.Seats = r.strs()
	m.Options = r.kvs()
	return m, r.Done()
}

// AccountMsg is Account's body.
type AccountMsg struct {
	What     uint8
	Password string
	New      string
}

// Type is Account.
func (AccountMsg) Type() Type { return Account }

// Encode appends the body.
func (m AccountMsg) Encode(dst []byte) ([]byte, error) {
	w := newWriter(dst, Account)
	w.u8(m.What)
	w.str(m.Password)
	w.str(m.New)
	return w.done()
}

// Append appends the body.
func (m AccountMsg) Append(dst []byte) []byte { b, _ := m.Encode(dst); return b }

// DecodeAccountMsg reads an Account body.
func DecodeAccountMsg(body []byte) (m AccountMsg, err error) {
	r := reader(Account, body)
	m.What, m.Password, m.New = r.U8(), r.Str(), r.Str()
	return m, r.Done()
}
