package main

import "testing"

// TestParseInvite reads the invitations a person pastes: the web page's
// links (joining, watching), their fragment, and a number with a code.
func TestParseInvite(t *testing.T) {
	for text, want := range map[string]invite{
		"http://127.0.0.1:20380/#t=7&c=ABC234":      {table: 7, code: "ABC234"},
		"https://play.example/x/#t=12&c=abc234&w=1": {table: 12, code: "ABC234", watch: true},
		"#t=3&c=QWE987": {table: 3, code: "QWE987"},
		"7 abc234":      {table: 7, code: "ABC234"},
		" #9  XYZ222 ":  {table: 9, code: "XYZ222"},
		"5":             {table: 5},
	} {
		got, err := parseInvite(text)
		if err != nil || got != want {
			t.Errorf("parseInvite(%q) = %+v, %v; want %+v", text, got, err, want)
		}
	}
	for _, bad := range []string{"", "seven", "7 ABC 1", "http://x/#t=0&c=A", "http://x/#t=&c=A", "0 ABC234"} {
		if got, err := parseInvite(bad); err == nil {
			t.Errorf("parseInvite(%q) = %+v; want an error", bad, got)
		}
	}
	if l := inviteLink(webBase(config{addr: "10.0.0.5:20343"}), 7, "ABC234", true); l != "http://10.0.0.5:20380/#t=7&c=ABC234&w=1" {
		t.Errorf("the watch link for table 7 is %q", l)
	}
}
