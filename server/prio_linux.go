//go:build linux

package server

import "golang.org/x/sys/unix"

// workerNice is the nice value of account workers' threads: the kernel
// then runs the engine's loop (nice 0) first whenever both want the same
// CPU, and gives the workers what the loop leaves.
const workerNice = 10

// lowerPriority lowers the calling thread's scheduling priority (on Linux
// the nice value is per thread). Raising the nice value needs no
// privilege; a failure only leaves the thread at the normal priority.
func lowerPriority() {
	unix.Setpriority(unix.PRIO_PROCESS, unix.Gettid(), workerNice)
}
