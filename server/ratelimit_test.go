package server_test

import (
	"bytes"
	"io"
	"net"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/server/servertest"
	"github.com/bomber-game/bomber/statemachine"
)

// TestFloodIsToldWhy: a client of the extended protocol that sends faster
// than limits.segment_rate and segment_burst reads an Error RateLimited
// naming why, then the close; a reference client is closed as it always
// was, with no byte of the extended protocol. Both transports, raw TCP.
func TestFloodIsToldWhy(t *testing.T) {
	for _, reactor := range []bool{true, false} {
		name := "net"
		if reactor {
			name = "reactor"
		}
		t.Run(name, func(t *testing.T) {
			cfg := server.Config{Hub: statemachine.Config{SegmentRate: 10, SegmentBurst: 20, Games: statemachine.Catalogue()}}
			addr, _ := servertest.Start(t, cfg, reactor)

			// extended: Hello, then a hundred ListReqs at once
			var out []byte
			for _, s := range segment.AppendMessage(nil, segment.Hello, segment.HelloMsg{Version: segment.ProtocolVersion, Features: segment.FeatureTables}.Append(nil)) {
				out = s.AppendTo(out)
			}
			var flood []byte
			for range 100 {
				flood = segment.Empty(segment.ListReq).AppendTo(flood)
			}
			var a segment.Assembler
			var last segment.ErrorBody
			errs := 0
			for _, s := range segments(t, exchange(t, addr, out, flood)) {
				ty, body, done, err := a.Add(s)
				if err != nil {
					t.Fatal(err)
				}
				if !done {
					continue
				}
				last = segment.ErrorBody{}
				if ty == segment.ErrorMsg {
					last, _ = segment.DecodeErrorBody(body)
					if last.Code == segment.ErrCodeRateLimited {
						errs++
					}
				}
			}
			// the ListReqs within the burst are answered (log in first);
			// the one past it is the last thing the client reads
			if errs != 1 || last.Code != segment.ErrCodeRateLimited || last.Req != segment.ListReq {
				t.Fatalf("%d RateLimited Errors before the close, the last message %+v; want one RateLimited for ListReq, last", errs, last)
			}

			// reference: a login, then a flood of Infos; nothing extended comes back
			ref := exchange(t, addr, segment.Name(segment.Info, "Novate").AppendTo(nil), bytes.Repeat(segment.Name(segment.Info, "Novate").AppendTo(nil), 100))
			for _, s := range segments(t, ref) {
				if !s.Type.Known() {
					t.Fatalf("the reference client was sent %v", s.Type)
				}
			}
		})
	}
}

// exchange sends first, waits for the server's first answer, sends flood
// and reads everything until the server closes the connection.
func exchange(t *testing.T, addr string, first, flood []byte) []byte {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.Write(first); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 256)
	n, err := c.Read(b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write(flood); err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(c)
	if err != nil {
		t.Fatalf("reading to the close: %v (after %x)", err, rest)
	}
	return append(b[:n], rest...)
}

// segments cuts the bytes a client read into segments.
func segments(t *testing.T, b []byte) []segment.Segment {
	t.Helper()
	var out []segment.Segment
	for len(b) > 0 {
		if len(b) < 3 || len(b) < 3+(int(b[1])<<8|int(b[2])) {
			t.Fatalf("a cut segment at the end: %x", b)
		}
		n := 3 + (int(b[1])<<8 | int(b[2]))
		s, err := segment.Parse(b[:n])
		if err != nil {
			t.Fatalf("%x: %v", b[:n], err)
		}
		out = append(out, s)
		b = b[n:]
	}
	return out
}
