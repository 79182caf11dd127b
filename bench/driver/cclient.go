//go:build linux

package main

import (
	"context"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/bomber-game/bomber/bench/load"
)

// cclientSource is the minimal C client (see its header): the client the
// floor was first measured with, so that the load generator check can say on
// this machine what the Go client adds.
//
//go:embed cclient/cclient.c
var cclientSource []byte

// errNoCompiler: no C compiler on this machine; the check runs without the
// C client and says so.
var errNoCompiler = errors.New("no C compiler (cc) found")

// buildCClient compiles the C client into dir and returns its path.
func buildCClient(ctx context.Context, dir string) (string, error) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		return "", errNoCompiler
	}
	src := filepath.Join(dir, "cclient.c")
	if err := os.WriteFile(src, cclientSource, 0o644); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "cclient")
	if out, err := exec.CommandContext(ctx, cc, "-O2", "-o", bin, src).CombinedOutput(); err != nil {
		return "", fmt.Errorf("cc cclient.c: %w: %s", err, out)
	}
	return bin, nil
}

// runCClient plays games against the relay at addr at rate guesses per
// second and measures window after warmup; prefix keeps its pairing keys
// apart from every other run's on the same relay.
func runCClient(ctx context.Context, bin, addr, prefix string, games int, rate float64, warmup, window time.Duration) (latRun, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return latRun{}, err
	}
	dir, err := os.MkdirTemp(filepath.Dir(bin), "cclient-run-")
	if err != nil {
		return latRun{}, err
	}
	defer os.RemoveAll(dir)
	latF, lateF := filepath.Join(dir, "lat"), filepath.Join(dir, "late")
	secs := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 3, 64) }
	ctx, cancel := context.WithTimeout(ctx, warmup+window+time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, host, port, strconv.Itoa(games), strconv.FormatFloat(rate, 'f', 0, 64),
		secs(warmup), secs(window), prefix, latF, lateF)
	out, err := cmd.Output()
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		return latRun{}, fmt.Errorf("cclient: %w: %s", err, ee.Stderr) // Output keeps stderr when it is not redirected
	} else if err != nil {
		return latRun{}, fmt.Errorf("cclient: %w", err)
	}
	var relayed int64
	var seconds float64
	if _, err := fmt.Sscanf(string(out), "relayed %d seconds %g", &relayed, &seconds); err != nil || seconds <= 0 {
		return latRun{}, fmt.Errorf("cclient: unexpected output %q", out)
	}
	if relayed == 0 {
		return latRun{}, fmt.Errorf("cclient: nothing relayed in %v", window)
	}
	lat, err := readHist(latF)
	if err != nil {
		return latRun{}, err
	}
	late, err := readHist(lateF)
	if err != nil {
		return latRun{}, err
	}
	return latRun{Latency: load.Summarise(lat), late: load.Summarise(late), rate: rate, achieved: float64(relayed) / seconds, hist: lat}, nil
}

// readHist reads the C client's little-endian int64 nanoseconds into a
// histogram of the load generator's range and precision.
func readHist(path string) (*hdrhistogram.Histogram, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cclient: %w", err)
	}
	if len(b)%8 != 0 {
		return nil, fmt.Errorf("cclient: %s: %d bytes, not whole int64s", path, len(b))
	}
	h := load.NewHistogram()
	for i := 0; i < len(b); i += 8 {
		h.RecordValue(load.ClampLatency(time.Duration(binary.LittleEndian.Uint64(b[i:]))))
	}
	return h, nil
}
