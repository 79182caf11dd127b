package paisho

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bomber-game/bomber/rules"
)

// Words for the actions that are not board moves.
const (
	textOfferDraw   = "offer-draw"
	textAcceptDraw  = "accept-draw"
	textDeclineDraw = "decline-draw"
	textResign      = "resign"
)

func seatLetter(p rules.Player) byte {
	if p == guest {
		return 'G'
	}
	return 'H'
}

// MoveText writes m in move notation: "S(0,8)" deploys a Sky Bison on
// (0,8), "(-8,0)-(-6,3)" moves the tile on (-8,0) to (-6,3), and the words
// offer-draw, accept-draw, decline-draw and resign name the other actions.
func MoveText(m rules.Move) string {
	// built in one buffer: a move's text is made for every move a table
	// relays, and a string per point would be three allocations
	var buf [16]byte // "(-8,-8)-(-8,-8)" is the longest
	if t, at, ok := DeployOf(m); ok && t > NoTile && t < tileKinds && at.OnBoard() {
		return string(at.appendTo(append(buf[:0], t.Letter())))
	}
	if from, to, ok := MoveOf(m); ok && from.OnBoard() && to.OnBoard() {
		return string(to.appendTo(append(from.appendTo(buf[:0]), '-')))
	}
	if m.Len == 0 {
		switch m.Kind {
		case rules.KindOfferDraw:
			return textOfferDraw
		case rules.KindAcceptDraw:
			return textAcceptDraw
		case rules.KindDeclineDraw:
			return textDeclineDraw
		case rules.KindResign:
			return textResign
		}
	}
	return fmt.Sprintf("?%d", m.Kind)
}

// Line builds one notation line in the seed's style: turn number, H for
// the host or G for the guest, a dot and the move, as "3H.S(0,8)" or
// "4G.(-8,0)-(-6,3)".
func Line(turn int, p rules.Player, m rules.Move) string {
	return strconv.Itoa(turn) + string(seatLetter(p)) + "." + MoveText(m)
}

// ParseMoveText reads a move written by MoveText.
func ParseMoveText(text string) (rules.Move, error) {
	s := strings.TrimSpace(text)
	switch s {
	case textOfferDraw:
		return OfferDraw(), nil
	case textAcceptDraw:
		return AcceptDraw(), nil
	case textDeclineDraw:
		return DeclineDraw(), nil
	case textResign:
		return Resign(), nil
	}
	bad := fmt.Errorf("%w: %q is not a Pai Sho move", rules.ErrNotation, text)
	if s == "" {
		return rules.Move{}, bad
	}
	if s[0] != '(' {
		t := tileFromLetter(s[0])
		if t == NoTile {
			return rules.Move{}, bad
		}
		at, rest, ok := parsePoint(s[1:])
		if !ok || rest != "" {
			return rules.Move{}, bad
		}
		return Deploy(t, at), nil
	}
	from, rest, ok := parsePoint(s)
	if !ok || !strings.HasPrefix(rest, "-") {
		return rules.Move{}, bad
	}
	to, rest, ok := parsePoint(rest[1:])
	if !ok || rest != "" {
		return rules.Move{}, bad
	}
	return MoveTile(from, to), nil
}

// parsePoint reads "(x,y)" naming a playable point from the start of s.
func parsePoint(s string) (Point, string, bool) {
	if !strings.HasPrefix(s, "(") {
		return Point{}, s, false
	}
	end := strings.IndexByte(s, ')')
	if end < 0 {
		return Point{}, s, false
	}
	xs, ys, ok := strings.Cut(s[1:end], ",")
	if !ok {
		return Point{}, s, false
	}
	x, okx := parseCoord(xs)
	y, oky := parseCoord(ys)
	p := Point{int8(x), int8(y)}
	if !okx || !oky || !p.OnBoard() {
		return Point{}, s, false
	}
	return p, s[end+1:], true
}

// parseCoord reads an optionally negative one- or two-digit number.
func parseCoord(s string) (int, bool) {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 2 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// ParseLine reads one notation line such as "3H.S(0,8)".
func ParseLine(text string) (turn int, p rules.Player, m rules.Move, err error) {
	turn, p, m, hasPrefix, err := parseAny(text)
	if err == nil && !hasPrefix {
		err = fmt.Errorf("%w: %q lacks the turn number and seat", rules.ErrNotation, text)
	}
	return turn, p, m, err
}

// parseAny reads a notation line or a bare move; hasPrefix tells which.
func parseAny(text string) (turn int, p rules.Player, m rules.Move, hasPrefix bool, err error) {
	s := strings.TrimSpace(text)
	digits := 0
	for digits < len(s) && s[digits] >= '0' && s[digits] <= '9' {
		digits++
	}
	if digits == 0 {
		m, err = ParseMoveText(s)
		return 0, 0, m, false, err
	}
	bad := fmt.Errorf("%w: %q is not a Pai Sho notation line", rules.ErrNotation, text)
	if digits > 6 || len(s) < digits+2 || s[digits+1] != '.' || s[0] == '0' {
		return 0, 0, rules.Move{}, false, bad
	}
	turn, _ = strconv.Atoi(s[:digits])
	switch s[digits] {
	case 'H':
		p = host
	case 'G':
		p = guest
	default:
		return 0, 0, rules.Move{}, false, bad
	}
	m, err = ParseMoveText(s[digits+2:])
	if err != nil {
		return 0, 0, rules.Move{}, false, err
	}
	return turn, p, m, true, nil
}

// FormatGame writes a whole game, one line per action, each with the seat
// that made it (only a resignation may come from the seat not to move);
// the turn number grows after the guest's deploy or move.
func FormatGame(recs []Record) string {
	var b strings.Builder
	plies := 0
	for _, r := range recs {
		b.WriteString(Line(plies/2+1, r.Player, r.Move))
		b.WriteByte('\n')
		if isBoardKind(r.Move.Kind) {
			plies++
		}
	}
	return b.String()
}

// ParseGame reads a whole game written by FormatGame: one line per action,
// blank lines ignored. It checks the turn numbers and seats (either seat
// may resign, on turn or not); Replay also checks that every move is legal.
func ParseGame(text string) ([]Record, error) {
	var recs []Record
	plies := 0
	for n, line := range strings.Split(text, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		turn, p, m, err := ParseLine(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		if want := rules.Player(plies % 2); turn != plies/2+1 || (p != want && m.Kind != rules.KindResign) {
			return nil, fmt.Errorf("%w: line %d: %q, want turn %d%c", rules.ErrNotation, n+1, line, plies/2+1, seatLetter(want))
		}
		recs = append(recs, Record{p, m})
		if isBoardKind(m.Kind) {
			plies++
		}
	}
	return recs, nil
}

// Replay plays a whole game text from the start and returns the game.
func Replay(text string, opts rules.Options) (*Game, error) {
	recs, err := ParseGame(text)
	if err != nil {
		return nil, err
	}
	g, err := New(2, opts)
	if err != nil {
		return nil, err
	}
	for i, r := range recs {
		if _, err := g.Play(r.Player, r.Move, nil); err != nil {
			return nil, fmt.Errorf("action %d (%c %s): %w", i+1, seatLetter(r.Player), MoveText(r.Move), err)
		}
	}
	return g, nil
}
