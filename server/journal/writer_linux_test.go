package journal

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestSegmentsAreMapped: on a file system that reserves space ahead, a
// segment is written through a mapped window, not a system call per entry.
func TestSegmentsAreMapped(t *testing.T) {
	dir := t.TempDir()
	probe, err := os.Create(filepath.Join(dir, "probe"))
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Fallocate(int(probe.Fd()), 0, 0, 4096); err != nil {
		t.Skipf("the temporary directory's file system cannot reserve space (%v): segments are written with pwrite there", err)
	}
	probe.Close()
	w, _, err := openWriter(filepath.Join(dir, "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	if _, ok := w.(*mapWriter); !ok {
		t.Fatalf("segment written by a %T, want a mapped window", w)
	}
}

// BenchmarkAppend is the cost of writing one journal entry of a table
// move's size: with write(2) on an O_APPEND file (the journal before it
// mapped its segments), with pwrite(2) (fileWriter, where mapping is not
// possible), and copied into the mapped window.
func BenchmarkAppend(b *testing.B) {
	entry := make([]byte, 48)
	for i := range entry {
		entry[i] = byte(i + 1)
	}
	entry[0] = 47
	b.Run("write", func(b *testing.B) {
		f, err := os.OpenFile(filepath.Join(b.TempDir(), "log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o640)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		b.SetBytes(int64(len(entry)))
		for b.Loop() {
			if _, err := f.Write(entry); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, name := range []string{"pwrite", "mapped"} {
		b.Run(name, func(b *testing.B) {
			p := filepath.Join(b.TempDir(), "log")
			var w writer
			if name == "mapped" {
				var err error
				if w, _, err = openWriter(p); err != nil {
					b.Fatal(err)
				}
			} else {
				f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o640)
				if err != nil {
					b.Fatal(err)
				}
				w = &fileWriter{f: f}
			}
			defer w.close()
			b.SetBytes(int64(len(entry)))
			for b.Loop() {
				if err := w.add(entry); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
