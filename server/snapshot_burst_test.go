package server_test

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/server/journal"
	"github.com/bomber-game/bomber/statemachine"
)

// snapshotJournal is a journal that tells the test each snapshot taken.
type snapshotJournal struct {
	*journal.Journal
	saved chan uint64
}

func (j *snapshotJournal) SaveSnapshot(seq uint64, data []byte) {
	j.saved <- seq
	j.Journal.SaveSnapshot(seq, data)
}

// TestNoSnapshotInALoginBurst: a snapshot encodes the whole world in one
// step of the loop (about 10 ms with 10,000 users online), so one that
// falls due while passwords are being checked waits for the burst to pass
// instead of holding up every game's moves in the middle of a login storm;
// it is taken once the logins are answered, and a burst that never ends
// gets one anyway after four times the usual number of entries.
func TestNoSnapshotInALoginBurst(t *testing.T) {
	const every = 8
	log, f, release, checking := burstServer(t, every)
	pinger := welcomed(t, f.addr, 1)[0]
	pings := func(n int) {
		for range n {
			writeRaw(t, pinger, ping)
			readExt(t, pinger, segment.Pong)
		}
	}
	// with no burst, a snapshot comes every few entries
	pings(2 * every)
	select {
	case <-log.saved:
	case <-time.After(10 * time.Second):
		t.Fatal("no snapshot with nothing else going on")
	}
	drain(log.saved)

	beth := bethLogsIn(t, f.addr)
	<-checking // Beth's password is being checked
	pings(2 * every)
	if n := drain(log.saved); n > 0 {
		t.Fatalf("%d snapshots taken while a login was being checked", n)
	}
	close(release)
	got := readUntil(t, beth, segment.SyncEnd)
	if got[1].Type != segment.PasswdResp || got[1].Payload()[0] != 1 {
		t.Fatalf("Beth's login answered %v", got)
	}
	pings(1)
	select {
	case <-log.saved:
	case <-time.After(10 * time.Second):
		t.Fatal("no snapshot after the login burst passed")
	}
}

// TestSnapshotInALongBurst: a burst that goes on does not put the
// snapshot off for good: after four times the usual number of entries it
// is taken anyway.
func TestSnapshotInALongBurst(t *testing.T) {
	const every = 8
	log, f, release, checking := burstServer(t, every)
	t.Cleanup(func() { close(release) })
	pinger := welcomed(t, f.addr, 1)[0]
	bethLogsIn(t, f.addr)
	<-checking
	for range 6 * every {
		writeRaw(t, pinger, ping)
		readExt(t, pinger, segment.Pong)
	}
	select {
	case <-log.saved:
	case <-time.After(10 * time.Second):
		t.Fatal("no snapshot after six times the entries between snapshots, in a burst that does not end")
	}
}

// drain empties c and says how many it held.
func drain(c chan uint64) int {
	for n := 0; ; n++ {
		select {
		case <-c:
		default:
			return n
		}
	}
}

// burstServer starts a reactor whose journal snapshots every few entries
// (every) and tells the test each one, where Beth's password check waits
// until release is closed (checking hears of it when it starts).
func burstServer(t *testing.T, every uint64) (log *snapshotJournal, f *fixture, release, checking chan struct{}) {
	t.Helper()
	j, err := journal.Open(t.TempDir(), journal.Options{SnapshotEvery: every})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	log = &snapshotJournal{Journal: j, saved: make(chan uint64, 64)}
	release, checking = make(chan struct{}), make(chan struct{}, 1)
	f = start(t, reactor, statemachine.Config{}, func(c *server.Config) {
		c.Log = log
		c.TickEvery = time.Hour // no ticks in the journal meanwhile
		check := c.Check
		c.Check = func(ctx context.Context, ch statemachine.Check) statemachine.Answer {
			if ch.User == "Beth" && ch.Kind == statemachine.Verify {
				select {
				case checking <- struct{}{}:
				default:
				}
				select { // Beth's password takes as long as the test says
				case <-release:
				case <-ctx.Done():
					return statemachine.Unavailable
				}
			}
			return check(ctx, ch)
		}
	})
	return log, f, release, checking
}

// bethLogsIn sends Beth's login on a connection of her own.
func bethLogsIn(t *testing.T, addr string) net.Conn {
	t.Helper()
	beth, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { beth.Close() })
	beth.Write(append(segment.Name(segment.Info, "Beth").AppendTo(nil), segment.Name(segment.Passwd, "123").AppendTo(nil)...))
	return beth
}
