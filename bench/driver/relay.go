//go:build linux

package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/bomber-game/bomber/bench/relay"
)

// serveRelay runs the minimal relay at addr until SIGTERM or SIGINT; it
// prints "listening ADDR" once it accepts connections.
// With fanout, it is the fan-out floor (relay.StartFanout).
func serveRelay(addr string, fanout bool) error {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	start := relay.Start
	if fanout {
		start = relay.StartFanout
	}
	r, done, err := start(addr)
	if err != nil {
		return err
	}
	fmt.Println("listening", r.Addr())
	select {
	case <-sig:
		r.Close()
		return <-done
	case err := <-done:
		return err
	}
}
