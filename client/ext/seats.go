package ext

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bomber-game/bomber/segment"
)

// Seats that survive (protocol section 9): resume tokens, computer players,
// turn clocks.

// Features is what this client asks for in Hello.
const Features = segment.FeatureTables | segment.FeatureChat | segment.FeatureResume |
	segment.FeatureBots | segment.FeatureClocks | segment.FeatureGameFacts | segment.FeaturePing | segment.FeaturePairing |
	segment.FeatureHistory | segment.FeatureLegal

// Event kinds of seats that survive.
const (
	EvResumed EventKind = iota + 100 // our seat came back after a reconnect
	EvAway                           // a seat's player dropped (Seat, Text) or came back
	EvClock                          // the clocks changed (Client.Clock)
)

// seatToken is the resume token of the seat we hold.
type seatToken struct {
	table uint32
	seat  uint8
	token [segment.TokenLen]byte
}

// Resumable reports whether the client holds a resume token, so that a new
// connection takes its seat back after logging in.
func (c *Client) Resumable() bool { return c.token != nil }

// Clock is the last clock of our table (nil without one).
func (c *Client) Clock() *segment.ClockBody { return c.clock }

// Away is the seats whose players dropped and are held, by seat: the grace
// in ms announced.
func (c *Client) Away() map[int]uint32 { return c.away }

// Features is what the server agreed to in Welcome.
func (c *Client) Features() uint32 { return c.features }

// Bot asks the computer to take seat (segment.SeatAny: every empty seat) of
// our waiting table; only its creator may.
func (c *Client) Bot(seat uint8) (Out, error) {
	if c.table == nil {
		return Out{}, fmt.Errorf("%w: not at a table", ErrState)
	}
	return c.request(segment.BotMsg{Seat: seat})
}

// Bye tells the server we close on purpose (our seat is held for the short
// grace); the caller closes the connection after writing it.
func (c *Client) Bye() (Out, error) {
	o, err := c.request(segment.EmptyMsg{T: segment.Bye})
	c.token = nil
	return o, err
}

// Pingable reports whether the server answers Ping (it granted FeaturePing).
func (c *Client) Pingable() bool { return c.features&segment.FeaturePing != 0 }

// Ping asks the server for a Pong carrying nonce: a shell that has heard
// nothing for segment.PingInterval pings, and gives the connection up when
// nothing comes within segment.PingTimeout. Empty when the server does not
// answer Ping.
func (c *Client) Ping(nonce uint32) Out {
	var o Out
	if c.Pingable() {
		o.msg(segment.PingMsg{Nonce: nonce})
	}
	return o
}

// resume sends Resume for the seat we held, after logging in again.
func (c *Client) resume(o *Out) {
	t := c.token
	var last uint32
	if g := c.game; g != nil && g.End == nil && g.table == t.table {
		if r := g.replica; r != nil {
			if m, ok := r.Unplay(); ok {
				// a roll whose face the connection lost: the server sends
				// it again, with its steps
				g.Moves = slices.DeleteFunc(g.Moves, func(x segment.MovedBody) bool { return x.Seq == m.Seq })
			}
		}
		for _, m := range g.Moves {
			last = max(last, m.Seq)
		}
	} else {
		c.game = nil
	}
	c.resuming = true
	o.msg(segment.ResumeMsg{Table: t.table, Seat: t.seat, Token: t.token, LastSeq: last})
}

func (c *Client) handleSeats(o *Out, t segment.Type, body []byte) (bool, error) {
	switch t {
	case segment.Pong:
		// liveness only: that the server said anything is what counts,
		// and the shell, which has the clock, notes that for itself
		_, err := segment.DecodePongBody(body)
		return true, err
	case segment.Seated:
		s, err := segment.DecodeSeatedBody(body)
		if err != nil {
			return true, err
		}
		c.token = &seatToken{table: s.Table, seat: s.Seat, token: s.Token}
		if c.resuming {
			o.ev(Event{Kind: EvResumed, Table: s.Table, Seat: int(s.Seat), Text: fmt.Sprintf("back at table %d, seat %d", s.Table, s.Seat+1)})
		}
	case segment.Away:
		a, err := segment.DecodeAwayBody(body)
		if err != nil {
			return true, err
		}
		if c.away == nil {
			c.away = map[int]uint32{}
		}
		name := c.seatName(int(a.Seat))
		if a.Grace == 0 {
			delete(c.away, int(a.Seat))
			if int(a.Seat) == c.seat {
				c.resuming = false // the resume is complete
			}
			o.ev(Event{Kind: EvAway, Seat: int(a.Seat), Text: name + " is back"})
		} else {
			c.away[int(a.Seat)] = a.Grace
			o.ev(Event{Kind: EvAway, Seat: int(a.Seat), Text: fmt.Sprintf("%s dropped; the seat is held for %d s", name, a.Grace/1000)})
		}
	case segment.Clock:
		cl, err := segment.DecodeClockBody(body)
		if err != nil {
			return true, err
		}
		c.clock = &cl
		o.ev(Event{Kind: EvClock})
	default:
		return false, nil
	}
	return true, nil
}

// gameOptions are a table's options without the hub's own clock keys.
func gameOptions(kvs []segment.KV) []segment.KV {
	var out []segment.KV
	for _, kv := range kvs {
		if !strings.HasPrefix(kv.Key, "clock.") {
			out = append(out, kv)
		}
	}
	return out
}
