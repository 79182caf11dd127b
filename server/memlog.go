package server

import (
	"context"
	"encoding/binary"
)

// memLog is the log of a node alone that keeps nothing: what is appended
// is delivered at once, in order, and forgotten once applied. The node
// leads its world of one, and its only incarnation is 0, so its connection
// ids count from 1. It copies each batch into one of two buffers it
// reuses (the one being filled, the one last taken), so a loop iteration's
// inputs cost no allocation.
type memLog struct {
	seq   uint64
	buf   []byte     // entries appended since the last Take
	spare []byte     // the buffer the last Take handed out, reused once its entries are applied
	ents  []LogEntry // entries appended since the last Take, into buf
}

func newMemLog() *memLog { return &memLog{} }

func (*memLog) Incarnation() uint32                         { return 0 }
func (*memLog) Renew() (uint32, error)                      { return 0, nil }
func (*memLog) Notify(func())                               {}
func (*memLog) Leader() bool                                { return true }
func (*memLog) Alive(inc uint32) bool                       { return inc == 0 }
func (*memLog) Claim(context.Context, string) (bool, error) { return true, nil }
func (*memLog) Sync(context.Context) error                  { return nil }
func (*memLog) Snapshot() (uint64, []byte)                  { return 0, nil }
func (*memLog) SnapshotEvery() uint64                       { return 0 }
func (*memLog) SaveSnapshot(uint64, []byte)                 {}
func (*memLog) Fail(error)                                  {}

// Append delivers a copy of batch as the next entry (a uvarint length and
// the batch, as the entries of a shared log hold batches).
func (l *memLog) Append(batch []byte) {
	l.seq++
	start := len(l.buf)
	l.buf = binary.AppendUvarint(l.buf, uint64(len(batch)))
	l.buf = append(l.buf, batch...)
	l.ents = append(l.ents, LogEntry{Seq: l.seq, Data: l.buf[start:len(l.buf):len(l.buf)]})
}

// Take moves the entries appended since the last call into buf. They stay
// valid until the next Take (the engine applies them before it takes
// again).
func (l *memLog) Take(buf []LogEntry) []LogEntry {
	buf = append(buf, l.ents...)
	clear(l.ents)
	l.ents = l.ents[:0]
	l.buf, l.spare = l.spare[:0], l.buf
	return buf
}
