package checkers

import (
	"fmt"
	"maps"
	"regexp"
	"strings"

	"github.com/bomber-game/bomber/rules"
)

// Tag is one PDN tag pair, such as [Event "Club night"].
type Tag struct {
	Name, Value string
}

// Record is one game as PDN stores it.
type Record struct {
	Tags   []Tag    // in file order
	Moves  []string // move text in order, without numbers, comments or annotations
	Result string   // "1-0" (Black won), "0-1" (White won), "1/2-1/2" or "*"
}

// PDN results. English checkers lists the first player, Black, first.
const (
	ResultBlackWins = "1-0"
	ResultWhiteWins = "0-1"
	ResultDraw      = "1/2-1/2"
	ResultUnknown   = "*"
)

// gameTypeEnglish is PDN's GameType for English draughts (American checkers).
const gameTypeEnglish = "21"

// Tag returns the value of the named tag and whether r has it.
func (r Record) Tag(name string) (string, bool) {
	for _, t := range r.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// setTag replaces the named tag's value, or appends the tag.
func (r *Record) setTag(name, value string) {
	for i := range r.Tags {
		if r.Tags[i].Name == name {
			r.Tags[i].Value = value
			return
		}
	}
	r.Tags = append(r.Tags, Tag{name, value})
}

// Record returns the board moves played so far as a PDN record carrying the
// given tags plus GameType, Result and (after a set-up start) SetUp and FEN.
// Draw offers are not moves in PDN and are left out; the result tells how
// the game ended.
func (g *Game) Record(tags ...Tag) Record {
	r := Record{Tags: append([]Tag(nil), tags...), Result: g.result()}
	r.setTag("GameType", gameTypeEnglish)
	if g.cfg.start != startPos() {
		r.setTag("SetUp", "1")
		r.setTag("FEN", formatFEN(g.cfg.start))
	}
	r.setTag("Result", r.Result)
	for _, m := range g.moves {
		r.Moves = append(r.Moves, formatMove(m))
	}
	return r
}

func (g *Game) result() string {
	switch g.outcome.Status {
	case rules.Drawn:
		return ResultDraw
	case rules.Won:
		return [2]string{black: ResultBlackWins, white: ResultWhiteWins}[g.outcome.Winners[0]]
	}
	return ResultUnknown
}

// Replay starts a game from the record's FEN tag (or the opening position)
// under opts and plays its moves, reporting the first one that fails.
func (r Record) Replay(opts rules.Options) (*Game, error) {
	opts = maps.Clone(opts)
	if fen, ok := r.Tag("FEN"); ok {
		if opts == nil {
			opts = rules.Options{}
		}
		opts[OptFEN] = fen
	}
	g, err := New(opts)
	if err != nil {
		return nil, err
	}
	for i, text := range r.Moves {
		p := g.actor()
		m, err := g.ParseMove(p, text)
		if err == nil {
			_, err = g.Play(p, m, nil)
		}
		if err != nil {
			return g, fmt.Errorf("PDN move %d (%s): %w", i+1, text, err)
		}
	}
	return g, nil
}

// String writes r as PDN: its tags, then numbered movetext wrapped to 79
// columns, ending with the result.
func (r Record) String() string {
	var b strings.Builder
	for _, t := range r.Tags {
		v := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(t.Value)
		fmt.Fprintf(&b, "[%s \"%s\"]\n", t.Name, v)
	}
	if len(r.Tags) > 0 {
		b.WriteByte('\n')
	}
	side := black
	if fen, ok := r.Tag("FEN"); ok {
		if p, err := parseFEN(fen); err == nil {
			side = int(p.side)
		}
	}
	var tokens []string
	for i, m := range r.Moves {
		ply := i + side
		switch {
		case ply%2 == 0:
			tokens = append(tokens, fmt.Sprintf("%d.", ply/2+1))
		case i == 0:
			tokens = append(tokens, fmt.Sprintf("%d...", ply/2+1))
		}
		tokens = append(tokens, m)
	}
	result, ok := resultTokens[r.Result]
	if !ok {
		result = ResultUnknown
	}
	tokens = append(tokens, result)
	line := 0
	for i, tok := range tokens {
		if i > 0 {
			if line+1+len(tok) > 79 {
				b.WriteByte('\n')
				line = 0
			} else {
				b.WriteByte(' ')
				line++
			}
		}
		b.WriteString(tok)
		line += len(tok)
	}
	b.WriteByte('\n')
	return b.String()
}

// FormatPDN writes the records one after another, a blank line between.
func FormatPDN(recs []Record) string {
	parts := make([]string, len(recs))
	for i, r := range recs {
		parts[i] = r.String()
	}
	return strings.Join(parts, "\n")
}

var (
	moveNumber = regexp.MustCompile(`^[0-9]+\.+`)
	moveToken  = regexp.MustCompile(`^[0-9]{1,2}([-xX][0-9]{1,2})+$`)
	nagToken   = regexp.MustCompile(`^\$[0-9]+$`)
)

// resultTokens are the game termination markers PDN files use; the
// international-style 2-0, 0-2 and 1-1 are read as 1-0, 0-1 and a draw.
var resultTokens = map[string]string{
	ResultBlackWins: ResultBlackWins, ResultWhiteWins: ResultWhiteWins, ResultDraw: ResultDraw,
	ResultUnknown: ResultUnknown, "2-0": ResultBlackWins, "0-2": ResultWhiteWins, "1-1": ResultDraw, "0-0": "0-0",
}

// ParsePDN reads every game in text: tag pairs, movetext with move
// numbers, {comments}, (variations), ; and % line comments, $NAGs and !?
// annotations, and a result per game. Moves are checked for form here and
// for legality by Record.Replay.
func ParsePDN(text string) ([]Record, error) {
	var recs []Record
	var cur Record
	started, inMoves := false, false
	finish := func(result string) {
		if result == "" {
			// No termination marker: fall back on the Result tag if it holds one.
			v, _ := cur.Tag("Result")
			if result = resultTokens[v]; result == "" {
				result = ResultUnknown
			}
		}
		cur.Result = result
		recs = append(recs, cur)
		cur, started, inMoves = Record{}, false, false
	}
	fail := func(i int, format string, args ...any) ([]Record, error) {
		return nil, fmt.Errorf("%w: PDN at byte %d: %s", rules.ErrNotation, i, fmt.Sprintf(format, args...))
	}
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '%' && (i == 0 || text[i-1] == '\n'), c == ';':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case c == '{':
			end := strings.IndexByte(text[i:], '}')
			if end < 0 {
				return fail(i, "unterminated comment")
			}
			i += end + 1
		case c == '(':
			depth := 0
			for ; i < len(text); i++ {
				if text[i] == '(' {
					depth++
				} else if text[i] == ')' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if depth != 0 {
				return fail(i, "unterminated variation")
			}
			i++
		case c == '[':
			if inMoves {
				finish("")
			}
			tag, n, err := readTag(text[i:])
			if err != nil {
				return fail(i, "%v", err)
			}
			cur.Tags = append(cur.Tags, tag)
			started = true
			i += n
		default:
			j := i
			for j < len(text) && !strings.ContainsRune(" \t\n\r\f\v[]{}();", rune(text[j])) {
				j++
			}
			if j == i {
				return fail(i, "unexpected %q", c)
			}
			tok := text[i:j]
			i = j
			if res, ok := resultTokens[tok]; ok {
				finish(res)
				continue
			}
			tok = moveNumber.ReplaceAllString(tok, "")
			tok = strings.TrimRight(tok, "!?")
			_, isResult := resultTokens[tok]
			_, badSquares := parseText(tok)
			switch {
			case tok == "" || nagToken.MatchString(tok):
			case moveToken.MatchString(tok) && !isResult && badSquares == nil:
				cur.Moves = append(cur.Moves, tok)
				started, inMoves = true, true
			default:
				return fail(i-len(tok), "%q is not a move, move number or result", tok)
			}
		}
	}
	if started {
		finish("")
	}
	return recs, nil
}

// readTag reads one [Name "value"] tag pair at the start of s and reports
// how many bytes it used.
func readTag(s string) (Tag, int, error) {
	i := 1
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	start := i
	for i < len(s) && (s[i] == '_' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= '0' && s[i] <= '9') {
		i++
	}
	name := s[start:i]
	if name == "" {
		return Tag{}, 0, fmt.Errorf("tag without a name")
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i >= len(s) || s[i] != '"' {
		return Tag{}, 0, fmt.Errorf("tag %s: value must be quoted", name)
	}
	var v strings.Builder
	for i++; ; i++ {
		if i >= len(s) || s[i] == '\n' {
			return Tag{}, 0, fmt.Errorf("tag %s: unterminated value", name)
		}
		if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
			i++
		} else if s[i] == '"' {
			break
		}
		v.WriteByte(s[i])
	}
	for i++; i < len(s) && (s[i] == ' ' || s[i] == '\t'); i++ {
	}
	if i >= len(s) || s[i] != ']' {
		return Tag{}, 0, fmt.Errorf("tag %s: missing ]", name)
	}
	return Tag{name, v.String()}, i + 1, nil
}
