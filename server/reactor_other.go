//go:build !linux

package server

import "errors"

// Reactor is only available on Linux; use the net transport elsewhere.
type Reactor struct{ NetTransport }

// NewReactor fails off Linux.
func NewReactor(Config) (*Reactor, error) {
	return nil, errors.New("the epoll reactor needs Linux; use transport: net")
}
