//go:build linux

package server

import (
	"encoding/binary"
	"errors"

	"golang.org/x/sys/unix"
)

// bell wakes goroutines that wait for work on threads of their own (the
// account workers, the recorder) through an eventfd, not through the Go
// scheduler. A goroutine the engine's loop readied through a channel or a
// sync.Cond would be queued on the loop's own P: when the runtime then
// preempts the loop (it does every 10 ms of busy running), the loop's
// thread hands that P to the worker's locked thread and the loop waits in
// the global run queue until the worker's hash is done (measured: 370 ms
// of such waits in one storm of 1,000 logins). Ringing an eventfd is one
// write; the waiter blocks in read(2), holds no P the loop needs, and at
// its lower priority does not take the loop's CPU when it wakes.
type bell struct {
	fd int
}

// newBell makes a bell; counting, each ring lets one wait through (a
// semaphore: a job queue's workers), else one wait takes every ring so far.
func newBell(counting bool) (*bell, error) {
	flags := unix.EFD_CLOEXEC
	if counting {
		flags |= unix.EFD_SEMAPHORE
	}
	fd, err := unix.Eventfd(0, flags)
	if err != nil {
		return nil, err
	}
	return &bell{fd: fd}, nil
}

// ring lets n waits through. Safe from any goroutine.
func (b *bell) ring(n int) {
	var v [8]byte
	binary.NativeEndian.PutUint64(v[:], uint64(n))
	for {
		_, err := unix.Write(b.fd, v[:])
		if !errors.Is(err, unix.EINTR) {
			return // the counter cannot overflow: one ring per queued job
		}
	}
}

// wait blocks the calling thread until the bell has rung.
func (b *bell) wait() {
	var v [8]byte
	for {
		_, err := unix.Read(b.fd, v[:])
		if !errors.Is(err, unix.EINTR) {
			return
		}
	}
}

// close releases the bell once nobody waits on it.
func (b *bell) close() { unix.Close(b.fd) }

// pause sleeps the calling thread briefly without the Go scheduler (see
// lockAside).
func pause() { unix.Nanosleep(&unix.Timespec{Nsec: 20_000}, nil) }
