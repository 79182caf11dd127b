package journal

import (
	"encoding/binary"
	"os"
)

// A segment's entries are written by a writer. Each entry (a uvarint length
// and a batch, as the engine delivers it) is written so that a process that
// dies at any instruction leaves either the whole entry or a segment that
// reads as ending before it: into reserved space, its bytes after the
// first go first and its first byte last. A batch is never
// empty, so an entry's first byte is never 0, and a segment ends at its
// first 0 byte where an entry would begin (the mapped writer's segments are
// reserved ahead of their entries and read as zeros past them).
type writer interface {
	// add writes one entry; the kernel has it when add returns.
	add(entry []byte) error
	// close ends the segment where its last entry ends.
	close() error
}

// openWriter opens the segment file p for entries, after the bytes it
// already holds (a segment started again after a start that wrote none).
func openWriter(p string) (writer, *os.File, error) {
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o640)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if w := mapped(f, st.Size()); w != nil {
		return w, f, nil
	}
	// space reserved before a mapping failed would follow the entries
	// pwrite appends: the file ends where they do
	if err := f.Truncate(st.Size()); err != nil {
		f.Close()
		return nil, nil, err
	}
	return &fileWriter{f: f, off: st.Size()}, f, nil
}

// fileWriter writes each entry with one pwrite(2), where mapping the
// segment is not possible (not Linux, a file system that cannot reserve
// space ahead). Its file ends where its last entry ends, so a write a
// crash cut reads as an entry longer than what follows its length.
type fileWriter struct {
	f   *os.File
	off int64
}

func (w *fileWriter) add(entry []byte) error {
	if _, err := w.f.WriteAt(entry, w.off); err != nil {
		return err
	}
	w.off += int64(len(entry))
	return nil
}

func (w *fileWriter) close() error { return w.f.Close() }

// writeAt writes entry at off in f with two pwrite(2)s, its length's first
// byte last: space reserved past it reads as zeros, so a write a crash
// cut would otherwise read as a whole entry.
func writeAt(f *os.File, off int64, entry []byte) error {
	if _, err := f.WriteAt(entry[1:], off+1); err != nil {
		return err
	}
	_, err := f.WriteAt(entry[:1], off)
	return err
}

// entryEnd is where the entry that starts b ends, 0 where b reads as the
// end of a segment (empty, or a 0 byte: space reserved and never written),
// or -1 when the entry is cut short (a write a crash cut).
func entryEnd(b []byte) int {
	if len(b) == 0 || b[0] == 0 {
		return 0
	}
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return -1
	}
	return k + int(n)
}
