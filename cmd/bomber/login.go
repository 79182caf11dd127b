package main

import (
	tea "charm.land/bubbletea/v2"

	"github.com/bomber-game/bomber/segment"
)

// loginForm is the user name and password fields both screens (the
// reference Bomber one and the tables one) log in with.
type loginForm struct {
	name, pass string
	focus      int // 0 name, 1 password
}

// edit applies a key to the form. submit is true when enter asks to log in
// with the fields as they are; problem says why it cannot yet.
func (f *loginForm) edit(k tea.KeyPressMsg) (submit bool, problem string) {
	field := &f.name
	if f.focus == 1 {
		field = &f.pass
	}
	switch k.String() {
	case "tab", "shift+tab", "up", "down":
		f.focus = 1 - f.focus
	case "enter":
		switch {
		case f.name == "":
			f.focus = 0
			return false, "type a user name"
		case f.focus == 0:
			f.focus = 1
		default:
			return true, ""
		}
	case "backspace":
		if r := []rune(*field); len(r) > 0 {
			*field = string(r[:len(r)-1])
		}
	default:
		if k.Text != "" && len(*field)+len(k.Text) <= segment.MaxPayload {
			*field += k.Text
		}
	}
	return false, ""
}
