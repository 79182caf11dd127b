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
	r, err := relay.Listen(addr)
	if err != nil {
		return err
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	go func() { <-sig; r.Close() }()
	fmt.Println("listening", r.Addr())
	return r.Serve()
}
