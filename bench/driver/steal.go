//go:build linux

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// On a VM the host may run something else while a virtual CPU wants to
// run: the kernel counts that time as steal (/proc/stat). A server whose
// CPU is taken away for 20 ms relays nothing meanwhile, and no change to
// the server shows in a p99 that such pauses decide; so the storms,
// whose p99 is their 20th-60th slowest guess, say how much of their CPU
// the host took.

// stealEvery is how often a stealWatch reads /proc/stat: the steal it
// reports at most, in one window of this length, is what a single pause
// of the host may have cost.
const stealEvery = 100 * time.Millisecond

// stealTicks is the steal of cpu (the machine's when cpu < 0), in clock
// ticks, read from stat (/proc/stat's contents).
func stealTicks(stat []byte, cpu int) (int64, error) {
	name := "cpu"
	if cpu >= 0 {
		name = "cpu" + strconv.Itoa(cpu)
	}
	sc := bufio.NewScanner(bytes.NewReader(stat))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || f[0] != name {
			continue
		}
		// user nice system idle iowait irq softirq steal
		if len(f) < 9 {
			return 0, fmt.Errorf("/proc/stat: %s has no steal column", name)
		}
		return strconv.ParseInt(f[8], 10, 64)
	}
	return 0, fmt.Errorf("/proc/stat: no %s line", name)
}

// stolen is what a stealWatch saw: the steal in all and the most in one
// stealEvery window; known is false where /proc/stat could not be read.
type stolen struct {
	total, most time.Duration
	known       bool
}

// stealWatch reads one CPU's steal every stealEvery on a goroutine of its
// own until end.
type stealWatch struct {
	stop chan struct{}
	done chan stolen
}

// watchSteal starts watching cpu's steal (the machine's when cpu < 0).
func watchSteal(cpu int) *stealWatch {
	w := &stealWatch{stop: make(chan struct{}), done: make(chan stolen, 1)}
	read := func() (int64, error) {
		b, err := os.ReadFile("/proc/stat")
		if err != nil {
			return 0, err
		}
		return stealTicks(b, cpu)
	}
	go func() {
		var s stolen
		first, err := read()
		if err != nil {
			w.done <- s
			return
		}
		s.known = true
		last := first
		tick := time.NewTicker(stealEvery)
		defer tick.Stop()
		for {
			var stop bool
			select {
			case <-w.stop:
				stop = true
			case <-tick.C:
			}
			if now, err := read(); err == nil {
				s.most = max(s.most, time.Duration(now-last)*clockTick)
				s.total = time.Duration(now-first) * clockTick
				last = now
			}
			if stop {
				w.done <- s
				return
			}
		}
	}()
	return w
}

// end stops the watch and reports what it saw.
func (w *stealWatch) end() stolen {
	close(w.stop)
	return <-w.done
}

// String is how a table cell says it: empty when unknown.
func (s stolen) String() string {
	if !s.known {
		return ""
	}
	return fmt.Sprintf("its CPU stolen by the VM's host %.0f ms, at most %.0f ms of one %.0f ms", float64(s.total)/1e6, float64(s.most)/1e6, float64(stealEvery)/1e6)
}

// short is how a list of storms says it: "steal T ms, at most M of W ms".
func (s stolen) short() string {
	return fmt.Sprintf("steal %.0f ms, at most %.0f of %.0f ms", float64(s.total)/1e6, float64(s.most)/1e6, float64(stealEvery)/1e6)
}
