package server

import (
	"context"
	"testing"

	"github.com/bomber-game/bomber/segment"
)

// sinkLink is a connection whose client reads everything at once: it
// counts what it is sent and keeps nothing.
type sinkLink struct{ segs int }

func (l *sinkLink) send(segment.Segment) bool { l.segs++; return true }
func (l *sinkLink) sendBytes(b []byte) bool {
	for len(b) > 0 {
		b = b[segment.HeaderLen+(int(b[1])<<8|int(b[2])):]
		l.segs++
	}
	return true
}
func (l *sinkLink) flush() bool { return false }
func (l *sinkLink) shut()       {}
func (l *sinkLink) kill()       {}
func (l *sinkLink) unread() int { return 0 }

// BenchmarkEngineRelayGuess is one relayed reference guess through the
// engine, as a loop iteration carries it: the bytes read from one player
// go to the hub (through the engine's log of inputs) and the guess is
// written to the other (a miss each way keeps the game going forever).
func BenchmarkEngineRelayGuess(b *testing.B) {
	var cfg Config
	cfg.defaults()
	p := newPool(cfg, func() {})
	defer p.close(context.Background())
	e := newEngine(cfg, p)
	la, lb := &sinkLink{}, &sinkLink{}
	a, c := e.testLogin(la, "Albert"), e.testLogin(lb, "Beth")
	e.process()
	boardA, _ := segment.Raw(segment.Board, []byte("023207375282"))
	boardB, _ := segment.Raw(segment.Board, []byte("023207375787"))
	for _, in := range []struct {
		c   *conn
		seg segment.Segment
	}{{a, segment.Name(segment.SendInvit, "Beth")}, {c, segment.Code(segment.InvitResponse, 1)}, {a, boardA}, {c, boardB}} {
		e.input(in.c, in.seg.AppendTo(nil))
		e.process()
	}
	ga := segment.NewSingle(segment.Coord{X: 9, Y: 9}, segment.ASCII).AppendTo(nil)
	gb := segment.NewSingle(segment.Coord{X: 9, Y: 0}, segment.ASCII).AppendTo(nil)
	before := lb.segs
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			e.input(a, ga)
		} else {
			e.input(c, gb)
		}
		e.process()
	}
	b.StopTimer()
	if b.N > 1 && lb.segs-before < b.N/2 {
		b.Fatalf("%d guesses relayed to Beth of %d sent", lb.segs-before, b.N/2)
	}
}
