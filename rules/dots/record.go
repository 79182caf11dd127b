package dots

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bomber-game/bomber/rules"
)

// Record writes the whole game as text: a header line naming the grid and
// the number of seats, then one line per move (the seat that moved, then
// the line or "resign"), then a comment with the scores. ReadRecord reads
// it back.
//
//	dots rows=3 cols=3 players=2
//	0 a1-b1
//	1 a1-a2
//	# scores 0 0
func (g *Game) Record() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s rows=%d cols=%d players=%d\n", Name, g.b.rows, g.b.cols, g.players)
	replay := newGame(g.b.rows, g.b.cols, g.players)
	for i, m := range g.moves {
		p := g.movers[i]
		fmt.Fprintf(&sb, "%d %s\n", p, g.b.formatMove(m))
		if _, err := replay.Play(p, m, nil); err != nil {
			panic(fmt.Sprintf("dots: recorded move %s does not replay: %v", g.b.formatMove(m), err))
		}
	}
	sb.WriteString("# scores")
	for _, s := range g.scores[:g.players] {
		fmt.Fprintf(&sb, " %d", s)
	}
	sb.WriteByte('\n')
	return sb.String()
}

// maxRecordLine bounds one line of a record, so a hostile record cannot make
// the reader split enormous fields.
const maxRecordLine = 200

// ReadRecord replays a game record written by Record. Blank lines and
// lines starting with '#' are ignored; the header may omit rows or cols (5
// dots each). The seat on each move line must be the seat to move (any seat
// still playing for "resign").
func ReadRecord(text string) (*Game, error) {
	var g *Game
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		if len(line) > maxRecordLine {
			return nil, fmt.Errorf("dots: record line %d: %w: line too long", i+1, rules.ErrNotation)
		}
		if g == nil {
			var err error
			if g, err = readHeader(line); err != nil {
				return nil, fmt.Errorf("dots: record line %d: %w", i+1, err)
			}
			continue
		}
		if err := readMove(g, line); err != nil {
			return nil, fmt.Errorf("dots: record line %d: %w", i+1, err)
		}
	}
	if g == nil {
		return nil, fmt.Errorf("dots: %w: empty record", rules.ErrNotation)
	}
	return g, nil
}

func readHeader(line string) (*Game, error) {
	fields := strings.Fields(line)
	if fields[0] != Name {
		return nil, fmt.Errorf("%w: header %q does not start with %q", rules.ErrNotation, line, Name)
	}
	opts := rules.Options{}
	players := 0
	for _, f := range fields[1:] {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return nil, fmt.Errorf("%w: header field %q is not key=value", rules.ErrNotation, f)
		}
		if _, dup := opts[k]; dup || (k == "players" && players != 0) {
			return nil, fmt.Errorf("%w: header repeats %q", rules.ErrNotation, k)
		}
		if k != "players" {
			opts[k] = v
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n == 0 {
			return nil, fmt.Errorf("%w: players=%q is not a number of seats", rules.ErrNotation, v)
		}
		players = n
	}
	if players == 0 {
		return nil, fmt.Errorf("%w: header %q lacks players=", rules.ErrNotation, line)
	}
	return newFromOptions(players, opts)
}

func readMove(g *Game, line string) error {
	seat, move, ok := strings.Cut(line, " ")
	if !ok {
		return fmt.Errorf("%w: %q is not a seat and a move", rules.ErrNotation, line)
	}
	p, err := strconv.Atoi(seat)
	if err != nil || p < 0 || p >= g.players {
		return fmt.Errorf("%w: %q is not a seat of a %d-player game", rules.ErrNotation, seat, g.players)
	}
	m, err := g.ParseMove(rules.Player(p), move)
	if err != nil {
		return err
	}
	_, err = g.Play(rules.Player(p), m, nil)
	return err
}
