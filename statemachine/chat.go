package statemachine

import (
	"errors"
	"maps"
	"slices"
	"unicode/utf8"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/segment"
)

// Chat limits (docs/protocol.md, Chat).
const (
	MaxChatBytes = 200 // longest chat line, in bytes of UTF-8
	chatHistory  = 50  // lines kept per table room and sent to whoever joins
)

// Chat scopes.
const (
	scopeLobby    = 0
	scopePlayers  = 1
	scopeWatchers = 2
)

type chatLine struct{ from, text string }

// chatLog keeps the last chatHistory lines of one room.
type chatLog struct {
	lines []chatLine
	next  int
}

func (c *chatLog) add(l chatLine) {
	if len(c.lines) < chatHistory {
		c.lines = append(c.lines, l)
		return
	}
	c.lines[c.next] = l
	c.next = (c.next + 1) % chatHistory
}

// each calls f for every kept line, oldest first.
func (c *chatLog) each(f func(chatLine)) {
	for i := range c.lines {
		f(c.lines[(c.next+i)%len(c.lines)])
	}
}

// chatBurst is a fresh connection's chat allowance.
func (h *Hub) chatBurst() int64 { return int64(h.cfg.ChatBurst) * int64(1e9) / int64(h.cfg.ChatRate) }

// chatAllow spends one line of s's chat credit.
func (h *Hub) chatAllow(now int64, s *session) bool {
	x := s.x
	x.chatCredit += now - x.chatLast
	x.chatLast = now
	if burst := h.chatBurst(); x.chatCredit > burst {
		x.chatCredit = burst
	}
	cost := int64(1e9) / int64(h.cfg.ChatRate)
	if x.chatCredit < cost {
		return false
	}
	x.chatCredit -= cost
	return true
}

// chat: a line for the lobby or s's table: its one room, or with the
// chat=separate option its players' or its watchers' room.
func (h *Hub) chat(now int64, s *session, body []byte) {
	r := segment.NewReader(body)
	scope := r.U8()
	text := r.Rest()
	switch {
	case r.Err() != nil || scope > scopeWatchers:
		h.fail(s, segment.Chat, segment.ErrCodeBadRequest, "malformed Chat")
		return
	case !utf8.Valid(text):
		h.fail(s, segment.Chat, segment.ErrCodeChatBadUTF8, "chat must be UTF-8")
		return
	case !segment.SafeTextOK(string(text)):
		// a CR, an escape sequence or a bidi override would let one user
		// rewrite what others see: forge a line, retitle a terminal
		h.fail(s, segment.Chat, segment.ErrCodeChatBadUTF8, "chat must hold no control or bidi formatting characters")
		return
	case len(text) == 0 || len(text) > MaxChatBytes:
		h.fail(s, segment.Chat, segment.ErrCodeChatTooLong, "chat lines are 1-200 bytes")
		return
	case !h.chatAllow(now, s):
		h.stats.ChatFlood++
		h.fail(s, segment.Chat, segment.ErrCodeChatFlood, "slow down")
		return
	}
	t := s.table
	if t != nil && !t.ext() {
		t = nil // a reference match has no rooms: its players are reference clients
	}
	line := chatLine{from: s.name, text: string(text)}
	switch scope {
	case scopeLobby:
		h.stats.ChatLines++
		msg := segment.ChatMsgBody{Scope: scopeLobby, From: line.from, Text: line.text}.Append(h.body())
		msg = slices.Clone(msg) // sendMsg reuses the scratch buffer
		for _, o := range h.online {
			if o.x != nil && o.x.features&segment.FeatureChat != 0 {
				h.sendMsg(o, segment.ChatMsg, msg)
			}
		}
		return
	case scopePlayers, scopeWatchers:
		if t != nil && !t.separateChat() {
			// one room: players and watchers read each other, whichever
			// table scope the sender chose (a watcher's client may still
			// say 2), and every line reads as scope 1
			t.chat.add(line)
			h.each(t, func(o *session) { h.sendChat(o, t, scopePlayers, line) })
			break
		}
		if scope == scopePlayers {
			if t == nil || s.seat == rules.Spectator {
				h.fail(s, segment.Chat, segment.ErrCodeNotSeated, "players' chat is for players")
				return
			}
			t.chat.add(line)
			for _, sl := range t.seats {
				if sl.s != nil {
					h.sendChat(sl.s, t, scopePlayers, line)
				}
			}
			break
		}
		if t == nil || s.seat != rules.Spectator {
			h.fail(s, segment.Chat, segment.ErrCodeNotAllowed, "watchers' chat is for watchers")
			return
		}
		t.wchat.add(line)
		for _, w := range t.watchers {
			h.sendChat(w, t, scopeWatchers, line)
		}
	}
	h.stats.ChatLines++
}

func (h *Hub) sendChat(s *session, t *table, scope uint8, l chatLine) {
	h.sendMsg(s, segment.ChatMsg, segment.ChatMsgBody{Scope: scope, Table: t.id, From: l.from, Text: l.text}.Append(h.body()))
}

// sendChatHistory sends s the kept lines of a table room it just entered.
func (h *Hub) sendChatHistory(s *session, c *chatLog, scope uint8) {
	c.each(func(l chatLine) { h.sendChat(s, s.table, scope, l) })
}

// watchRoom is the room t's watchers read and its scope: the table's one
// room, or their own with the chat=separate option.
func (t *table) watchRoom() (*chatLog, uint8) {
	if t.separateChat() {
		return &t.wchat, scopeWatchers
	}
	return &t.chat, scopePlayers
}

func sortIDs(ids []uint32) { slices.Sort(ids) }

func sortedKeys(o rules.Options) []string { return slices.Sorted(maps.Keys(o)) }

func errorsIs(err, target error) bool { return errors.Is(err, target) }
