package main

import (
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
)

// message reads segments until a whole message of type want arrives and
// returns its body.
func (c *client) message(asm *segment.Assembler, want segment.Type) []byte {
	c.t.Helper()
	c.nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		s, ok, err := c.d.Next()
		if err != nil {
			c.t.Fatal(err)
		}
		if !ok {
			n, err := c.nc.Read(c.d.Free())
			if err != nil {
				c.t.Fatalf("waiting for %v: %v", want, err)
			}
			c.d.Commit(n)
			continue
		}
		if !s.Type.Extended() {
			continue
		}
		ty, body, done, err := asm.Add(s)
		if err != nil {
			c.t.Fatal(err)
		}
		if done && ty == want {
			return body
		}
	}
}

// TestPlayNowThroughBomberd: two players press Play now for the same game
// and time control on the daemon; the daemon asks its store for their
// ratings, the metrics show the one who waits, and the daemon's own ticks
// run the pairing round that seats both at one table.
func TestPlayNowThroughBomberd(t *testing.T) {
	d := startDaemon(t)
	token := daemonToken(t, d)
	seek := func(name string) (*client, *segment.Assembler) {
		c := dial(t, d.addr)
		c.d.SetDialect(segment.DialectExtended)
		for _, s := range segment.AppendMessage(nil, segment.Hello, segment.HelloMsg{Version: 1, Features: segment.FeatureTables | segment.FeaturePairing}.Append(nil)) {
			c.send(s)
		}
		c.expect(segment.Welcome)
		if c.login(name, "123") != segment.CodeOK {
			t.Fatalf("login of %s", name)
		}
		for _, s := range segment.AppendMessage(nil, segment.Seek, segment.SeekMsg{Game: "dots", Options: []segment.KV{{Key: "clock.total", Value: "120"}}}.Append(nil)) {
			c.send(s)
		}
		asm := &segment.Assembler{}
		b, err := segment.DecodeSeekingBody(c.message(asm, segment.Seeking))
		if err != nil || b.State != segment.SeekWaiting || b.Rating != 1500 {
			t.Fatalf("%s's seek: %+v %v", name, b, err)
		}
		return c, asm
	}
	a, aa := seek("Albert")
	if _, body := adminDo(t, d, "GET", "/metrics", nil, token, "", ""); !strings.Contains(body, `bomber_pairing_waiting{game="dots"} 1`) {
		t.Errorf("the metrics do not show Albert waiting:\n%s", grepLines(body, "bomber_pairing"))
	}
	b, ba := seek("Beth")
	tables := map[uint32]bool{}
	for _, c := range []struct {
		c   *client
		asm *segment.Assembler
	}{{a, aa}, {b, ba}} {
		j, err := segment.DecodeJoinedBody(c.c.message(c.asm, segment.Joined))
		if err != nil {
			t.Fatal(err)
		}
		tables[j.Table] = true
		c.c.message(c.asm, segment.Started)
	}
	if len(tables) != 1 {
		t.Errorf("paired players sit at tables %v", tables)
	}
	if _, body := adminDo(t, d, "GET", "/metrics", nil, token, "", ""); !strings.Contains(body, `bomber_pairing_total{event="paired"} 1`) || !strings.Contains(body, `bomber_pairing_waiting{game="dots"} 0`) {
		t.Errorf("the metrics do not show the pair:\n%s", grepLines(body, "bomber_pairing"))
	}
}

// grepLines keeps the lines of s that contain sub.
func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
