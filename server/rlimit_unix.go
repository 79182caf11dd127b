//go:build unix

package server

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// ReservedDescriptors is what the daemon keeps for itself besides its
// connections and listeners: the store, log and capture files, the admin
// listener's connections, epoll and the runtime's own.
const ReservedDescriptors = 64

// FileLimit is what FitFileLimit found.
type FileLimit struct {
	Soft, Hard uint64 // RLIMIT_NOFILE after raising the soft limit
	Raised     bool   // the soft limit was raised to the hard one
	Fit        int    // connections that fit next to listeners and the reserve
}

// FitFileLimit raises this process's soft RLIMIT_NOFILE to the hard limit
// and reports how many connections fit in it next to listeners listening
// sockets and ReservedDescriptors. A transport that may open more
// connections than fit runs out of descriptors at accept (EMFILE) instead
// of refusing cleanly at its connection limit.
func FitFileLimit(listeners int) (FileLimit, error) {
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &rl); err != nil {
		return FileLimit{}, fmt.Errorf("getrlimit: %w", err)
	}
	// the fields are uint64 on Linux, int64 on the BSDs
	fl := FileLimit{Soft: uint64(rl.Cur), Hard: uint64(rl.Max)}
	if rl.Cur < rl.Max {
		raised := unix.Rlimit{Cur: rl.Max, Max: rl.Max}
		if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &raised); err == nil {
			fl.Soft, fl.Raised = uint64(rl.Max), true
		}
	}
	fit := int64(min(fl.Soft, 1<<40)) - int64(listeners) - ReservedDescriptors
	fl.Fit = int(max(fit, 0))
	return fl, nil
}
