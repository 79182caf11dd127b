//go:build !linux

package load

import "errors"

// Elsewhere than Linux every client plays on its own goroutine.

type timerKind uint8

const (
	timerGuess timerKind = iota
	timerInvite
)

type poller struct{}

func (f *Fleet) startPollers(int) error           { return nil }
func loopCPUs() int                               { return 0 }
func (f *Fleet) stopPollers()                     {}
func (f *Fleet) adopt(*client) error              { return errors.New("no poll loop on this system") }
func (p *poller) after(int64, *client, timerKind) {}
func (p *poller) write(int, []byte) error         { return errors.New("no poll loop on this system") }
func (p *poller) awaiting(*client)                {}
func (c *client) answered()                       {}

// awaitBelow: without a poll loop no answer is awaited first.
const awaitBelow = 0
