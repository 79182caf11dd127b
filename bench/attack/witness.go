//go:build linux

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/bomber-game/bomber/segment"
)

// logins is what a logging-in witness saw: each login's latency (dial to
// the login's answer) and the failures.
type logins struct {
	mu       sync.Mutex
	lat      []time.Duration
	failures []string
}

func (l *logins) add(d time.Duration, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		l.failures = append(l.failures, err.Error())
		return
	}
	l.lat = append(l.lat, d)
}

// ok and total count the logins that succeeded and were tried.
func (l *logins) ok() int    { l.mu.Lock(); defer l.mu.Unlock(); return len(l.lat) }
func (l *logins) total() int { l.mu.Lock(); defer l.mu.Unlock(); return len(l.lat) + len(l.failures) }

// quantiles is p50, p99 and the maximum of the successful logins.
func (l *logins) quantiles() (p50, p99, mx time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return quantiles(l.lat)
}

func quantiles(ds []time.Duration) (p50, p99, mx time.Duration) {
	if len(ds) == 0 {
		return 0, 0, 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	at := func(q float64) time.Duration { return s[min(len(s)-1, int(q*float64(len(s))))] }
	return at(0.50), at(0.99), s[len(s)-1]
}

// loginOnce logs name in on the game port from src with the reference
// protocol (Info, Passwd) and returns how long the answer took; a refusal
// or no answer within 5 s is an error.
func loginOnce(ctx context.Context, addr, src, name, pass string) (time.Duration, error) {
	t0 := time.Now()
	nc, err := dialer(src).DialContext(ctx, "tcp", addr)
	if err != nil {
		return 0, fmt.Errorf("dial: %w", err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	b := segment.Name(segment.Info, name).AppendTo(nil)
	b = segment.Name(segment.Passwd, pass).AppendTo(b)
	if _, err := nc.Write(b); err != nil {
		return 0, fmt.Errorf("write: %w", err)
	}
	var d segment.Decoder
	for {
		n, err := nc.Read(d.Free())
		if err != nil {
			return 0, fmt.Errorf("no answer: %w", err)
		}
		d.Commit(n)
		for {
			s, ok, err := d.Next()
			if err != nil {
				return 0, err
			}
			if !ok {
				break
			}
			code, _ := s.Code()
			switch {
			case s.Type == segment.InfoResp && code != 1:
				return 0, fmt.Errorf("InfoResp %d", code)
			case s.Type == segment.PasswdResp && code != 1:
				return 0, fmt.Errorf("PasswdResp %d", code)
			case s.Type == segment.PasswdResp:
				return time.Since(t0), nil
			}
		}
	}
}

// loginEvery logs name in from src every interval until ctx ends.
func loginEvery(ctx context.Context, addr, src, name string, interval time.Duration, into *logins) {
	t := time.NewTicker(interval)
	defer t.Stop()
	start := time.Now()
	for {
		t0 := time.Since(start)
		// a login begun during the attack counts, even if it ends after
		d, err := loginOnce(context.Background(), addr, src, name, password)
		if err != nil {
			err = fmt.Errorf("%.1f s in: %w", t0.Seconds(), err)
		}
		into.add(d, err)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func jsonDecode(r io.Reader, v any) error { return json.NewDecoder(r).Decode(v) }

// sources are loopback source addresses 127.0.0.first .. first+n-1.
func sources(first, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = net.IPv4(127, 0, 0, byte(first+i)).String()
	}
	return out
}
