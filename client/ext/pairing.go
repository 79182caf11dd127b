package ext

import (
	"fmt"
	"strings"

	"github.com/bomber-game/bomber/segment"
)

// Quick pairing ("Play <game> now", feature 512): the server pairs the
// player with someone of close rating and seats both at a new table.

// EvSeeking: the player's seek changed (Client.Seeking; Text says how).
const EvSeeking EventKind = 200

// Seek asks to play game now with the time control clock (Create's clock
// options) and rated or casual.
func (c *Client) Seek(game string, rated bool, clock []segment.KV) (Out, error) {
	if c.features&segment.FeaturePairing == 0 {
		return Out{}, fmt.Errorf("%w: the server does not pair players", ErrState)
	}
	m := segment.SeekMsg{Action: segment.SeekPlay, Game: game, Options: clock}
	if rated {
		m.Rated = 1
	}
	return c.request(m)
}

// CancelSeek stops looking for an opponent.
func (c *Client) CancelSeek() (Out, error) {
	if c.seeking == nil {
		return Out{}, fmt.Errorf("%w: not looking for a game", ErrState)
	}
	return c.request(segment.SeekMsg{Action: segment.SeekCancel})
}

// PlayComputer takes the computer opponent the server offered.
func (c *Client) PlayComputer() (Out, error) {
	if c.seeking == nil || c.seeking.Flags&segment.SeekComputerOffered == 0 {
		return Out{}, fmt.Errorf("%w: no computer offered", ErrState)
	}
	return c.request(segment.SeekMsg{Action: segment.SeekComputer})
}

// Seeking is the player's seek while it waits, else nil.
func (c *Client) Seeking() *segment.SeekingBody { return c.seeking }

func (c *Client) handlePairing(o *Out, t segment.Type, body []byte) (bool, error) {
	if t != segment.Seeking {
		return false, nil
	}
	return true, decoded(body, segment.DecodeSeekingBody, func(s segment.SeekingBody) {
		c.seeking = nil
		if s.State == segment.SeekWaiting {
			c.seeking = &s
		}
		o.ev(Event{Kind: EvSeeking, Text: SeekingText(s)})
	})
}

// SeekingText says in words where a seek stands.
func SeekingText(s segment.SeekingBody) string {
	switch s.State {
	case segment.SeekPaired:
		return "opponent found: the game starts"
	case segment.SeekCancelled:
		return "no longer looking for a game"
	}
	var b strings.Builder
	kind := "casual"
	if s.Rated == 1 {
		kind = "rated"
	}
	fmt.Fprintf(&b, "seeking %s %s vs %d-%d (you: %d", kind, s.Game, s.Low, s.High, s.Rating)
	if s.Flags&segment.SeekProvisional != 0 {
		b.WriteString("?")
	}
	fmt.Fprintf(&b, "), %d s", s.Waited)
	if s.Flags&segment.SeekComputerOffered != 0 {
		b.WriteString("; the computer is offered")
	}
	return b.String()
}
