package transcript

import (
	"fmt"
	"slices"
	"strings"
)

// Key is the part of an entry that a comparison looks at: no time stamp, no
// comment, no narration.
func (e Entry) Key() string {
	e.At, e.Line = -1, 0
	body, _, _ := strings.Cut(e.Format(false), "  #")
	return body
}

// Events drops narration lines, leaving what happened.
func Events(entries []Entry) []Entry {
	out := make([]Entry, 0, len(entries))
	for _, e := range entries {
		if e.Op != Note {
			out = append(out, e)
		}
	}
	return out
}

// Diff compares the events of two transcripts and describes every
// difference as unified-diff lines ("-" only in want, "+" only in got) with
// the line numbers of want; it returns "" when they agree.
func Diff(want, got []Entry) string {
	want, got = Events(want), Events(got)
	// longest common subsequence over the keys; transcripts are small
	// enough for the quadratic table
	n, m := len(want), len(got)
	if n*m > 50_000_000 {
		return diffPrefix(want, got)
	}
	wk, gk := keys(want), keys(got)
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if wk[i] == gk[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var b strings.Builder
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && wk[i] == gk[j]:
			i++
			j++
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			fmt.Fprintf(&b, "+ %s\n", got[j].Format(false))
			j++
		default:
			fmt.Fprintf(&b, "- %s   (line %d)\n", want[i].Format(false), want[i].Line)
			i++
		}
	}
	return b.String()
}

func keys(es []Entry) []string {
	k := make([]string, len(es))
	for i, e := range es {
		k[i] = e.Key()
	}
	return k
}

// diffPrefix reports the first difference only, for very long transcripts.
func diffPrefix(want, got []Entry) string {
	for i := 0; i < len(want) && i < len(got); i++ {
		if want[i].Key() != got[i].Key() {
			return fmt.Sprintf("first difference at event %d (line %d):\n- %s\n+ %s\n", i, want[i].Line, want[i].Format(false), got[i].Format(false))
		}
	}
	if len(want) != len(got) {
		return fmt.Sprintf("want %d events, got %d\n", len(want), len(got))
	}
	return ""
}

// DiffByConn is Diff for each connection alone: the order of events across
// connections is left out (the order in which a server answers two clients
// depends on timing), the order within one connection is kept. It names
// each connection that differs; lines without a connection (clock, store)
// are compared as one more group.
func DiffByConn(want, got []Entry) string {
	var conns []string
	per := func(es []Entry) map[string][]Entry {
		m := map[string][]Entry{}
		for _, e := range es {
			if _, ok := m[e.Conn]; !ok && !slices.Contains(conns, e.Conn) {
				conns = append(conns, e.Conn)
			}
			m[e.Conn] = append(m[e.Conn], e)
		}
		return m
	}
	w, g := per(want), per(got)
	var b strings.Builder
	for _, c := range conns {
		if d := Diff(w[c], g[c]); d != "" {
			name := c
			if name == "" {
				name = "(clock and store lines)"
			}
			fmt.Fprintf(&b, "connection %s:\n", name)
			for _, l := range strings.Split(strings.TrimRight(d, "\n"), "\n") {
				b.WriteString("  " + l + "\n")
			}
		}
	}
	return b.String()
}
