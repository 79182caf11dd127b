package statemachine

import (
	"bytes"
	"encoding/binary"
	"slices"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
)

// TestRestoreBeforePairing: a snapshot in the format before quick pairing
// (4: no pairing settings, no pairing counters at the end of Stats, no
// pools, 64 slots for each segment counter, no generation) restores with the settings at their defaults, nobody waiting and
// the counters at zero, and everything else as it was.
func TestRestoreBeforePairing(t *testing.T) {
	r := &rig{tb: t, h: New(Config{Games: Catalogue(), PairRange: 70}), now: int64(time.Second)}
	r.login(1, "Albert", hubFeatures)
	r.login(2, "Beth", hubFeatures)
	h := r.h
	h.stats.LoginsOK, h.stats.Pairing.Pairings = 7, 3
	h.stats.SegmentsOut[segment.Welcome] = 9
	snap, err := h.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	// cut the format-5 parts out: the pairing settings ending the config,
	// the pairing counters ending Stats, the pools ending the snapshot
	var cfg, pair snapEncoder
	cfg.config(h.cfg)
	pair.w.iv(int64(h.cfg.PairRound))
	pair.w.iv(int64(h.cfg.PairComputerAfter))
	for _, n := range []int{h.cfg.PairRange, h.cfg.PairWiden, h.cfg.PairRangeCap} {
		pair.w.iv(int64(n))
	}
	end := 1 + len(cfg.w.b)
	if !bytes.Equal(snap[end-len(pair.w.b):end], pair.w.b) {
		t.Fatal("the pairing settings do not end the config")
	}
	size, n := binary.Uvarint(snap[end:])
	stats := snap[end+n : end+n+int(size)]
	rest := snap[end+n+int(size):]
	if !bytes.HasSuffix(rest, []byte{0, 0}) {
		t.Fatal("no empty pool at the end")
	}
	// nor the generation and the count of reference matches after the
	// generator (nor any table to carry a generator of its own)
	at := 0
	for range 3 { // checkSeq, tableSeq, sweepAt
		_, n := binary.Uvarint(rest[at:])
		at += n
	}
	rng, n := binary.Uvarint(rest[at:])
	at += n + int(rng)
	if g, n := binary.Uvarint(rest[at:]); g != Generation || n != 1 {
		t.Fatalf("generation %d in %d bytes after the generator, want %d in 1", g, n, Generation)
	}
	_, n = binary.Uvarint(rest[at+1:]) // the reference matches opened
	rest = slices.Delete(slices.Clone(rest), at, at+1+n)
	// and Stats as it was then: 64 slots for each segment counter
	const slots = len(Stats{}.SegmentsIn) * 8
	narrow := slices.Concat(stats[:64*8], stats[slots:slots+64*8], stats[2*slots:statsNoPairing])
	old := []byte{4}
	old = append(old, snap[1:end-len(pair.w.b)]...)
	old = binary.AppendUvarint(old, uint64(len(narrow)))
	old = append(old, narrow...)
	old = append(old, rest[:len(rest)-2]...)

	got, err := Restore(Config{Games: Catalogue()}, old)
	if err != nil {
		t.Fatal(err)
	}
	if got.cfg.PairRange != DefaultPairRange || got.cfg.PairComputerAfter != DefaultPairComputerAfter {
		t.Errorf("pairing settings %d %v, want the defaults", got.cfg.PairRange, got.cfg.PairComputerAfter)
	}
	if got.stats.LoginsOK != 7 || got.stats.Pairing.Pairings != 0 || got.stats.SegmentsOut[segment.Welcome] != 9 {
		t.Errorf("stats: logins %d, pairings %d, Welcomes %d; want 7, 0 and 9", got.stats.LoginsOK, got.stats.Pairing.Pairings, got.stats.SegmentsOut[segment.Welcome])
	}
	if got.generation != 0 {
		t.Errorf("generation %d, want 0: the build that wrote the snapshot drew every table's randomness from the world's generator", got.generation)
	}
	if got.Online() != 2 || len(got.seekers) != 0 {
		t.Errorf("%d online, %d waiting; want 2 and 0", got.Online(), len(got.seekers))
	}
}

// TestSegmentCountsByType: the segment counters (bomber_segments_in_total
// and _out_total by type) keep every descriptor apart: a Seek (0x48)
// counts as itself, not as the reference SyncEnd (0x08) that shares its
// low six bits.
func TestSegmentCountsByType(t *testing.T) {
	r := &rig{tb: t, h: New(Config{Games: Catalogue()}), now: int64(time.Second)}
	r.login(1, "Albert", hubFeatures)
	before := r.h.stats
	r.msg(1, segment.Seek, segment.SeekMsg{Game: "checkers"}.Append(nil))
	st := r.h.stats
	if st.SegmentsIn[segment.Seek] != before.SegmentsIn[segment.Seek]+1 || st.SegmentsIn[segment.SyncEnd] != before.SegmentsIn[segment.SyncEnd] {
		t.Errorf("Seek counted %d, SyncEnd %d; want 1 and 0", st.SegmentsIn[segment.Seek]-before.SegmentsIn[segment.Seek], st.SegmentsIn[segment.SyncEnd]-before.SegmentsIn[segment.SyncEnd])
	}
}
