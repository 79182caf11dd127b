package transcript

import (
	"fmt"
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
