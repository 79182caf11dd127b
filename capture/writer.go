package capture

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.uber.org/zap"
)

// writer owns the files; only the writer goroutine uses it. An I/O error is
// logged once per file and the file's remaining lines are lost, but the
// daemon goes on: capturing is a diagnostic and must never stop play.
type writer struct {
	dir  string
	keep int
	log  *zap.Logger
	f    *os.File
	bw   *bufio.Writer
	err  error // first error, reported by Close
}

func (w *writer) fail(err error) {
	if w.err == nil {
		w.err = err
	}
	w.log.Warn("capture write failed; lines lost until the next file", zap.Error(err))
	if w.f != nil {
		w.f.Close()
	}
	w.f, w.bw = nil, nil
}

func (w *writer) open(name string) {
	w.close()
	f, err := os.OpenFile(filepath.Join(w.dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o640)
	if err != nil {
		w.fail(err)
		return
	}
	w.f, w.bw = f, bufio.NewWriterSize(f, 64<<10)
	w.prune(name)
}

func (w *writer) write(p []byte) {
	if w.bw == nil || len(p) == 0 {
		return
	}
	if _, err := w.bw.Write(p); err != nil {
		w.fail(err)
	}
}

func (w *writer) flush() {
	if w.bw == nil {
		return
	}
	if err := w.bw.Flush(); err != nil {
		w.fail(err)
	}
}

func (w *writer) close() {
	if w.f == nil {
		return
	}
	w.flush()
	if w.f != nil {
		if err := w.f.Close(); err != nil && w.err == nil {
			w.err = err
		}
	}
	w.f, w.bw = nil, nil
}

// prune deletes the oldest capture files beyond the limit. Names begin with
// the UTC start time, so name order is age order, across restarts too.
func (w *writer) prune(current string) {
	ents, err := os.ReadDir(w.dir)
	if err != nil {
		w.log.Warn("capture: cannot list directory to prune", zap.Error(err))
		return
	}
	var names []string
	for _, e := range ents {
		n := e.Name()
		if e.Type().IsRegular() && strings.HasPrefix(n, filePrefix) && strings.HasSuffix(n, fileSuffix) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for len(names) > w.keep {
		if names[0] != current {
			if err := os.Remove(filepath.Join(w.dir, names[0])); err != nil {
				w.log.Warn("capture: cannot delete old file", zap.String("file", names[0]), zap.Error(err))
			}
		}
		names = names[1:]
	}
}
