package account

import (
	"encoding/hex"
	"fmt"
	"strings"
)

// This file reads just enough of a mysqldump to pull the rows of the
// reference server's `account` table: CREATE TABLE for the column order and
// INSERT/REPLACE ... VALUES for the rows. Everything else is skipped.

type tokKind uint8

const (
	tkWord   tokKind = iota // keyword, bare identifier, number, NULL, 0x... literal
	tkIdent                 // `quoted identifier`
	tkString                // 'string' or "string", escapes undone
	tkPunct                 // one of ( ) , . = and other single bytes
)

type token struct {
	kind tokKind
	text string
	line int
}

// word reports whether t is the bare word w, case-insensitively.
func (t token) word(w string) bool { return t.kind == tkWord && strings.EqualFold(t.text, w) }

func (t token) punct(p string) bool { return t.kind == tkPunct && t.text == p }

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c == '-' || c == '+' ||
		'0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}

// lexStatements splits a dump into statements of tokens, dropping comments.
func lexStatements(s string) ([][]token, error) {
	var stmts [][]token
	var cur []token
	line := 1
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '#' || c == '-' && strings.HasPrefix(s[i:], "--") && (i+2 == len(s) || strings.ContainsRune(" \t\r\n", rune(s[i+2]))):
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '/' && strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return nil, fmt.Errorf("%w: line %d: unterminated comment", ErrBadLegacy, line)
			}
			body := s[i : i+2+end+2]
			line += strings.Count(body, "\n")
			i += len(body)
		case c == ';':
			if len(cur) > 0 {
				stmts = append(stmts, cur)
				cur = nil
			}
			i++
		case c == '\'' || c == '"' || c == '`':
			text, n, nl, err := lexQuoted(s[i:], c)
			if err != nil {
				return nil, fmt.Errorf("%w: line %d: %w", ErrBadLegacy, line, err)
			}
			kind := tkString
			if c == '`' {
				kind = tkIdent
			}
			cur = append(cur, token{kind: kind, text: text, line: line})
			line += nl
			i += n
		case isWordByte(c):
			j := i
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			cur = append(cur, token{kind: tkWord, text: s[i:j], line: line})
			i = j
		default:
			cur = append(cur, token{kind: tkPunct, text: s[i : i+1], line: line})
			i++
		}
	}
	if len(cur) > 0 {
		stmts = append(stmts, cur)
	}
	return stmts, nil
}

// lexQuoted reads a quoted string or identifier starting at s[0] == q and
// returns its text, the bytes consumed and the newlines crossed.
func lexQuoted(s string, q byte) (text string, n, newlines int, err error) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		if c == '\n' {
			newlines++
		}
		switch {
		case c == q && i+1 < len(s) && s[i+1] == q:
			b.WriteByte(q)
			i++
		case c == q:
			return b.String(), i + 1, newlines, nil
		case c == '\\' && q != '`' && i+1 < len(s):
			i++
			switch e := s[i]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '0':
				b.WriteByte(0)
			case 'b':
				b.WriteByte('\b')
			case 'Z':
				b.WriteByte(0x1a)
			case '%', '_':
				b.WriteByte('\\')
				b.WriteByte(e)
			default:
				if e == '\n' {
					newlines++
				}
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, 0, fmt.Errorf("unterminated %c-quoted text", q)
}

// parseDump returns the rows of every INSERT into the account table.
func parseDump(data []byte) ([]legacyRow, error) {
	stmts, err := lexStatements(string(data))
	if err != nil {
		return nil, err
	}
	var createCols []string
	var rows []legacyRow
	for _, st := range stmts {
		switch {
		case st[0].word("CREATE"):
			if cols, ok := accountCreateColumns(st); ok {
				createCols = cols
			}
		case st[0].word("INSERT") || st[0].word("REPLACE"):
			r, err := accountInsertRows(st, createCols)
			if err != nil {
				return nil, err
			}
			rows = append(rows, r...)
		}
	}
	return rows, nil
}

// isName reports whether t can be an identifier.
func isName(t token) bool { return t.kind == tkIdent || t.kind == tkWord }

// tableName reads [db.]table at st[i] and returns the table and the index after it.
func tableName(st []token, i int) (string, int, bool) {
	if i >= len(st) || !isName(st[i]) {
		return "", i, false
	}
	name := st[i].text
	i++
	if i+1 < len(st) && st[i].punct(".") && isName(st[i+1]) {
		name = st[i+1].text
		i += 2
	}
	return name, i, true
}

const legacyTable = "account"

// accountCreateColumns returns the column order of CREATE TABLE `account`.
func accountCreateColumns(st []token) ([]string, bool) {
	i := 1
	for i < len(st) && (st[i].word("TEMPORARY") || st[i].word("OR") || st[i].word("REPLACE")) {
		i++
	}
	if i >= len(st) || !st[i].word("TABLE") {
		return nil, false
	}
	i++
	if i+2 < len(st) && st[i].word("IF") && st[i+1].word("NOT") && st[i+2].word("EXISTS") {
		i += 3
	}
	name, i, ok := tableName(st, i)
	if !ok || !strings.EqualFold(name, legacyTable) || i >= len(st) || !st[i].punct("(") {
		return nil, false
	}
	var cols []string
	depth, itemStart := 0, true
	for _, t := range st[i:] {
		switch {
		case t.punct("("):
			depth++
			continue
		case t.punct(")"):
			depth--
			continue
		case depth == 1 && t.punct(","):
			itemStart = true
			continue
		}
		if depth == 1 && itemStart {
			itemStart = false
			if t.kind == tkIdent || t.kind == tkWord && !isKeyClause(t.text) {
				cols = append(cols, t.text)
			}
		}
	}
	return cols, true
}

func isKeyClause(w string) bool {
	switch strings.ToUpper(w) {
	case "PRIMARY", "KEY", "UNIQUE", "INDEX", "CONSTRAINT", "FOREIGN", "FULLTEXT", "SPATIAL", "CHECK", "PERIOD":
		return true
	}
	return false
}

// accountInsertRows returns the rows of an INSERT/REPLACE into `account`, or
// none for another table.
func accountInsertRows(st []token, createCols []string) ([]legacyRow, error) {
	i := 1
	for i < len(st) && (st[i].word("LOW_PRIORITY") || st[i].word("DELAYED") || st[i].word("HIGH_PRIORITY") || st[i].word("IGNORE")) {
		i++
	}
	if i < len(st) && st[i].word("INTO") {
		i++
	}
	name, i, ok := tableName(st, i)
	if !ok || !strings.EqualFold(name, legacyTable) {
		return nil, nil
	}
	line := st[0].line
	bad := func(why string) ([]legacyRow, error) {
		return nil, fmt.Errorf("%w: line %d: INSERT INTO %s: %s", ErrBadLegacy, line, name, why)
	}
	cols := createCols
	if i < len(st) && st[i].punct("(") {
		cols = nil
		for i++; i < len(st) && !st[i].punct(")"); i++ {
			if isName(st[i]) {
				cols = append(cols, st[i].text)
			}
		}
		i++
	}
	if i >= len(st) || !(st[i].word("VALUES") || st[i].word("VALUE")) {
		return bad("only INSERT ... VALUES is supported")
	}
	i++
	var rows []legacyRow
	for i < len(st) && st[i].punct("(") {
		tupleLine := st[i].line
		vals, next, err := tuple(st, i)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: %w", ErrBadLegacy, tupleLine, err)
		}
		i = next
		ni, hi := 0, 1
		if cols != nil {
			if ni, hi, ok = columnIndexes(cols); !ok {
				return bad("no username and password columns in " + strings.Join(cols, ","))
			}
		} else if len(vals) != 2 {
			return bad("rows have more than two values but no column names are known")
		}
		if len(vals) <= max(ni, hi) {
			return bad(fmt.Sprintf("row has %d values", len(vals)))
		}
		if vals[ni] == nil || vals[hi] == nil {
			return bad("NULL username or password")
		}
		rows = append(rows, legacyRow{name: *vals[ni], md5: *vals[hi], line: tupleLine})
		if i < len(st) && st[i].punct(",") {
			i++
		}
	}
	return rows, nil
}

// tuple reads "(v, v, ...)" at st[i]; NULL values are nil.
func tuple(st []token, i int) ([]*string, int, error) {
	var vals []*string
	i++ // (
	for {
		v, next, err := value(st, i)
		if err != nil {
			return nil, i, err
		}
		vals = append(vals, v)
		i = next
		if i >= len(st) {
			return nil, i, fmt.Errorf("unterminated row")
		}
		switch {
		case st[i].punct(","):
			i++
		case st[i].punct(")"):
			return vals, i + 1, nil
		default:
			return nil, i, fmt.Errorf("unexpected %q in row", st[i].text)
		}
	}
}

// rowFuncs are the string functions a row value may call. The reference
// server's Database.sql writes its rows as ('Novate', MD5('123')), so the
// dump holds the password and MySQL would compute the hash on insert; the
// import computes it the same way (MySQL's MD5 is lowercase hex of the bytes).
var rowFuncs = map[string]func(string) string{
	"MD5":   MD5Hex,
	"UPPER": strings.ToUpper,
	"UCASE": strings.ToUpper,
	"LOWER": strings.ToLower,
	"LCASE": strings.ToLower,
	"TRIM":  strings.TrimSpace,
}

// value reads one row value at st[i]: a string, NULL, a literal, or one of
// rowFuncs applied to a value. It returns the value (nil for NULL) and the
// index after it.
func value(st []token, i int) (*string, int, error) {
	if i >= len(st) {
		return nil, i, fmt.Errorf("unterminated row")
	}
	t := st[i]
	switch {
	case t.kind == tkString:
		s := t.text
		return &s, i + 1, nil
	case t.word("NULL"):
		return nil, i + 1, nil
	case t.kind == tkWord && i+1 < len(st) && st[i+1].punct("("):
		f, ok := rowFuncs[strings.ToUpper(t.text)]
		if !ok {
			return nil, i, fmt.Errorf("unsupported function %s() in row (MD5, UPPER and LOWER are understood)", t.text)
		}
		arg, next, err := value(st, i+2)
		if err != nil {
			return nil, i, err
		}
		if next >= len(st) || !st[next].punct(")") {
			return nil, i, fmt.Errorf("%s() takes one argument", t.text)
		}
		if arg == nil {
			return nil, next + 1, nil // MD5(NULL) is NULL
		}
		s := f(*arg)
		return &s, next + 1, nil
	case t.kind == tkWord && (strings.HasPrefix(t.text, "_") || strings.EqualFold(t.text, "x")) &&
		i+1 < len(st) && st[i+1].kind == tkString:
		// _binary'...', _utf8mb4'...' or X'hex'
		s := st[i+1].text
		if strings.EqualFold(t.text, "x") {
			b, err := hex.DecodeString(s)
			if err != nil {
				return nil, i, fmt.Errorf("bad X'' literal")
			}
			s = string(b)
		}
		return &s, i + 2, nil
	case t.kind == tkWord && (strings.HasPrefix(t.text, "0x") || strings.HasPrefix(t.text, "0X")):
		b, err := hex.DecodeString(t.text[2:])
		if err != nil {
			return nil, i, fmt.Errorf("bad 0x literal")
		}
		s := string(b)
		return &s, i + 1, nil
	case t.kind == tkWord:
		s := t.text
		return &s, i + 1, nil
	}
	return nil, i, fmt.Errorf("unexpected %q in row", t.text)
}
