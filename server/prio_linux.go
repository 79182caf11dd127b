//go:build linux

package server

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

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

// leaveLoopCPU keeps the calling thread off the lowest-numbered CPU the
// process may use, when it may use more than one: that CPU is left to the
// engine's loop (and the rest of the daemon at full priority), so password
// hashing never takes the loop's CPU time while another core is free. With
// a single CPU (a daemon pinned to one) only the lower priority applies.
func leaveLoopCPU() {
	var set unix.CPUSet
	if unix.SchedGetaffinity(0, &set) != nil || set.Count() < 2 {
		return
	}
	for i := 0; i < len(set)*64; i++ {
		if set.IsSet(i) {
			set.Clear(i)
			break
		}
	}
	unix.SchedSetaffinity(0, &set) // a failure leaves the thread where it may run
}

// nameThread names the calling thread (15 bytes at most are kept), so that
// top -H, ps -L and perf show which of the daemon's threads is which.
func nameThread(name string) {
	b := append([]byte(name), 0)
	unix.Prctl(unix.PR_SET_NAME, uintptr(unsafe.Pointer(&b[0])), 0, 0, 0) // a failure leaves the process's name
}
