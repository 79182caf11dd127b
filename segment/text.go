package segment

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// UnsafeRune reports whether r may not appear in text one user shows
// another (chat lines, user names): a control character (C0, DEL, C1: CR
// moves the cursor back over a line, ESC starts terminal sequences, NUL
// cuts strings short) or a bidirectional formatting character (the
// embeddings, overrides and isolates U+202A..U+202E and U+2066..U+2069,
// and the marks U+061C, U+200E, U+200F), which reorders what follows it
// on screen and so can make one user's words read as another's.
func UnsafeRune(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)
}

// SafeTextOK reports whether s holds no unsafe rune (see UnsafeRune).
func SafeTextOK(s string) bool { return strings.IndexFunc(s, UnsafeRune) < 0 }

// SafeText is s with every unsafe rune (see UnsafeRune) and every invalid
// UTF-8 byte replaced by U+FFFD, which shows where something was taken
// out: what a client does with text from the server before it shows it,
// whatever the server let through.
func SafeText(s string) string {
	if SafeTextOK(s) && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s { // invalid bytes come as U+FFFD already
		if UnsafeRune(r) {
			r = unicode.ReplacementChar
		}
		b.WriteRune(r)
	}
	return b.String()
}
