package account

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
)

// A game's moves are stored in one text column of its record (move_log),
// not a row each: the recorder wrote some 200 rows a Bomber game, and
// those rows were most of what a record cost (schema version 4). The log
// is one line a move, in play order, lines separated by "\n" (none after
// the last; a game without moves has an empty log):
//
//	<seat> <at> <notation>
//
// seat is the mover's seat number, at the nanoseconds since the previous
// move was accepted (the first move's: since the Unix epoch), and notation
// the move's text, which cannot hold a control character. Both numbers are
// decimal and may be negative (a clock stepped back). The start of a
// Bomber game, two boards and a guess:
//
//	0 1764000000000000000 02-32 05-55 70-73\n1 2500000000 13-43 26-76 80-83\n0 1250000 34
//
// whose bytes begin 30 20 31 37 36 34 and whose first line ends 37 33 0a:
// a Bomber guess takes about 12 bytes.

// errMoveLog is a move log that does not read as one.
var errMoveLog = errors.New("account: malformed move log")

// appendMoveLog appends the log of moves to b.
func appendMoveLog(b []byte, moves []record.Move) []byte {
	var prev int64
	for i, m := range moves {
		if i > 0 {
			b = append(b, '\n')
		}
		b = strconv.AppendInt(b, int64(m.Seat), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, m.At-prev, 10)
		b = append(b, ' ')
		b = append(b, m.Text...)
		prev = m.At
	}
	return b
}

// parseMoveLog reads a log of n moves written by appendMoveLog; an error
// wraps errMoveLog.
func parseMoveLog(log string, n int) ([]record.Move, error) {
	if log == "" {
		if n != 0 {
			return nil, fmt.Errorf("%w: empty, want %d moves", errMoveLog, n)
		}
		return nil, nil
	}
	if n <= 0 || n > MaxMoves {
		return nil, fmt.Errorf("%w: %d moves", errMoveLog, n)
	}
	moves := make([]record.Move, 0, n)
	var at int64
	for line := range strings.SplitSeq(log, "\n") {
		if len(moves) == n {
			return nil, fmt.Errorf("%w: more than %d moves", errMoveLog, n)
		}
		seat, rest, ok1 := strings.Cut(line, " ")
		delta, text, ok2 := strings.Cut(rest, " ")
		s, err1 := strconv.ParseUint(seat, 10, 8)
		d, err2 := strconv.ParseInt(delta, 10, 64)
		if !ok1 || !ok2 || err1 != nil || err2 != nil || text == "" || s >= MaxSeats {
			return nil, fmt.Errorf("%w: move %d: %q", errMoveLog, len(moves)+1, line)
		}
		at += d
		moves = append(moves, record.Move{Seat: rules.Player(s), Text: text, At: at})
	}
	if len(moves) != n {
		return nil, fmt.Errorf("%w: %d moves, want %d", errMoveLog, len(moves), n)
	}
	return moves, nil
}
