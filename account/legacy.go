package account

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// maxLegacyInput bounds what ReadLegacy reads; the reference server's table
// is a handful of rows, and a wrong file should fail fast, not fill memory.
const maxLegacyInput = 64 << 20

// Column names accepted for the name and the MD5, compared case-insensitively.
var (
	legacyNameCols = []string{"username", "name", "user"}
	legacyHashCols = []string{"password", "passwd", "md5hex", "md5", "hash", "password_md5"}
)

// ReadLegacy reads the reference server's account table in one of the forms
// an operator has at hand, detected from the first non-blank line:
//
//   - a mysqldump of the table (the file starts with a comment or an SQL
//     statement): the rows of every INSERT/REPLACE INTO `account`, with
//     columns taken from the statement's column list, else from the dump's
//     CREATE TABLE `account`, else (username, password) for two-value rows;
//     a value may be an expression of MD5, UPPER and LOWER over a string, as
//     in the reference server's own Database.sql: ('Novate', MD5('123'));
//   - tab-separated lines "name<TAB>md5hex", as printed by
//     mysql -B -N -e 'SELECT username, password FROM account' or written by
//     SELECT ... INTO OUTFILE (backslash escapes are undone);
//   - comma-separated lines "name,md5hex" (RFC 4180 quoting).
//
// Tab- and comma-separated input may start with a header naming the
// columns (username/name/user and password/passwd/md5hex/md5/hash), which then selects them.
// The MD5 must be 32 hex digits; it is returned in lowercase. Errors wrap
// ErrBadLegacy and name the line. Input without account rows yields none.
func ReadLegacy(r io.Reader) ([]LegacyAccount, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxLegacyInput+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadLegacy, err)
	}
	if len(data) > maxLegacyInput {
		return nil, fmt.Errorf("%w: input exceeds %d bytes", ErrBadLegacy, maxLegacyInput)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var rows []legacyRow
	switch first := firstLine(data); {
	case first == "":
		return nil, nil
	case looksLikeSQL(first):
		rows, err = parseDump(data)
	case strings.Contains(first, "\t"):
		rows, err = parseTSV(data)
	default:
		rows, err = parseCSV(data)
	}
	if err != nil {
		return nil, err
	}
	out := make([]LegacyAccount, 0, len(rows))
	for _, row := range rows {
		if !ValidName(row.name) {
			return nil, fmt.Errorf("%w: line %d: bad user name %s", ErrBadLegacy, row.line, quoteName(row.name))
		}
		md5Hex, err := normalizeMD5(row.md5)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: user %s: %w", ErrBadLegacy, row.line, quoteName(row.name), err)
		}
		out = append(out, LegacyAccount{Name: row.name, MD5Hex: md5Hex})
	}
	return out, nil
}

// legacyRow is one account as found, before validation.
type legacyRow struct {
	name, md5 string
	line      int
}

func firstLine(data []byte) string {
	for line := range strings.SplitSeq(string(data), "\n") {
		if t := strings.TrimSpace(line); t != "" {
			return t
		}
	}
	return ""
}

func looksLikeSQL(line string) bool {
	if strings.HasPrefix(line, "--") || strings.HasPrefix(line, "/*") || strings.HasPrefix(line, "#") {
		return true
	}
	word, _, _ := strings.Cut(line, " ")
	switch strings.ToUpper(strings.TrimRight(word, ";")) {
	case "INSERT", "REPLACE", "CREATE", "DROP", "SET", "LOCK", "UNLOCK", "USE", "START", "COMMIT", "BEGIN":
		return true
	}
	return false
}

// columnIndexes finds the name and MD5 columns in a header or column list.
func columnIndexes(cols []string) (name, hash int, ok bool) {
	name, hash = -1, -1
	for i, c := range cols {
		c = strings.ToLower(strings.TrimSpace(c))
		for _, n := range legacyNameCols {
			if c == n && name < 0 {
				name = i
			}
		}
		for _, h := range legacyHashCols {
			if c == h && hash < 0 {
				hash = i
			}
		}
	}
	return name, hash, name >= 0 && hash >= 0
}

// pickColumns turns delimited records into rows, honouring a header.
func pickColumns(records [][]string, lines []int) ([]legacyRow, error) {
	if len(records) == 0 {
		return nil, nil
	}
	ni, hi := 0, 1
	if n, h, ok := columnIndexes(records[0]); ok {
		ni, hi = n, h
		records, lines = records[1:], lines[1:]
	}
	width := max(ni, hi) + 1
	var rows []legacyRow
	for i, rec := range records {
		if len(rec) < width {
			return nil, fmt.Errorf("%w: line %d: want name and MD5, got %d field(s)", ErrBadLegacy, lines[i], len(rec))
		}
		rows = append(rows, legacyRow{name: rec[ni], md5: rec[hi], line: lines[i]})
	}
	return rows, nil
}

func parseTSV(data []byte) ([]legacyRow, error) {
	var records [][]string
	var lines []int
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		fields := strings.Split(line, "\t")
		for j, f := range fields {
			fields[j] = unescapeTSV(f)
		}
		records = append(records, fields)
		lines = append(lines, i+1)
	}
	return pickColumns(records, lines)
}

// unescapeTSV undoes the backslash escapes of mysql -B and INTO OUTFILE.
func unescapeTSV(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case '0':
			b.WriteByte(0)
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func parseCSV(data []byte) ([]legacyRow, error) {
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	var records [][]string
	var lines []int
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrBadLegacy, err)
		}
		line, _ := cr.FieldPos(0)
		records = append(records, rec)
		lines = append(lines, line)
	}
	return pickColumns(records, lines)
}

// legacyTableName matches a table name that may be put into a query.
var legacyTableName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_$]{0,63}$`)

// ReadLegacyMySQL reads the reference server's account table straight from
// its database: SELECT username, password FROM table. table is checked
// against ^[A-Za-z_][A-Za-z0-9_$]{0,63}$ and quoted, since identifiers
// cannot be bound as parameters.
func ReadLegacyMySQL(ctx context.Context, db *sql.DB, table string) ([]LegacyAccount, error) {
	if !legacyTableName.MatchString(table) {
		return nil, fmt.Errorf("%w: table name %s", ErrBadLegacy, quoteName(table))
	}
	rows, err := db.QueryContext(ctx, "SELECT username, password FROM `"+table+"` ORDER BY username")
	if err != nil {
		return nil, fmt.Errorf("account: read legacy table %s: %w", table, classify(err))
	}
	defer rows.Close()
	var out []LegacyAccount
	for n := 1; rows.Next(); n++ {
		var name, hash sql.NullString
		if err := rows.Scan(&name, &hash); err != nil {
			return nil, fmt.Errorf("account: read legacy table %s: %w", table, classify(err))
		}
		if !name.Valid || !ValidName(name.String) {
			return nil, fmt.Errorf("%w: row %d: bad user name %s", ErrBadLegacy, n, quoteName(name.String))
		}
		md5Hex, err := normalizeMD5(hash.String)
		if err != nil {
			return nil, fmt.Errorf("%w: user %s: %w", ErrBadLegacy, quoteName(name.String), err)
		}
		out = append(out, LegacyAccount{Name: name.String, MD5Hex: md5Hex})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("account: read legacy table %s: %w", table, classify(err))
	}
	return out, nil
}
