//go:build linux

package server

import (
	"fmt"
	"os"
	"strconv"
	"time"
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
	if set, ok := offLoopCPU(); ok {
		unix.SchedSetaffinity(0, &set) // a failure leaves the thread where it may run
	}
}

// offLoopCPU returns the CPUs the calling thread may use without the
// lowest-numbered one, the engine loop's; ok is false when it may use only
// one (or its affinity is unknown), and then nothing is to be changed.
func offLoopCPU() (set unix.CPUSet, ok bool) {
	if unix.SchedGetaffinity(0, &set) != nil || set.Count() < 2 {
		return set, false
	}
	for i := 0; i < len(set)*64; i++ {
		if set.IsSet(i) {
			set.Clear(i)
			break
		}
	}
	return set, true
}

// YieldProcess gives every thread of this process the account workers'
// nice value and, when the process may use more than one CPU, keeps them
// off the lowest-numbered one, the engine loop's. The daemon's hashing
// child (bomberd hash-worker) calls it first thing: it may have been
// started from any of the daemon's threads (the first hash can be a demo
// account's, at start), and hashing must never take the loop's CPU while
// another core is free. Threads the runtime starts later are cloned from
// these, and Linux copies both settings to a clone.
func YieldProcess() {
	set, off := offLoopCPU()
	tasks, _ := os.ReadDir("/proc/self/task") // unreadable: the process keeps its priority
	for _, task := range tasks {
		tid, err := strconv.Atoi(task.Name())
		if err != nil {
			continue
		}
		unix.Setpriority(unix.PRIO_PROCESS, tid, workerNice) // a failure leaves that thread at the normal priority
		if off {
			unix.SchedSetaffinity(tid, &set)
		}
	}
}

// nameThread names the calling thread (15 bytes at most are kept), so that
// top -H, ps -L and perf show which of the daemon's threads is which.
func nameThread(name string) {
	b := append([]byte(name), 0)
	unix.Prctl(unix.PR_SET_NAME, uintptr(unsafe.Pointer(&b[0])), 0, 0, 0) // a failure leaves the process's name
}

// loopSlice is the time slice the engine's loop asks the kernel for: the
// least it grants. Linux 6.12's scheduler (EEVDF) lets a thread that has
// the CPU finish its slice before a waking one of the same or higher
// priority runs, unless the waking one asks for a shorter slice. The
// default slice is 0.7-3 ms (1.4 ms on a 2-CPU machine), so whatever held
// the loop's CPU when a guess arrived (the recorder's SQLite commit, a
// password hash at nice 10, another process) kept the guess waiting for up
// to that long: at 13,700 guesses/s that was the reactor's p99 in the
// bench, 5-8 times the minimal relay's (docs/performance.md). With its own
// slice the loop takes the CPU within 100 µs of waking; how much of the
// CPU it gets is unchanged (that is its nice value's weight).
const loopSlice = 100 * time.Microsecond

// shortenSlice asks the kernel for a time slice of d for the calling
// thread (sched_setattr's runtime for SCHED_OTHER, no privilege needed;
// kernels before 6.12 accept and ignore it). Its policy and nice value
// are kept, and threads it creates start with the default slice. A thread
// an operator moved to another policy (chrt) is left as it is.
func shortenSlice(d time.Duration) error {
	a, err := unix.SchedGetAttr(0, 0)
	if err != nil {
		return fmt.Errorf("sched_getattr: %w", err)
	}
	if a.Policy != unix.SCHED_NORMAL {
		return nil
	}
	a.Size = unix.SizeofSchedAttr
	a.Flags = unix.SCHED_FLAG_RESET_ON_FORK
	a.Runtime = uint64(d.Nanoseconds())
	if err := unix.SchedSetAttr(0, a, 0); err != nil {
		return fmt.Errorf("sched_setattr: %w", err)
	}
	return nil
}
