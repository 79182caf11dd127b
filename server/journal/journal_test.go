package journal_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/server/journal"
	"github.com/bomber-game/bomber/server/servertest"
	"github.com/bomber-game/bomber/statemachine"
)

// batch is a batch of one tick at time at, as the engine writes them.
func batch(at int64) []byte {
	b := statemachine.AppendBatchHeader(nil, 1, at)
	return statemachine.AppendInput(b, 0, &statemachine.Input{Kind: statemachine.InTick})
}

func open(t *testing.T, dir string, every uint64) *journal.Journal {
	t.Helper()
	j, err := journal.Open(dir, journal.Options{SnapshotEvery: every})
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// times reads the tick times of entries.
func times(t *testing.T, ents []server.LogEntry) (seqs []uint64, ats []int64) {
	t.Helper()
	for _, e := range ents {
		seqs = append(seqs, e.Seq)
		n := int(e.Data[0]) // one-byte lengths: small batches
		if err := statemachine.ReadBatch(e.Data[1:1+n], func(at int64, _ *statemachine.Input) { ats = append(ats, at) }); err != nil {
			t.Fatal(err)
		}
	}
	return seqs, ats
}

// TestReopenReplays: what was appended before a restart is what the next
// start replays, in order, numbered on; each start has a new incarnation.
func TestReopenReplays(t *testing.T) {
	dir := t.TempDir()
	j := open(t, dir, 0)
	if j.Incarnation() != 1 {
		t.Fatalf("first start's incarnation %d, want 1", j.Incarnation())
	}
	for _, at := range []int64{10, 20, 30} {
		j.Append(batch(at))
	}
	if seqs, _ := times(t, j.Take(nil)); !slices.Equal(seqs, []uint64{1, 2, 3}) {
		t.Fatalf("delivered %v, want entries 1 to 3", seqs)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	j = open(t, dir, 0)
	defer j.Close()
	if j.Incarnation() != 2 || j.Alive(1) || !j.Alive(2) {
		t.Fatalf("second start's incarnation %d (alive: 1 %v, 2 %v), want 2 and only 2 alive", j.Incarnation(), j.Alive(1), j.Alive(2))
	}
	j.Append(batch(40))
	seqs, ats := times(t, j.Take(nil))
	if !slices.Equal(seqs, []uint64{1, 2, 3, 4}) || !slices.Equal(ats, []int64{10, 20, 30, 40}) {
		t.Fatalf("replayed %v at %v, want entries 1 to 4 at 10 to 40", seqs, ats)
	}
}

// TestTornTailIsCut: an entry cut short by a crash is dropped at the next
// start, and what follows is written after the last whole entry.
func TestTornTailIsCut(t *testing.T) {
	dir := t.TempDir()
	j := open(t, dir, 0)
	j.Append(batch(10))
	j.Append(batch(20))
	j.Close()
	seg := filepath.Join(dir, "log-00000000000000000001")
	f, err := os.OpenFile(seg, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte{20, 2, 1}) // a length of 20 and 2 bytes of a batch: the write a crash cut
	f.Close()
	j = open(t, dir, 0)
	j.Append(batch(40))
	j.Close()
	j = open(t, dir, 0)
	defer j.Close()
	if seqs, ats := times(t, j.Take(nil)); !slices.Equal(seqs, []uint64{1, 2, 3}) || !slices.Equal(ats, []int64{10, 20, 40}) {
		t.Fatalf("replayed %v at %v, want 3 entries at 10, 20 and 40", seqs, ats)
	}
}

// TestSnapshotReplacesWhatItCovers: after a snapshot is on disk the next
// start gets it and only the entries after it, and the segments it covers
// are gone.
func TestSnapshotReplacesWhatItCovers(t *testing.T) {
	dir := t.TempDir()
	j := open(t, dir, 5)
	if j.SnapshotEvery() != 5 {
		t.Fatalf("SnapshotEvery %d, want 5", j.SnapshotEvery())
	}
	for at := int64(1); at <= 5; at++ {
		j.Append(batch(at))
	}
	j.Take(nil)
	j.SaveSnapshot(5, []byte("world at 5"))
	j.Append(batch(6))
	j.Close() // waits for the snapshot
	segs, _ := filepath.Glob(filepath.Join(dir, "log-*"))
	if len(segs) != 1 || filepath.Base(segs[0]) != "log-00000000000000000006" {
		t.Fatalf("segments %v, want only the one from entry 6 on", segs)
	}
	j = open(t, dir, 5)
	defer j.Close()
	seq, data := j.Snapshot()
	if seq != 5 || string(data) != "world at 5" {
		t.Fatalf("snapshot %d %q, want 5 \"world at 5\"", seq, data)
	}
	if seqs, ats := times(t, j.Take(nil)); !slices.Equal(seqs, []uint64{6}) || !slices.Equal(ats, []int64{6}) {
		t.Fatalf("replayed %v at %v, want entry 6 alone", seqs, ats)
	}
}

// TestGameSurvivesACrash: two players are in a game of checkers with a
// move clock of a minute on a server that keeps its world in a journal.
// The server's disk is copied while it runs, as a kill -9 leaves it; a new
// server started on the copy an hour later has the game: the players
// reconnect to it, resume their seats with their tokens, and play to the
// end (nobody ran out of time during the hour the server was down), which
// is recorded exactly once.
func TestGameSurvivesACrash(t *testing.T) {
	dir := t.TempDir()
	j := open(t, filepath.Join(dir, "before"), 0)
	t.Cleanup(func() { j.Close() })
	t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	addr, _ := servertest.Start(t, server.Config{Hub: statemachine.Config{Games: statemachine.Catalogue()}, Log: j, Clock: servertest.NewClock(t0)}, true)
	r := servertest.NewRoom(t)
	a, b := r.Join("Albert", addr), r.Join("Beth", addr)
	r.StartCheckersWith(a, b, []segment.KV{{Key: "clock.move", Value: "60"}})
	r.Until("six moves", servertest.Moves(a, 6))
	table := a.C.Table().ID

	// the crash: the disk as it is now, the process gone with its connections
	crashed := filepath.Join(dir, "after")
	copyDir(t, filepath.Join(dir, "before"), crashed)
	stored := make(chan server.FinishedGame, 16)
	j2 := open(t, crashed, 0)
	t.Cleanup(func() { j2.Close() })
	addr2, tr2 := servertest.Start(t, server.Config{Hub: statemachine.Config{Games: statemachine.Catalogue()}, Log: j2, Clock: servertest.NewClock(t0.Add(time.Hour)),
		Record: func(_ context.Context, gs []server.FinishedGame) (int, error) {
			for _, g := range gs {
				stored <- g
			}
			return len(gs), nil
		}, RecordDelay: -1}, true)
	moved := len(a.C.Game().Moves)
	r.Reconnect(a, addr2)
	r.Reconnect(b, addr2)
	r.Until("both resumed", func() bool { return r.Resumed(a) && r.Resumed(b) && a.C.Game() != nil && b.C.Game() != nil })
	if a.C.Table().ID != table || len(a.C.Game().Moves) < moved {
		t.Fatalf("resumed at table %d with %d moves, want table %d with at least %d", a.C.Table().ID, len(a.C.Game().Moves), table, moved)
	}
	r.Until("the end of the game", servertest.Over(a, b))
	select {
	case g := <-stored:
		if g.Record.Game != "checkers" || len(g.Record.Moves) != len(a.C.Game().Moves) || g.Record.Reason == "timeout" {
			t.Fatalf("stored a game of %s with %d moves ended %q, want checkers with %d moves played to the end",
				g.Record.Game, len(g.Record.Moves), g.Record.Reason, len(a.C.Game().Moves))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the game's record was not stored")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := tr2.Shutdown(ctx); err != nil { // stores what is queued: a second record would be stored by now
		t.Fatal(err)
	}
	if len(stored) != 0 {
		t.Fatalf("%d more records stored for the one game", len(stored))
	}
}

// copyDir copies the files of src into a new dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.MkdirAll(dst, 0o750); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o640); err != nil {
			t.Fatal(err)
		}
	}
}
