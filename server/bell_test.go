package server

import (
	"testing"
	"time"
)

// TestBell: a counting bell lets one wait through per ring, a plain one
// lets one wait take every ring so far; a wait with no ring left blocks
// until the next ring. The account workers and the recorder sleep on
// these: a lost ring would leave a login unanswered, a ring counted twice
// would only wake a worker for nothing.
func TestBell(t *testing.T) {
	waitFor := func(b *bell) <-chan struct{} {
		done := make(chan struct{})
		go func() { b.wait(); close(done) }()
		return done
	}
	for _, counting := range []bool{true, false} {
		b, err := newBell(counting)
		if err != nil {
			t.Fatal(err)
		}
		b.ring(2)
		b.wait()
		if counting {
			select {
			case <-waitFor(b): // the second ring's
			case <-time.After(10 * time.Second):
				t.Fatal("counting: the second of two rings let no wait through")
			}
		}
		done := waitFor(b)
		select {
		case <-done:
			t.Fatalf("counting %v: a wait went through with no ring left", counting)
		case <-time.After(20 * time.Millisecond): // it blocks, as it should
		}
		b.ring(1)
		<-done
		b.close()
	}
}
