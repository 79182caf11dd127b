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
func serveRelay(addr string) error {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	r, done, err := relay.Start(addr)
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
