//go:build linux

package relay

import (
	"bytes"
	"io"
	"net"
	"testing"
	"time"
)

// dialKey connects and sends the pairing segment; it returns the
// connection once the relay has answered PasswdResp(1).
func dialKey(t *testing.T, addr, key string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(10 * time.Second)) // bounded: a broken relay fails, never hangs
	if _, err := c.Write(append([]byte{0x00, 0x00, byte(len(key))}, key...)); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(answer))
	if _, err := io.ReadFull(c, got); err != nil || !bytes.Equal(got, answer) {
		t.Fatalf("answer %x, %v; want %x", got, err, answer)
	}
	return c
}

// TestRelayPairsAndCopies: two connections naming the same game are
// partners, every byte one writes reaches the other unchanged, another
// pair's bytes never cross over, and when one hangs up its partner is
// closed too.
func TestRelayPairsAndCopies(t *testing.T) {
	r, done, err := Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		r.Close()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	a1 := dialKey(t, r.Addr(), "u000000")
	b1 := dialKey(t, r.Addr(), "u000002")
	a2 := dialKey(t, r.Addr(), "u000000")
	b2 := dialKey(t, r.Addr(), "u000002")
	for _, tc := range []struct {
		from, to net.Conn
		data     string
	}{
		{a2, a1, "\x0c\x00\x0c012345678901"},
		{a1, a2, "\x0d\x00\x0255"},
		{b1, b2, "from b1"},
		{b2, b1, "from b2"},
	} {
		if _, err := tc.from.Write([]byte(tc.data)); err != nil {
			t.Fatal(err)
		}
		got := make([]byte, len(tc.data))
		if _, err := io.ReadFull(tc.to, got); err != nil || string(got) != tc.data {
			t.Fatalf("partner read %q, %v; want %q", got, err, tc.data)
		}
	}
	a1.Close()
	if n, err := a2.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("the partner of a closed connection read %d bytes, %v; want EOF", n, err)
	}
	// the other pair is untouched
	if _, err := b1.Write([]byte("still")); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 5)
	if _, err := io.ReadFull(b2, got); err != nil || string(got) != "still" {
		t.Fatalf("the other pair read %q, %v", got, err)
	}
}

// TestFanoutWritesToTheWholeGroup: in the fan-out floor every message a
// member writes reaches each member of its group, the writer included,
// unchanged, another group never sees it, and a member hanging up leaves
// the rest of its group served.
func TestFanoutWritesToTheWholeGroup(t *testing.T) {
	r, done, err := StartFanout("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		r.Close()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	var g1, g2 []net.Conn
	for range 3 {
		g1 = append(g1, dialKey(t, r.Addr(), "\x03table1"))
	}
	for range 2 {
		g2 = append(g2, dialKey(t, r.Addr(), "\x02table2"))
	}
	readAll := func(group []net.Conn, want string) {
		t.Helper()
		for i, c := range group {
			got := make([]byte, len(want))
			if _, err := io.ReadFull(c, got); err != nil || string(got) != want {
				t.Fatalf("member %d read %q, %v; want %q", i, got, err, want)
			}
		}
	}
	for i, msg := range []string{"\x0d\x00\x04move", "\x0d\x00\x05move2", "\x0d\x00\x05move3"} {
		if _, err := g1[i%3].Write([]byte(msg)); err != nil {
			t.Fatal(err)
		}
		readAll(g1, msg)
	}
	if _, err := g2[1].Write([]byte("other")); err != nil {
		t.Fatal(err)
	}
	readAll(g2, "other") // and not table1's moves before it
	g1[0].Close()
	if _, err := g1[1].Write([]byte("left")); err != nil {
		t.Fatal(err)
	}
	readAll(g1[1:], "left")
}
