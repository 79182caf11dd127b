package server

import (
	"context"
	"encoding/binary"
)

// Delivery holds the entries of a log that delivers what it is given at
// once, in order (a node alone's memLog, and the journal): Add copies a
// batch in as the next entry, Take hands the entries out. It copies into
// one of two buffers it reuses (the one being filled, the one last taken),
// so a loop iteration's inputs cost no allocation.
type Delivery struct {
	seq   uint64     // the last entry added
	buf   []byte     // entries added since the last Take
	spare []byte     // the buffer the last Take handed out, reused once its entries are applied
	ents  []LogEntry // entries added since the last Take, into buf
}

// SetSeq numbers the next entry seq+1 (a log that starts past entries it
// kept).
func (d *Delivery) SetSeq(seq uint64) { d.seq = seq }

// Add appends batch as the next entry (a uvarint length and the batch, as
// the entries of a shared log hold batches) and returns the entry's bytes,
// valid until the Take after next.
func (d *Delivery) Add(batch []byte) []byte {
	d.seq++
	start := len(d.buf)
	d.buf = binary.AppendUvarint(d.buf, uint64(len(batch)))
	d.buf = append(d.buf, batch...)
	data := d.buf[start:len(d.buf):len(d.buf)]
	d.ents = append(d.ents, LogEntry{Seq: d.seq, Data: data})
	return data
}

// Take moves the entries added since the last call into buf. They stay
// valid until the next Take (the engine applies them before it takes
// again).
func (d *Delivery) Take(buf []LogEntry) []LogEntry {
	buf = append(buf, d.ents...)
	clear(d.ents)
	d.ents = d.ents[:0]
	d.buf, d.spare = d.spare[:0], d.buf
	return buf
}

// memLog is the log of a node alone that keeps nothing: what is appended
// is delivered at once and forgotten once applied. The node leads its
// world of one, and its only incarnation is 0, so its connection ids count
// from 1.
type memLog struct{ Delivery }

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

// Append delivers a copy of batch as the next entry.
func (l *memLog) Append(batch []byte) { l.Add(batch) }
