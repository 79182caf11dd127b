package account

import (
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
)

// CheckGame returns nil when RecordGame can store g, and otherwise an error
// wrapping ErrBadGame that says why. Whether g.Game names a game this build
// knows, and whether its moves are legal, is not the store's business
// (bomber-replay checks that); the limits here keep a record within its
// columns and self-consistent.
func CheckGame(g record.Game) error {
	_, err := checkGame(g)
	return err
}

// checkGame is CheckGame that also returns the options as JSON.
func checkGame(g record.Game) (options string, err error) {
	bad := func(format string, a ...any) (string, error) {
		return "", fmt.Errorf("%w: %s", ErrBadGame, fmt.Sprintf(format, a...))
	}
	n := len(g.Seats)
	switch {
	case len(g.Game) == 0 || len(g.Game) > MaxGameNameLen || !printableASCII(g.Game):
		return bad("game name %q must be 1..%d printable ASCII bytes", g.Game, MaxGameNameLen)
	case n == 0 || n > MaxSeats:
		return bad("%d seats, want 1..%d", n, MaxSeats)
	case len(g.Moves) > MaxMoves:
		return bad("%d moves, at most %d", len(g.Moves), MaxMoves)
	case len(g.Reason) == 0 || len(g.Reason) > MaxReasonLen || !printableASCII(string(g.Reason)):
		return bad("reason %q must be 1..%d printable ASCII bytes", g.Reason, MaxReasonLen)
	case len(g.Outcome.Reason) > MaxDetailLen || !cleanText(g.Outcome.Reason):
		return bad("outcome reason must be up to %d bytes of text", MaxDetailLen)
	case g.Start <= 0:
		return bad("no start time")
	case g.End < g.Start:
		return bad("game ends before it starts")
	case len(g.Scores) != 0 && len(g.Scores) != n:
		return bad("%d scores for %d seats", len(g.Scores), n)
	case len(joinInts(g.Scores)) > 64:
		return bad("scores out of range")
	}
	for i, s := range g.Seats {
		if s.Name != "" && !ValidName(s.Name) {
			return bad("seat %d: %s is not a valid name", i, quoteName(s.Name))
		}
	}
	inRange := func(p rules.Player) bool { return p >= 0 && int(p) < n }
	switch g.Outcome.Status {
	case rules.Won:
		if len(g.Outcome.Winners) == 0 {
			return bad("won without a winner")
		}
	case rules.Running, rules.Drawn:
		if len(g.Outcome.Winners) != 0 {
			return bad("winners without a win")
		}
	default:
		return bad("unknown status %d", g.Outcome.Status)
	}
	for i, w := range g.Outcome.Winners {
		if !inRange(w) || slices.Contains(g.Outcome.Winners[:i], w) {
			return bad("winner %d is not a distinct seat", w)
		}
	}
	if g.Reason == record.Abandoned {
		if !inRange(g.Leaver) {
			return bad("abandoned, but leaver %d is not a seat", g.Leaver)
		}
	} else if g.Leaver != rules.Spectator {
		return bad("leaver %d in a game that was not abandoned", g.Leaver)
	}
	for i, m := range g.Moves {
		if !inRange(m.Seat) {
			return bad("move %d by seat %d", i+1, m.Seat)
		}
		if len(m.Text) == 0 || len(m.Text) > MaxNotationLen || !cleanText(m.Text) {
			return bad("move %d must be 1..%d bytes of text", i+1, MaxNotationLen)
		}
	}
	opts, err := encodeOptions(g.Options)
	if err != nil || len(opts) > MaxOptionsLen {
		return bad("options must be at most %d bytes as JSON", MaxOptionsLen)
	}
	return opts, nil
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// cleanText: valid UTF-8 without control characters.
func cleanText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsFunc(s, unicode.IsControl)
}

func encodeOptions(o rules.Options) (string, error) {
	if len(o) == 0 {
		return "{}", nil
	}
	b, err := json.Marshal(o) // keys sorted: the same options give the same text
	return string(b), err
}

func decodeOptions(s string) (rules.Options, error) {
	var o rules.Options
	if err := json.Unmarshal([]byte(s), &o); err != nil {
		return nil, err
	}
	if len(o) == 0 {
		return nil, nil
	}
	return o, nil
}

func joinInts[T ~int | ~int8](xs []T) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(int(x)))
	}
	return b.String()
}

func splitInts[T ~int | ~int8](s string) ([]T, error) {
	if s == "" {
		return nil, nil
	}
	var out []T
	for f := range strings.SplitSeq(s, ",") {
		x, err := strconv.Atoi(f)
		if err != nil {
			return nil, err
		}
		out = append(out, T(x))
	}
	return out, nil
}

// seedArg is the seed column: hex, or NULL for the zero seed (unknown).
func seedArg(s record.Seed) any {
	if s == (record.Seed{}) {
		return nil
	}
	return hex.EncodeToString(s[:])
}

const (
	insertGameSQL = `INSERT INTO game_records (game, options, seed, status, winners, scores, reason, detail, leaver, moves, move_log, started_at, ended_at)
		 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	insertSeatsSQL = "INSERT INTO game_seats (game_id, seat, name, bot) VALUES "
	storedGameSQL  = "SELECT id FROM game_records WHERE seed = ?"
)

// insertRowsSQL is head followed by rows copies of row.
func insertRowsSQL(head, row string, rows int) string {
	var q strings.Builder
	q.WriteString(head)
	for i := range rows {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString(row)
	}
	return q.String()
}

func (s *sqlStore) RecordGame(ctx context.Context, g record.Game) (uint64, error) {
	ids, err := s.RecordGames(ctx, []record.Game{g})
	if err != nil {
		return 0, err
	}
	return ids[0], nil
}

// MaxBatch is the most records RecordGames takes at once: a transaction
// of 64 Bomber games writes 192 rows and about 150 KB of move logs.
const MaxBatch = 64

func (s *sqlStore) RecordGames(ctx context.Context, gs []record.Game) ([]uint64, error) {
	switch {
	case len(gs) == 0:
		return nil, nil
	case len(gs) > MaxBatch:
		return nil, fmt.Errorf("%w: %d records at once, at most %d", ErrBadGame, len(gs), MaxBatch)
	}
	opts := make([]string, len(gs))
	for i, g := range gs {
		var err error
		if opts[i], err = checkGame(g); err != nil {
			return nil, ofBatch(i, len(gs), err)
		}
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	st, err := s.recordStatements(ctx, gs)
	if err != nil {
		return nil, err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, unavailable("record game", err)
	}
	defer tx.Rollback()
	if err := s.lockRaters(ctx, tx, gs); err != nil {
		return nil, err
	}
	ids := make([]uint64, len(gs))
	var buf recordBuffers
	for i := range gs {
		var fresh bool
		if ids[i], fresh, err = s.recordIn(ctx, tx, st, gs[i], opts[i], &buf); err != nil {
			return nil, err
		}
		// a record stored before changed the ratings then
		if fresh {
			if err := s.rateIn(ctx, tx, st, &gs[i], ids[i]); err != nil {
				return nil, err
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, unavailable("record game", err)
	}
	return ids, nil
}

// ofBatch says which of a batch of n records (the i-th) err is about.
func ofBatch(i, n int, err error) error {
	if n == 1 {
		return err
	}
	return fmt.Errorf("record %d of %d: %w", i+1, n, err)
}

// recordStmts are the prepared statements a batch of records runs.
type recordStmts struct {
	game   *sql.Stmt
	seats  [MaxSeats + 1]*sql.Stmt // by number of seats
	stored *sql.Stmt               // the id of a stored record, by its key
	// rated games': their players' accounts and ratings, and the writing
	// of their new ratings, by number of rated seats (the players with
	// accounts are as many or fewer)
	ratings [MaxSeats + 1]*sql.Stmt
	rate    [MaxSeats + 1]*sql.Stmt
	history [MaxSeats + 1]*sql.Stmt
}

// recordStatements prepares (once per store) every statement gs need,
// before the transaction takes the embedded store's only connection.
func (s *sqlStore) recordStatements(ctx context.Context, gs []record.Game) (st recordStmts, err error) {
	if st.game, err = s.prepared(ctx, insertGameSQL); err != nil {
		return st, unavailable("record game", err)
	}
	if st.stored, err = s.prepared(ctx, s.d.storedGame); err != nil {
		return st, unavailable("record game", err)
	}
	for i := range gs {
		if n := len(gs[i].Seats); st.seats[n] == nil {
			if st.seats[n], err = s.prepared(ctx, insertRowsSQL(insertSeatsSQL, "(?, ?, ?, ?)", n)); err != nil {
				return st, unavailable("record game seats", err)
			}
		}
		if n := len(ratedSeats(&gs[i])); n > 0 && st.ratings[n] == nil {
			if st.ratings[n], err = s.prepared(ctx, ratingsBeforeSQL(n)); err != nil {
				return st, unavailable("ratings", err)
			}
			for k := 2; k <= n; k++ {
				if st.rate[k], err = s.prepared(ctx, upsertRatingsSQL(k, s.d.upsertRating)); err != nil {
					return st, unavailable("rate", err)
				}
				if st.history[k], err = s.prepared(ctx, insertHistorySQL(k)); err != nil {
					return st, unavailable("rating history", err)
				}
			}
		}
	}
	return st, nil
}

// recordBuffers are what the records of a batch reuse: the seats'
// arguments and the move log.
type recordBuffers struct {
	args []any
	log  []byte
}

// recordIn writes g (whose options are opts) in tx and returns its id and
// fresh, or the id of the record stored before with g's seed and not fresh, which identifies a game
// (the unique index on game_records.seed; the zero seed is NULL there,
// which no other row matches): a retry whose answer was lost, or a game a
// restarted daemon's journal replayed, is stored once. Both dialects give
// up only the statement that broke the key, not the transaction, so the
// batch goes on.
func (s *sqlStore) recordIn(ctx context.Context, tx *sql.Tx, st recordStmts, g record.Game, opts string, buf *recordBuffers) (id uint64, fresh bool, err error) {
	buf.log = appendMoveLog(buf.log[:0], g.Moves)
	start := s.d.timeArg(time.Unix(0, g.Start))
	res, err := tx.StmtContext(ctx, st.game).ExecContext(ctx,
		g.Game, opts, seedArg(g.Seed), int(g.Outcome.Status), joinInts(g.Outcome.Winners), joinInts(g.Scores),
		g.Reason, g.Outcome.Reason, int(g.Leaver), len(g.Moves), string(buf.log),
		start, s.d.timeArg(time.Unix(0, g.End)))
	if err != nil && s.d.isDuplicate(err) {
		if err := tx.StmtContext(ctx, st.stored).QueryRowContext(ctx, seedArg(g.Seed)).Scan(&id); err != nil {
			return 0, false, unavailable("record game stored before", err)
		}
		return id, false, nil
	}
	if err != nil {
		return 0, false, unavailable("record game", err)
	}
	last, err := res.LastInsertId()
	if err != nil {
		return 0, false, unavailable("record game", err)
	}
	buf.args = buf.args[:0]
	for i, seat := range g.Seats {
		bot := 0
		if seat.Bot {
			bot = 1
		}
		buf.args = append(buf.args, last, i, seat.Name, bot)
	}
	if _, err := tx.StmtContext(ctx, st.seats[len(g.Seats)]).ExecContext(ctx, buf.args...); err != nil {
		return 0, false, unavailable("record game seats", err)
	}
	return uint64(last), true, nil
}

const recordColumns = "id, game, options, seed, status, winners, scores, reason, detail, leaver, moves, started_at, ended_at"

// scanRecord reads one game_records row selected with recordColumns and
// then the columns of extra.
func scanRecord(row interface{ Scan(...any) error }, extra ...any) (record.Game, error) {
	var g record.Game
	var opts, winners, scores string
	var seed sql.NullString
	var status, leaver int
	var start, end dbTime
	if err := row.Scan(append([]any{&g.ID, &g.Game, &opts, &seed, &status, &winners, &scores, &g.Reason, &g.Outcome.Reason,
		&leaver, &g.MoveCount, &start, &end}, extra...)...); err != nil {
		return g, err
	}
	g.Outcome.Status, g.Leaver = rules.Status(status), rules.Player(leaver)
	g.Start, g.End = start.t.UnixNano(), end.t.UnixNano()
	var err error
	if g.Options, err = decodeOptions(opts); err != nil {
		return g, fmt.Errorf("game %d options: %w", g.ID, err)
	}
	if seed.Valid {
		if err := g.Seed.UnmarshalText([]byte(seed.String)); err != nil {
			return g, fmt.Errorf("game %d seed: %w", g.ID, err)
		}
	}
	if g.Outcome.Winners, err = splitInts[rules.Player](winners); err != nil {
		return g, fmt.Errorf("game %d winners: %w", g.ID, err)
	}
	if g.Scores, err = splitInts[int](scores); err != nil {
		return g, fmt.Errorf("game %d scores: %w", g.ID, err)
	}
	return g, nil
}

func (s *sqlStore) Games(ctx context.Context, f GameFilter) ([]record.Game, error) {
	limit := f.Limit
	if limit <= 0 || limit > MaxGames {
		limit = MaxGames
	}
	q := "SELECT " + recordColumns + " FROM game_records r"
	var where []string
	var args []any
	if f.Game != "" {
		where, args = append(where, "r.game = ?"), append(args, f.Game)
	}
	if f.User != "" {
		where = append(where, "EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = r.id AND s.name = ?)")
		args = append(args, f.User)
	}
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY r.ended_at DESC, r.id DESC LIMIT ? OFFSET ?"
	args = append(args, limit, max(f.Skip, 0))

	ctx, cancel := s.op(ctx)
	defer cancel()
	rows, err := s.rd.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, unavailable("games", err)
	}
	defer rows.Close()
	var games []record.Game
	byID := map[uint64]int{}
	for rows.Next() {
		g, err := scanRecord(rows)
		if err != nil {
			return nil, unavailable("games", err)
		}
		byID[g.ID] = len(games)
		games = append(games, g)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable("games", err)
	}
	rows.Close()
	if len(games) == 0 {
		return nil, nil
	}
	ids := make([]any, len(games))
	for i, g := range games {
		ids[i] = g.ID
	}
	seats, err := s.seats(ctx, ids)
	if err != nil {
		return nil, err
	}
	for id, ss := range seats {
		games[byID[id]].Seats = ss
	}
	return games, nil
}

// seats returns the seats of the given games, in seat order.
func (s *sqlStore) seats(ctx context.Context, ids []any) (map[uint64][]record.Seat, error) {
	q := "SELECT game_id, seat, name, bot FROM game_seats WHERE game_id IN (?" + strings.Repeat(", ?", len(ids)-1) + ") ORDER BY game_id, seat"
	rows, err := s.rd.QueryContext(ctx, q, ids...)
	if err != nil {
		return nil, unavailable("game seats", err)
	}
	defer rows.Close()
	out := map[uint64][]record.Seat{}
	for rows.Next() {
		var id uint64
		var seat int
		var st record.Seat
		if err := rows.Scan(&id, &seat, &st.Name, &st.Bot); err != nil {
			return nil, unavailable("game seats", err)
		}
		if seat != len(out[id]) {
			return nil, unavailable("game seats", fmt.Errorf("game %d lacks seat %d", id, len(out[id])))
		}
		out[id] = append(out[id], st)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable("game seats", err)
	}
	return out, nil
}

func (s *sqlStore) Game(ctx context.Context, id uint64) (record.Game, error) {
	ctx, cancel := s.op(ctx)
	defer cancel()
	var log string
	g, err := scanRecord(s.rd.QueryRowContext(ctx, "SELECT "+recordColumns+", move_log FROM game_records WHERE id = ?", id), &log)
	if errors.Is(err, sql.ErrNoRows) {
		return g, fmt.Errorf("%w: %d", ErrNoGame, id)
	}
	if err != nil {
		return g, unavailable("game", err)
	}
	seats, err := s.seats(ctx, []any{id})
	if err != nil {
		return g, err
	}
	g.Seats = seats[id]
	if g.Moves, err = parseMoveLog(log, g.MoveCount); err != nil {
		return g, unavailable("game moves", fmt.Errorf("game %d: %w", id, err))
	}
	g.MoveCount = len(g.Moves)
	return g, nil
}
