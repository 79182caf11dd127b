package journal

import (
	"os"

	"golang.org/x/sys/unix"
)

// A lone daemon appends one journal entry per loop iteration; as a system
// call, that was a fifth of the CPU a table move costs. On Linux the
// segment's end is mapped instead (a window of window bytes, MAP_SHARED),
// and an entry is copied into it: the mapping's pages are the file's pages
// in the kernel's page cache, so a process killed right after the copy
// leaves the entry in the file, as a write(2) would have (and, as with
// write(2), a machine that loses power may lose what was not yet written
// back). The window's blocks are reserved with fallocate(2) before it is
// mapped, so a full disk is an error here and not a SIGBUS at the copy.
// The window is kept small: its pages count in the daemon's RSS.
const window = 256 << 10

// mapWriter writes a segment's entries into a mapped window of its file.
type mapWriter struct {
	f    *os.File
	off  int64  // where the next entry goes in the file
	base int64  // the file offset mem starts at
	mem  []byte // the window: the file from base, window bytes
}

// mapped is a mapWriter for f from off on, or nil where the file system
// cannot reserve space ahead or map it.
func mapped(f *os.File, off int64) writer {
	w := &mapWriter{f: f, off: off}
	if w.remap() != nil {
		return nil
	}
	return w
}

// remap maps the window that holds w.off.
func (w *mapWriter) remap() error {
	if w.mem != nil {
		if err := unix.Munmap(w.mem); err != nil {
			return err
		}
		w.mem = nil
	}
	base := w.off &^ (int64(os.Getpagesize()) - 1)
	if err := unix.Fallocate(int(w.f.Fd()), 0, base, window); err != nil {
		return err
	}
	mem, err := unix.Mmap(int(w.f.Fd()), base, window, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		return err
	}
	w.base, w.mem = base, mem
	return nil
}

func (w *mapWriter) add(entry []byte) error {
	at := w.off - w.base
	if at+int64(len(entry)) > int64(len(w.mem)) {
		if len(entry) > window/2 {
			// a large entry (a login storm's batch) is written; the window
			// moves past it
			if err := writeAt(w.f, w.off, entry); err != nil {
				return err
			}
			w.off += int64(len(entry))
			return w.remap()
		}
		if err := w.remap(); err != nil {
			return err
		}
		at = w.off - w.base
	}
	copy(w.mem[at+1:], entry[1:])
	w.mem[at] = entry[0]
	w.off += int64(len(entry))
	return nil
}

// close unmaps the window and cuts the file's reserved space off after
// the last entry.
func (w *mapWriter) close() error {
	var err error
	if w.mem != nil {
		err = unix.Munmap(w.mem)
		w.mem = nil
	}
	if terr := w.f.Truncate(w.off); err == nil {
		err = terr
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	return err
}
