package journal_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bomber-game/bomber/statemachine"
)

// kickBatch is a batch of one operator kick of a user whose name has n
// bytes: entries of any size, as a login storm's batches are large.
func kickBatch(at int64, n int) []byte {
	b := statemachine.AppendBatchHeader(nil, 1, at)
	return statemachine.AppendInput(b, 0, &statemachine.Input{Kind: statemachine.InKick, Text: strings.Repeat("k", n)})
}

// TestCrashImageReplaysEveryEntry: entries of every size, small ones
// filling several of the segment's windows and large ones past a window,
// are all in the file the moment Append returns: a copy of the directory
// taken while the journal is open (what a kill -9 leaves) replays every
// one of them byte for byte, and the space reserved past the last entry
// is cut off at that start; a journal closed normally leaves none.
func TestCrashImageReplaysEveryEntry(t *testing.T) {
	dir := t.TempDir()
	j := open(t, filepath.Join(dir, "live"), 0)
	var want [][]byte
	var size int64
	for i := range 4000 {
		n := 20 + i%200
		switch i {
		case 1000, 2500:
			n = 300 << 10 // larger than a window
		case 1500:
			n = 100 << 10
		}
		b := kickBatch(int64(i), n)
		j.Append(b)
		for _, e := range j.Take(nil) {
			want = append(want, bytes.Clone(e.Data))
			size += int64(len(e.Data))
		}
	}
	crashed := filepath.Join(dir, "crashed")
	copyDir(t, filepath.Join(dir, "live"), crashed)
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	seg := "log-00000000000000000001"
	if st, err := os.Stat(filepath.Join(dir, "live", seg)); err != nil || st.Size() != size {
		t.Fatalf("closed segment: %v, %d bytes; want the entries' %d bytes", err, st.Size(), size)
	}

	j = open(t, crashed, 0)
	defer j.Close()
	got := j.Take(nil)
	if len(got) != len(want) {
		t.Fatalf("the crash image replays %d entries, want %d", len(got), len(want))
	}
	for i, e := range got {
		if e.Seq != uint64(i+1) || !bytes.Equal(e.Data, want[i]) {
			t.Fatalf("entry %d (seq %d, %d bytes) differs from the one appended (%d bytes)", i+1, e.Seq, len(e.Data), len(want[i]))
		}
	}
	if st, err := os.Stat(filepath.Join(crashed, seg)); err != nil || st.Size() != size {
		t.Fatalf("the crash image's segment after the start: %v, %d bytes; want %d (the reserved space cut off)", err, st.Size(), size)
	}
}

// TestEntryWithoutItsFirstByte: a crash between an entry's bytes and its
// first one (the last written) leaves a 0 byte followed by the rest: the
// next start drops it with whatever follows, and goes on after the last
// whole entry.
func TestEntryWithoutItsFirstByte(t *testing.T) {
	dir := t.TempDir()
	j := open(t, dir, 0)
	j.Append(batch(10))
	j.Close()
	torn := batch(20)
	entry := append([]byte{0}, torn...) // its one-byte length not yet written
	f, err := os.OpenFile(filepath.Join(dir, "log-00000000000000000001"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(entry)
	f.Close()
	j = open(t, dir, 0)
	j.Append(batch(30))
	j.Close()
	j = open(t, dir, 0)
	defer j.Close()
	if seqs, ats := times(t, j.Take(nil)); len(seqs) != 2 || ats[0] != 10 || ats[1] != 30 {
		t.Fatalf("replayed %v at %v, want 2 entries at 10 and 30", seqs, ats)
	}
}
