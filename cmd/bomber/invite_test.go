package main

import (
	"slices"
	"testing"

	"github.com/bomber-game/bomber/segment"
)

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

// TestCreateFormRoomOptions: the create form's start and chat fields ask
// for the host's start and a watchers' room; left alone they ask for
// nothing, so the server's defaults hold.
func TestCreateFormRoomOptions(t *testing.T) {
	f := newCreateForm([]segment.GameInfoBody{{Name: "dots", Min: 2, Max: 4}})
	f.pick(slices.IndexFunc(f.games, func(g segment.GameInfoBody) bool { return g.Name == "dots" }))
	if _, _, _, kvs := f.message(); slices.ContainsFunc(kvs, func(kv segment.KV) bool { return kv.Key == "start" || kv.Key == "chat" }) {
		t.Fatalf("an untouched form asks for room options: %v", kvs)
	}
	f.field = 6
	f.change(1)
	f.field = 7
	f.change(1)
	_, _, _, kvs := f.message()
	for _, want := range []segment.KV{{Key: "start", Value: "host"}, {Key: "chat", Value: "separate"}} {
		if !slices.Contains(kvs, want) {
			t.Errorf("the form asks for %v; want %v among them", kvs, want)
		}
	}
}
