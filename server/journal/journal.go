// Package journal keeps the log of a daemon's world on disk, so that a
// daemon serving a world of its own (no cluster) brings every running
// table back after a restart, a SIGTERM or a kill -9 alike: seats held for
// their players to resume, moves, clocks, chat.
//
// A Journal is the daemon's server.Log. Every batch of the hub's inputs is
// written to the current segment file before the hub applies it (on Linux
// copied into a mapped window of the file, elsewhere with pwrite: see
// writer.go), so what the hub saw is in the kernel's page cache when the
// players see its answers: a process that dies loses nothing the players
// saw (a machine that loses power may lose the last moments: the journal
// does not fsync each batch). Every SnapshotEvery entries the engine hands
// in a snapshot of the world; it is written beside the segments (a
// temporary file renamed over the last one), and the segments it covers
// are deleted. At the next start the engine restores the snapshot and
// replays the entries after it, then the world goes on: the connections
// from before are gone (a new incarnation), so their players' seats are
// held, and the world's time resumes where it stopped (turn clocks and
// held seats did not run while the daemon was down).
//
// The directory holds:
//
//	incarnation          the number of this start (decimal): connection ids carry it
//	snapshot             8 bytes big-endian: the entry it was taken after, then the engine's snapshot
//	log-<20 digits>      a segment: entries from that number on, each a uvarint length and a batch
//	                     of inputs (statemachine.ReadBatch), as server.LogEntry.Data holds them;
//	                     a 0 byte where an entry would begin ends it (space reserved ahead)
//
// A segment that ends inside an entry (a write cut short by a crash) or in
// reserved space is cut back to its last whole entry when the journal opens.
package journal

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/server"
)

// DefaultSnapshotEvery is how many entries pass between snapshots unless
// Options say otherwise: a few seconds of a busy daemon, a few minutes of
// a quiet one, and a replay at start of at most that many entries.
const DefaultSnapshotEvery = 20000

// Options tune a journal.
type Options struct {
	SnapshotEvery uint64      // entries between snapshots; 0: DefaultSnapshotEvery
	Logger        *zap.Logger // nil: none
}

// Journal is a node's log kept on disk; see the package comment. Its
// methods but Fail run on the engine's goroutine.
type Journal struct {
	dir   string
	opts  Options
	log   *zap.Logger
	inc   uint32
	seq   uint64   // the last entry written
	w     writer   // the segment being written
	f     *os.File // its file
	first uint64   // the first entry of that segment

	snapSeq  uint64
	snapData []byte

	replay  []server.LogEntry // entries read at open, not yet taken
	deliver server.Delivery   // entries appended since, delivered as they are written

	wg      sync.WaitGroup // the snapshot writer
	mu      sync.Mutex     // err
	err     error          // the first failure to write
	writing bool           // a snapshot is being written
}

// ErrCorrupt is a journal that cannot be read as one: the daemon stops
// rather than serve a world it cannot trust.
var ErrCorrupt = errors.New("journal: corrupt")

// Open opens (or creates) the journal in dir and reads what it holds: the
// engine restores its snapshot and replays the rest.
func Open(dir string, opts Options) (*Journal, error) {
	if opts.SnapshotEvery == 0 {
		opts.SnapshotEvery = DefaultSnapshotEvery
	}
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	j := &Journal{dir: dir, opts: opts, log: opts.Logger}
	if err := j.nextIncarnation(); err != nil {
		return nil, err
	}
	if err := j.readSnapshot(); err != nil {
		return nil, err
	}
	if err := j.readSegments(); err != nil {
		return nil, err
	}
	j.deliver.SetSeq(j.seq) // appended entries are numbered on from what was read
	if err := j.startSegment(); err != nil {
		return nil, err
	}
	j.log.Info("journal opened", zap.String("dir", dir), zap.Uint32("incarnation", j.inc),
		zap.Uint64("snapshot", j.snapSeq), zap.Int("entries to replay", len(j.replay)))
	return j, nil
}

// nextIncarnation counts this start.
func (j *Journal) nextIncarnation() error {
	p := filepath.Join(j.dir, "incarnation")
	var n uint64
	switch b, err := os.ReadFile(p); {
	case err == nil:
		if n, err = strconv.ParseUint(strings.TrimSpace(string(b)), 10, 32); err != nil {
			return fmt.Errorf("%w: %s: %w", ErrCorrupt, p, err)
		}
	case !errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("journal: %w", err)
	}
	// incarnation 0 is a node alone that keeps nothing: a journal's start 1
	// onwards, so no connection id of one start is another's
	j.inc = uint32(n) + 1
	if j.inc == 0 || j.inc >= 1<<31 {
		return fmt.Errorf("%w: incarnation %d out of range", ErrCorrupt, n)
	}
	return writeFile(p, []byte(strconv.FormatUint(uint64(j.inc), 10)+"\n"))
}

// writeFile replaces p with data durably: a temporary file synced, then
// renamed over p, then the directory synced.
func writeFile(p string, data []byte) error {
	tmp := p + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err == nil {
		err = syncDir(filepath.Dir(p))
	}
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

func (j *Journal) readSnapshot() error {
	b, err := os.ReadFile(filepath.Join(j.dir, "snapshot"))
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("journal: %w", err)
	case len(b) < 8:
		return fmt.Errorf("%w: snapshot of %d bytes", ErrCorrupt, len(b))
	}
	j.snapSeq, j.snapData = binary.BigEndian.Uint64(b), b[8:]
	j.seq = j.snapSeq
	return nil
}

// segments lists the segment files by their first entry, in order.
func (j *Journal) segments() ([]uint64, error) {
	names, err := filepath.Glob(filepath.Join(j.dir, "log-*"))
	if err != nil {
		return nil, err
	}
	var firsts []uint64
	for _, n := range names {
		v, err := strconv.ParseUint(strings.TrimPrefix(filepath.Base(n), "log-"), 10, 64)
		if err != nil {
			continue // not a segment of ours (a temporary file, an editor's backup)
		}
		firsts = append(firsts, v)
	}
	slices.Sort(firsts)
	return firsts, nil
}

func (j *Journal) segmentPath(first uint64) string {
	return filepath.Join(j.dir, fmt.Sprintf("log-%020d", first))
}

// readSegments reads the entries after the snapshot for the engine to
// replay, and cuts a torn last entry away.
func (j *Journal) readSegments() error {
	firsts, err := j.segments()
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	for i, first := range firsts {
		if first > j.seq+1 {
			return fmt.Errorf("%w: entries %d to %d are missing", ErrCorrupt, j.seq+1, first-1)
		}
		p := j.segmentPath(first)
		b, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("journal: %w", err)
		}
		seq, off := first, 0
		for off < len(b) {
			n := entryEnd(b[off:])
			if n <= 0 {
				torn := n < 0 || slices.ContainsFunc(b[off:], func(c byte) bool { return c != 0 })
				if torn && i != len(firsts)-1 {
					return fmt.Errorf("%w: %s is cut short at byte %d, and is not the last segment", ErrCorrupt, p, off)
				}
				if torn {
					j.log.Warn("journal: the last entry was cut short (the daemon died writing it); dropping it", zap.String("file", p), zap.Int("at", off))
				}
				// the rest is a torn entry or space reserved and never
				// written (writer.go)
				if err := os.Truncate(p, int64(off)); err != nil {
					return fmt.Errorf("journal: %w", err)
				}
				break
			}
			end := off + n
			if seq > j.seq {
				j.replay = append(j.replay, server.LogEntry{Seq: seq, Data: b[off:end:end]})
				j.seq = seq
			}
			seq, off = seq+1, end
		}
	}
	return nil
}

// startSegment opens a new segment for the entries from j.seq+1 on.
func (j *Journal) startSegment() error {
	if j.w != nil {
		if err := j.w.close(); err != nil {
			j.fail(err)
		}
	}
	j.first = j.seq + 1
	w, f, err := openWriter(j.segmentPath(j.first))
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	j.w, j.f = w, f
	return nil
}

// Incarnation implements server.Log: this start's number.
func (j *Journal) Incarnation() uint32 { return j.inc }

// Renew implements server.Log; a node alone is never declared gone by
// another.
func (j *Journal) Renew() (uint32, error) { return j.inc, nil }

// Notify implements server.Log: entries are delivered as they are
// appended, on the engine's goroutine, so there is nobody to wake.
func (j *Journal) Notify(func()) {}

// Leader implements server.Log: a node alone does its world's chores.
func (j *Journal) Leader() bool { return true }

// Alive implements server.Log: only this start's connections are alive;
// those of earlier starts are gone with them.
func (j *Journal) Alive(inc uint32) bool { return inc == j.inc }

// Claim implements server.Log: a node alone writes every record. A record
// replayed after a restart that was stored before it is stored once: the
// store keeps one record per game.
func (j *Journal) Claim(context.Context, string) (bool, error) { return true, nil }

// Resumes reports that the world's time stood still while the daemon was
// down: the engine resumes it where the journal ends.
func (j *Journal) Resumes() bool { return true }

// Append implements server.Log: batch is written to the segment, then
// delivered as the next entry.
func (j *Journal) Append(batch []byte) {
	j.seq++
	if err := j.w.add(j.deliver.Add(batch)); err != nil {
		j.fail(err)
	}
}

// Take implements server.Log: the entries to replay first, then those
// appended since the last call. They stay valid until the next Take.
func (j *Journal) Take(buf []server.LogEntry) []server.LogEntry {
	if j.replay != nil {
		buf = append(buf, j.replay...)
		j.replay = nil
	}
	return j.deliver.Take(buf)
}

// Sync implements server.Log: what was appended is on disk.
func (j *Journal) Sync(context.Context) error {
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return j.Err()
}

// Snapshot implements server.Log: the snapshot read at open.
func (j *Journal) Snapshot() (uint64, []byte) { return j.snapSeq, j.snapData }

// SnapshotEvery implements server.Log.
func (j *Journal) SnapshotEvery() uint64 { return j.opts.SnapshotEvery }

// SaveSnapshot implements server.Log: the snapshot is written by a
// goroutine of its own; once it is on disk, the segments it covers go.
// New entries go to a new segment from now on, so that the one being
// written when the snapshot was taken can go with the next snapshot. A
// snapshot asked for while the last is still being written is skipped
// (the next one comes SnapshotEvery entries later).
func (j *Journal) SaveSnapshot(seq uint64, data []byte) {
	j.mu.Lock()
	busy := j.writing
	j.writing = !busy
	j.mu.Unlock()
	if busy {
		return
	}
	if err := j.startSegment(); err != nil {
		j.fail(err)
	}
	j.wg.Add(1)
	go func() {
		defer j.wg.Done()
		defer func() { j.mu.Lock(); j.writing = false; j.mu.Unlock() }()
		b := binary.BigEndian.AppendUint64(make([]byte, 0, 8+len(data)), seq)
		if err := writeFile(filepath.Join(j.dir, "snapshot"), append(b, data...)); err != nil {
			j.fail(err)
			return
		}
		firsts, err := j.segments()
		if err != nil {
			j.fail(err)
			return
		}
		// a segment goes when the next one starts at or before seq+1: all
		// its entries are in the snapshot
		for i := 0; i+1 < len(firsts) && firsts[i+1] <= seq+1; i++ {
			if err := os.Remove(j.segmentPath(firsts[i])); err != nil {
				j.fail(err)
			}
		}
	}()
}

// Fail implements server.Log: the engine cannot go on with this journal.
func (j *Journal) Fail(err error) { j.fail(err) }

func (j *Journal) fail(err error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err == nil {
		j.err = err
		j.log.Error("journal: cannot keep the world on disk; a restart will lose what follows", zap.Error(err))
	}
}

// Err is the first failure to write, if any.
func (j *Journal) Err() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// Close waits for a snapshot being written and closes the segment.
func (j *Journal) Close() error {
	j.wg.Wait()
	if err := j.w.close(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return j.Err()
}

var _ io.Closer = (*Journal)(nil)
