package server

import (
	"errors"
	"sync/atomic"
	"syscall"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// Accept failure reasons, as the observer reports them.
const (
	AcceptEMFILE = "emfile" // this process is out of descriptors (RLIMIT_NOFILE)
	AcceptENFILE = "enfile" // the system is out of descriptors
	AcceptNoMem  = "nomem"  // the kernel is out of socket memory
	AcceptOther  = "other"
)

var acceptReasons = [...]string{AcceptEMFILE, AcceptENFILE, AcceptNoMem, AcceptOther}

// Accept back-off: the first pause after a failure, and the longest.
const (
	acceptPauseMin = 5 * time.Millisecond
	acceptPauseMax = 500 * time.Millisecond
)

// acceptPacer paces an accepting goroutine after accept fails: it pauses
// with a delay that doubles while the failures go on (a listener that stays
// readable while accept keeps failing would otherwise be retried at once,
// spinning a core), and logs through a sampler (the first failure each
// second) so a long exhaustion cannot flood the log.
type acceptPacer struct {
	log   *zap.Logger
	delay time.Duration
}

func newAcceptPacer(log *zap.Logger) *acceptPacer {
	return &acceptPacer{log: log.WithOptions(zap.WrapCore(func(c zapcore.Core) zapcore.Core {
		return zapcore.NewSamplerWithOptions(c, time.Second, 1, 0)
	}))}
}

// failed classifies err and returns how long to pause before accepting again.
func (p *acceptPacer) failed(err error) (reason string, pause time.Duration) {
	reason = acceptReason(err)
	p.delay = min(max(2*p.delay, acceptPauseMin), acceptPauseMax)
	p.log.Warn("accept failed; pausing accepts (pending connections wait in the kernel's queue)",
		zap.String("reason", reason), zap.Duration("pause", p.delay), zap.Error(err))
	return reason, p.delay
}

// ok resets the back-off after a successful accept.
func (p *acceptPacer) ok() { p.delay = 0 }

func acceptReason(err error) string {
	switch {
	case errors.Is(err, syscall.EMFILE):
		return AcceptEMFILE
	case errors.Is(err, syscall.ENFILE):
		return AcceptENFILE
	case errors.Is(err, syscall.ENOBUFS), errors.Is(err, syscall.ENOMEM):
		return AcceptNoMem
	}
	return AcceptOther
}

// acceptCounts carries accept failures from accepting goroutines to the
// engine's goroutine, where the observer is called.
type acceptCounts [len(acceptReasons)]atomic.Uint64

func (a *acceptCounts) add(reason string) {
	for i, r := range acceptReasons {
		if r == reason {
			a[i].Add(1)
		}
	}
}

// report hands the failures counted so far to obs; engine goroutine only.
func (a *acceptCounts) report(obs Observer) {
	for i := range a {
		if a[i].Load() == 0 {
			continue
		}
		for n := a[i].Swap(0); n > 0; n-- {
			obs.AcceptFailed(acceptReasons[i])
		}
	}
}
