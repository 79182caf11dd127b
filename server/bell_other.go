//go:build !linux

package server

import "time"

// bell wakes goroutines that wait for work (see bell_linux.go); here a
// buffered channel stands in for the eventfd.
type bell struct {
	c        chan struct{}
	counting bool
}

// newBell makes a bell; counting, each ring lets one wait through.
func newBell(counting bool) (*bell, error) {
	n := 1
	if counting {
		n = 1 << 16 // more than any queue holds
	}
	return &bell{c: make(chan struct{}, n), counting: counting}, nil
}

// ring lets n waits through. Safe from any goroutine.
func (b *bell) ring(n int) {
	for range n {
		select {
		case b.c <- struct{}{}:
		default:
			return // full: the waiters have work enough to look for
		}
	}
}

// wait blocks until the bell has rung.
func (b *bell) wait() {
	<-b.c
	if !b.counting {
		for {
			select {
			case <-b.c:
			default:
				return
			}
		}
	}
}

func (b *bell) close() {}

// pause sleeps briefly (see lockAside).
func pause() { time.Sleep(20 * time.Microsecond) }
