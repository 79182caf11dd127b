package hashproc

import (
	"os"

	"golang.org/x/sys/unix"
)

// pipe makes a blocking pipe, close-on-exec (os.Pipe's would be
// non-blocking, read through the poller: a goroutine blocked in read on a
// child's answer costs less than the poller's wake-ups).
func pipe(rname, wname string) (r, w *os.File, err error) {
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
		return nil, nil, err
	}
	return os.NewFile(uintptr(fds[0]), rname), os.NewFile(uintptr(fds[1]), wname), nil
}
