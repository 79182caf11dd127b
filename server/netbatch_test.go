package server_test

import (
	"context"
	"io"
	"net"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/server/journal"
	"github.com/bomber-game/bomber/statemachine"
)

// countingJournal is a daemon's journal that counts the batches written
// into it: one write(2) each.
type countingJournal struct {
	*journal.Journal
	appends atomic.Int64
}

func (j *countingJournal) Append(batch []byte) {
	j.appends.Add(1)
	j.Journal.Append(batch)
}

// TestNetReadsTogetherOneJournalWrite: on the net transport, segments that
// arrive on many connections at once go into the journal together, as on
// the reactor, instead of one write(2) to the journal (and one pass of the
// loop) per connection read. With one P, as the bench's daemon has, the
// first reader's post would run the loop before the other readers posted.
func TestNetReadsTogetherOneJournalWrite(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	j, err := journal.Open(t.TempDir(), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() }) // after the transport's shutdown (cleanups run last first)
	log := &countingJournal{Journal: j}
	f := start(t, netpkg, statemachine.Config{}, func(c *server.Config) {
		c.Log = log
		c.TickEvery = time.Hour // no ticks in the journal meanwhile
	})
	const conns = 64
	ncs := welcomed(t, f.addr, conns)
	before := log.appends.Load()
	for _, nc := range ncs {
		writeRaw(t, nc, ping)
	}
	for _, nc := range ncs {
		readExt(t, nc, segment.Pong)
	}
	if n := log.appends.Load() - before; n > conns/8 {
		t.Fatalf("%d Pings arriving together took %d journal writes; want at most %d", conns, n, conns/8)
	} else {
		t.Logf("%d Pings arriving together: %d journal writes", conns, n)
	}
}

// The bytes the tests' clients send.
var (
	hello = []byte{0x20, 0x00, 0x05, 0x01, 0x00, 0x00, 0x00, 0x43} // Hello v1 tables|chat|ping
	ping  = []byte{0x3c, 0x00, 0x04, 0x00, 0x00, 0x00, 0x07}       // Ping nonce 7
)

// welcomed dials n connections to addr, each said Hello to and answered
// Welcome (its reader waits for its next read), closed when the test ends.
func welcomed(t testing.TB, addr string, n int) []net.Conn {
	t.Helper()
	ncs := make([]net.Conn, n)
	for i := range ncs {
		nc, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { nc.Close() })
		ncs[i] = nc
		writeRaw(t, nc, hello)
		readExt(t, nc, segment.Welcome)
	}
	return ncs
}

// readExt reads extended-protocol segments from nc until one of type want.
func readExt(t testing.TB, nc net.Conn, want segment.Type) {
	t.Helper()
	var d segment.Decoder
	d.SetDialect(segment.DialectExtended)
	nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	defer nc.SetReadDeadline(time.Time{})
	for {
		n, err := nc.Read(d.Free())
		if err != nil {
			t.Fatalf("reading for %v: %v", want, err)
		}
		d.Commit(n)
		for {
			s, ok, err := d.Next()
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				break
			}
			if s.Type == want {
				return
			}
		}
	}
}

func writeRaw(t testing.TB, nc net.Conn, b []byte) {
	t.Helper()
	if _, err := nc.Write(b); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkNetPingRound is 64 connections each sending a Ping at once and
// reading its Pong on the net transport with one P, its journal on disk:
// journal-writes/op is the batches written for a round's 64 inputs.
func BenchmarkNetPingRound(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	j, err := journal.Open(b.TempDir(), journal.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { j.Close() })
	log := &countingJournal{Journal: j}
	tr := server.NewNetTransport(server.Config{Log: log, TickEvery: time.Hour})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go tr.Serve(l)
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		tr.Shutdown(ctx)
	})
	ncs := welcomed(b, l.Addr().String(), 64)
	before := log.appends.Load()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, nc := range ncs {
			writeRaw(b, nc, ping)
		}
		for _, nc := range ncs {
			readExt(b, nc, segment.Pong)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(log.appends.Load()-before)/float64(b.N), "journal-writes/op")
}

// TestNetReadCostsNoBuffer: the net transport's readers reuse their
// buffers, so a read leaves less garbage than the 512-byte buffer it was
// read into (each Ping here is read alone). The heap allocated is counted
// over every goroutine: the clients write and read from buffers of their
// own, allocating nothing.
func TestNetReadCostsNoBuffer(t *testing.T) {
	f := start(t, netpkg, statemachine.Config{}, func(c *server.Config) { c.TickEvery = time.Hour })
	const conns, rounds = 16, 200
	ncs := welcomed(t, f.addr, conns)
	pong := make([]byte, len(ping))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range rounds {
		for _, nc := range ncs {
			if _, err := nc.Write(ping); err != nil {
				t.Fatal(err)
			}
			if _, err := io.ReadFull(nc, pong); err != nil || pong[0] != byte(segment.Pong) {
				t.Fatalf("Pong: % x, %v", pong, err)
			}
		}
	}
	runtime.ReadMemStats(&after)
	perRead := float64(after.TotalAlloc-before.TotalAlloc) / (conns * rounds)
	if perRead >= 512 {
		t.Fatalf("%.0f bytes allocated a Ping read and answered; want under the 512 of a read buffer", perRead)
	}
	t.Logf("%.0f bytes allocated a Ping read and answered", perRead)
}
