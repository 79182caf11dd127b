package server

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"
)

// TestReactorWakesForEveryPost: goroutines posting to the reactor's loop
// at once, each waiting for its last post to run before the next, as a
// WebSocket's reader does with every message, are all served; a wake-up
// lost between the loop's reading of its eventfd and its queue, or between
// its reading of the eventfd and its clearing of the flag, would leave one
// waiting for good (the loop has no tick to fall back on).
func TestReactorWakesForEveryPost(t *testing.T) {
	// no tick: a post's wake-up is the loop's only way out of epoll_wait
	r, err := NewReactor(Config{TickEvery: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go r.Serve(l)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		r.Shutdown(ctx)
	})
	const posters, posts = 4, 5000
	ran := 0 // only the loop touches it
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for range posters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range posts {
				// do posts and waits, as a reader does, and gives up with ctx
				if err := r.do(ctx, func() { ran++ }); err != nil {
					t.Errorf("a post was never run (its wake-up was lost): %v", err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := r.do(ctx, func() {}); err != nil {
		t.Fatal(err)
	}
	var got int
	r.do(ctx, func() { got = ran })
	if got != posters*posts {
		t.Fatalf("%d posts ran, want %d", got, posters*posts)
	}
}
