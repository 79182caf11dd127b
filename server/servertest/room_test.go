package servertest

import (
	"net"
	"testing"
	"time"

	"github.com/bomber-game/bomber/client/ext"
)

// TestDuringEndsInSilence: a fault that lasts a while ends on time even
// when no player receives anything meanwhile (players held still and a
// node cut off send nothing), and the caller's check runs at its end.
func TestDuringEndsInSilence(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan net.Conn, 1)
	go func() { // a server that accepts and never says a word
		if c, err := l.Accept(); err == nil {
			accepted <- c
		}
	}()
	r := NewRoom(t)
	p := &Player{Name: "Albert", C: ext.New(), sentAt: -1}
	r.players = append(r.players, p)
	r.connect(p, l.Addr().String())
	defer (<-accepted).Close()
	const d = 200 * time.Millisecond
	done := make(chan int)
	go func() {
		calls := 0
		r.During(d, func() { calls++ })
		done <- calls
	}()
	select {
	case calls := <-done:
		if calls == 0 {
			t.Fatal("the check never ran")
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("a silent room held a wait of %v for more than 10 s", d)
	}
}
