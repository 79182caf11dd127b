package client

import (
	"testing"

	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/segment"
)

// FuzzReceive feeds a logged-in client, midway through a game, any stream of
// server bytes (decoded as the terminal client decodes them) interleaved
// with guesses. Whatever arrives, the client must not panic, must only send
// well-formed segments, and must never claim a win it has not earned.
func FuzzReceive(f *testing.F) {
	f.Add([]byte("\x0c\x00\x0c032307373757870d\x00\x02\x00\x02\x0f\x00\x00"))
	f.Add([]byte("\x04\x00\x01\x04\x0a\x00\x04Beth"))
	f.Add([]byte("\x0e\x00\x04\x00\x02\x03\x02\x0e\x00\x06-1-187"))
	f.Add([]byte("\x0b\x00\x01\x01\x0c\x00\x0c032307373757870d\x00\x02\x09\x09"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := New()
		c.Connected()
		c.Login("Novate", "123")
		for _, s := range []string{"01 00 01 01", "03 00 01 01", "08 00 00"} {
			c.Receive(seg(t, s))
		}
		c.Invite("Larry")
		c.Receive(seg(t, "0b 00 01 01"))
		c.PlaceBoard(novateBoard)
		var d segment.Decoder
		guess := bomber.Cell(0)
		d.Feed(data, func(s segment.Segment) bool {
			{
				outs := []Out{c.Receive(s)}
				if c.MyTurn() {
					o, _ := c.GuessSingle(guess)
					outs = append(outs, o)
					guess = (guess + 7) % 100
				}
				for _, o := range outs {
					for _, s := range o.Send {
						if _, err := segment.Parse(s.AppendTo(nil)); err != nil {
							t.Fatalf("sent a malformed segment %v: %v", s, err)
						}
					}
					for _, n := range o.Notices {
						if n.Kind == NoticeGameOver && n.Outcome == Won && c.Revealed() != bomber.WinCells {
							t.Fatalf("won with %d cells revealed", c.Revealed())
						}
					}
				}
				if c.State() > Kicked {
					t.Fatalf("state %d out of range", c.State())
				}
			}
			return true
		})
	})
}
