package main

import (
	"net"
	"testing"
	"time"
)

// TestConnCap: at most max connections are handed out at once (the next
// waits until one closes), and at most perIP from one address (more are
// closed at once).
func TestConnCap(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := newConnCap(l, 3, 2)
	defer c.Close()
	accepted := make(chan net.Conn, 10)
	go func() {
		for {
			nc, err := c.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- nc
		}
	}()
	dialFrom := func(ip byte) net.Conn {
		nc, err := (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, ip)}}).Dial("tcp", l.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { nc.Close() })
		return nc
	}
	dialFrom(2)
	dialFrom(2)
	<-accepted
	<-accepted
	a3 := dialFrom(2) // a third from 127.0.0.2: closed
	a3.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := a3.Read(make([]byte, 1)); err == nil || isTimeout(err) {
		t.Fatalf("a third connection from one address: %v, want it closed", err)
	}
	dialFrom(3)
	third := <-accepted
	dialFrom(4) // over the cap: waits
	select {
	case <-accepted:
		t.Fatal("a fourth connection handed out past the cap of 3")
	case <-time.After(200 * time.Millisecond):
	}
	third.Close() // a slot frees: the waiting one is handed out
	select {
	case <-accepted:
	case <-time.After(10 * time.Second):
		t.Fatal("no connection handed out after one closed")
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}
