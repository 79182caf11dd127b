package segment

import "testing"

// TestSafeText: every character that moves the cursor, starts a terminal
// sequence or reorders the line is replaced; ordinary text (accents, CJK,
// emoji, Arabic) passes unchanged.
func TestSafeText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"hello, Beth ☺ 你好 مرحبا", "hello, Beth ☺ 你好 مرحبا"},
		{"x\r Beth: type your password", "x\ufffd Beth: type your password"},
		{"\x1b]0;owned\x07\x1b[2J", "\ufffd]0;owned\ufffd\ufffd[2J"},
		{"a\x00b\nc\td\x7f\u0085", "a\ufffdb\ufffdc\ufffdd\ufffd\ufffd"},
		{"abc\u202Etxt.exe\u2066\u2069\u200f", "abc\ufffdtxt.exe\ufffd\ufffd\ufffd"},
		{"bad\xffutf8", "bad\ufffdutf8"},
	} {
		if got := SafeText(c.in); got != c.want {
			t.Errorf("SafeText(%q) = %q, want %q", c.in, got, c.want)
		}
		if SafeTextOK(c.in) != (c.in == c.want) && c.in != "bad\xffutf8" {
			t.Errorf("SafeTextOK(%q) = %v", c.in, SafeTextOK(c.in))
		}
	}
}
