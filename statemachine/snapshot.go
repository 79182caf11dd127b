package statemachine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
)

// Snapshots: a cluster node restores the hub from a snapshot and applies
// only the log after it, so the shared log need not be kept from its start.
//
// The format is hand-written, not gob: it is deterministic (the same hub
// gives the same bytes on every node, so copies can be compared by hash),
// and every length is checked against the bytes left before anything is
// allocated, so hostile input cannot make Restore allocate much or panic.
//
//	version u8 (snapshotVersion)
//	config   the settings but Games and Casts
//	stats    uvarint size, then Stats little-endian (encoding/binary)
//	counters checkSeq, tableSeq, sweepAt
//	rng      uvarint length, then the generator's state (ChaCha8's binary form)
//	generation uvarint (Generation), then the reference matches opened
//	sessions count, then each session; pointers are indices into this list
//	tables   count, then each table (reference matches too, which are in no
//	         map); a table's game is not stored but rebuilt from its seed
//	         and moves, as takeback does; a table of the extended protocol
//	         carries its own generator's state (as rng; empty: none)
//	online, users, checks, timers, kicks, offer and away timers (each
//	queue's deadline and key in the order they fire), failures, held
//	checks, codes, clockTables, the table map (as table indices)
//	pairing  the next round's time, then the pools' sessions in the order
//	         they came (each session's seek is written with the session)
//
// Integers are varints (zig-zag for signed), strings and lists carry a
// uvarint length, and a reference to a session or table is its index + 1
// (0 for nil). Sessions are listed live ones by ConnID, then closed ones
// still referenced by an account check in flight (their answer counts).

// snapshotVersion is the format's first byte; a change of format (or of
// Stats, whose size is also stored) takes a new one.
const snapshotVersion = 8

// snapshotVersionNoGeneration is the last format without the hub's
// Generation, tables' own generators and reference matches' ids: its world
// restores in generation 0, every table drawing from the world's
// generator, as the build that wrote it drew, and its matches are
// numbered in the order it lists them.
const snapshotVersionNoGeneration = 7

// snapshotVersionNoTableNode is the last format without the node each
// table was opened on; it restores with node 0.
const snapshotVersionNoTableNode = 6

// snapshotVersionNoSignUps is the format before the sign-up settings were
// in the hub's Config; it restores with them at their defaults (the shell
// puts its settings in the log as it starts, so they apply next).
const snapshotVersionNoSignUps = 3

// snapshotVersionPairing is the first format with quick pairing: its
// settings, the pools and the pairing counters at the end of Stats. An
// older snapshot restores with the settings at their defaults, nobody
// waiting and the counters at zero.
const snapshotVersionPairing = 5

// snapshotVersionSegments64 is the last format whose Stats counted
// segments in 64 slots by descriptor modulo 64 (the extended descriptors
// from 0x40 shared the reference ones' slots); it restores with those
// counts in the low slots and the rest at zero.
const snapshotVersionSegments64 = 5

// statsSegments64 is how many bytes shorter Stats was with 64 slots for
// each of its two segment counters.
var statsSegments64 = 2 * 8 * (len(Stats{}.SegmentsIn) - 64)

// statsNoPairing is the size of Stats before the pairing counters, which
// follow every older field.
var statsNoPairing = binary.Size(Stats{}) - binary.Size(PairingStats{})

// maxRNGState bounds the generator's state in a snapshot (ChaCha8's binary
// form: its seed and position, with the unread part of its block).
const maxRNGState = 1 << 10

// ErrSnapshot is wrapped by every error Restore returns for bad input.
var ErrSnapshot = errors.New("bad hub snapshot")

// Snapshot encodes the hub's whole state. Call it with Ready empty (after
// Advance): outputs not yet handled are not part of the state.
func (h *Hub) Snapshot() ([]byte, error) {
	if !h.ready.Empty() {
		return nil, errors.New("statemachine: snapshot with Ready outputs not advanced")
	}
	e := snapEncoder{sess: make(map[*session]int), tabs: make(map[*table]int)}
	e.collect(h)
	w := &e.w
	w.u8(snapshotVersion)
	e.config(h.cfg)
	w.uv(uint64(binary.Size(h.stats)))
	w.b, _ = binary.Append(w.b, binary.LittleEndian, &h.stats)
	w.uv(h.checkSeq)
	w.uv(uint64(h.tableSeq))
	w.iv(h.sweepAt)
	rng, _ := h.rng.MarshalBinary() // never fails
	w.uv(uint64(len(rng)))
	w.b = append(w.b, rng...)
	w.uv(uint64(h.generation))
	w.uv(uint64(h.refSeq))
	w.uv(uint64(len(e.sessList)))
	for _, s := range e.sessList {
		e.session(s)
	}
	w.uv(uint64(len(e.tabList)))
	for _, t := range e.tabList {
		e.table(t)
	}
	w.uv(uint64(len(h.online)))
	for _, s := range h.online {
		w.uv(uint64(e.sessRef(s)))
	}
	users := slices.Sorted(maps.Keys(h.users))
	w.uv(uint64(len(users)))
	for _, name := range users {
		w.str(name)
		w.uv(uint64(e.sessRef(h.users[name])))
	}
	checks := slices.Sorted(maps.Keys(h.checks))
	w.uv(uint64(len(checks)))
	for _, id := range checks {
		w.uv(id)
		w.uv(uint64(e.sessRef(h.checks[id])))
	}
	var due []timer
	for _, q := range h.timerQueues() {
		// in the order they fire, without the tie-break numbers: Restore
		// numbers them again in that order, which orders them alike
		due = q.sorted(due[:0])
		w.uv(uint64(len(due)))
		for _, it := range due {
			w.iv(it.at)
			w.uv(uint64(it.conn))
		}
	}
	keys := slices.Sorted(maps.Keys(h.failures))
	w.uv(uint64(len(keys)))
	for _, k := range keys {
		f := h.failures[k]
		w.str(k)
		w.iv(int64(f.count))
		w.iv(f.since)
		w.iv(f.until)
		w.iv(f.next)
	}
	w.uv(uint64(len(h.held)))
	for _, c := range h.held {
		w.iv(c.at)
		w.uv(uint64(e.sessRef(c.s)))
		w.uv(c.check.ID)
		w.uv(uint64(c.check.Conn))
		w.u8(uint8(c.check.Kind))
		w.str(c.check.User)
		w.str(c.check.Password)
	}
	codes := slices.Sorted(maps.Keys(h.codes))
	w.uv(uint64(len(codes)))
	for _, c := range codes {
		w.str(c)
		w.uv(uint64(e.tabRef(h.codes[c])))
	}
	w.uv(uint64(len(h.clockTables)))
	for _, id := range h.clockTables {
		w.uv(uint64(id))
	}
	ids := slices.Sorted(maps.Keys(h.tables))
	w.uv(uint64(len(ids)))
	for _, id := range ids {
		w.uv(uint64(e.tabRef(h.tables[id])))
	}
	w.iv(h.pairAt)
	w.uv(uint64(len(h.seekers)))
	for _, sk := range h.seekers {
		w.uv(uint64(e.sessRef(sk.s)))
	}
	if e.err != nil {
		return nil, e.err
	}
	return w.b, nil
}

// snapEncoder numbers the sessions and tables it writes.
type snapEncoder struct {
	w        snapWriter
	sess     map[*session]int // index+1
	sessList []*session
	tabs     map[*table]int // index+1
	tabList  []*table
	err      error
}

// collect numbers every session and table the hub can reach: live sessions
// by ConnID, closed sessions kept by account checks (by check id, then held
// checks), tables by id, then reference matches in the order of their first
// seat's ConnID.
func (e *snapEncoder) collect(h *Hub) {
	addS := func(s *session) {
		if s != nil && e.sess[s] == 0 {
			e.sessList = append(e.sessList, s)
			e.sess[s] = len(e.sessList)
		}
	}
	for _, c := range slices.Sorted(maps.Keys(h.sessions)) {
		addS(h.sessions[c])
	}
	for _, id := range slices.Sorted(maps.Keys(h.checks)) {
		addS(h.checks[id])
	}
	for _, c := range h.held {
		addS(c.s)
	}
	addT := func(t *table) {
		if t != nil && e.tabs[t] == 0 {
			e.tabList = append(e.tabList, t)
			e.tabs[t] = len(e.tabList)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(h.tables)) {
		addT(h.tables[id])
	}
	for _, code := range slices.Sorted(maps.Keys(h.codes)) {
		addT(h.codes[code])
	}
	for _, s := range e.sessList {
		addT(s.table)
	}
}

func (e *snapEncoder) sessRef(s *session) int {
	if s == nil {
		return 0
	}
	i := e.sess[s]
	if i == 0 && e.err == nil {
		e.err = errors.New("statemachine: snapshot: a session the hub does not list is still referenced")
	}
	return i
}

func (e *snapEncoder) tabRef(t *table) int {
	if t == nil {
		return 0
	}
	i := e.tabs[t]
	if i == 0 && e.err == nil {
		e.err = errors.New("statemachine: snapshot: a table the hub does not list is still referenced")
	}
	return i
}

// config writes every setting but Games and Casts, which the restoring
// caller supplies.
func (e *snapEncoder) config(c Config) {
	w := &e.w
	w.u8(uint8(c.Dialect))
	w.u8(uint8(c.First))
	w.bool(c.HideUnknownUsers)
	for _, d := range []time.Duration{c.KickGrace, c.LoginTimeout, c.LoginWindow, c.LoginLockout, c.OfferTTL, c.ResumeGrace, c.ResumeGraceBye} {
		w.iv(int64(d))
	}
	for _, n := range []int{c.LoginFailures, c.SegmentRate, c.SegmentBurst, c.MaxTables, c.MaxTablesPerUser, c.MaxWatchers, c.ChatRate, c.ChatBurst} {
		w.iv(int64(n))
	}
	w.bool(c.SignUpClosed)
	w.iv(int64(c.SignUpsPerAddress))
	w.iv(int64(c.SignUpsPerHour))
	w.iv(int64(c.PairRound))
	w.iv(int64(c.PairComputerAfter))
	for _, n := range []int{c.PairRange, c.PairWiden, c.PairRangeCap} {
		w.iv(int64(n))
	}
}

// Session flags.
const (
	sfClosed = 1 << iota
	sfOrphan
	sfSpoke
	sfExt
	sfBye
	sfAsmPending
	sfAsmFailed
	sfSeek
)

func (e *snapEncoder) session(s *session) {
	w := &e.w
	var f uint8
	if s.closed {
		f |= sfClosed
	}
	if s.orphan {
		f |= sfOrphan
	}
	if s.spoke {
		f |= sfSpoke
	}
	var asm segment.AssemblerState
	if s.x != nil {
		f |= sfExt
		if s.x.bye {
			f |= sfBye
		}
		asm = s.x.asm.State()
		if asm.Pending {
			f |= sfAsmPending
		}
		if asm.Failed {
			f |= sfAsmFailed
		}
		if s.x.seek != nil {
			f |= sfSeek
		}
	}
	w.u8(f)
	w.uv(uint64(s.conn))
	w.u8(uint8(s.state))
	w.str(s.name)
	w.iv(s.opened)
	w.uv(s.check)
	w.uv(uint64(s.queued))
	for k := range int(s.queued) { // the queue exists only while segments wait
		seg := &s.queue[k]
		w.u8(uint8(seg.Type))
		w.bytes(seg.Payload())
	}
	w.uv(uint64(e.sessRef(s.peer)))
	w.uv(uint64(e.tabRef(s.table)))
	w.iv(int64(s.seat))
	w.str(s.source)
	w.iv(s.credit)
	w.iv(s.last)
	if s.x != nil {
		w.uv(uint64(s.x.features))
		w.iv(s.x.chatCredit)
		w.iv(s.x.chatLast)
		if asm.Pending {
			w.u8(uint8(asm.Type))
			w.bytes(asm.Body)
		}
		if sk := s.x.seek; sk != nil {
			w.str(sk.game)
			w.str(sk.clock)
			var sf uint8
			for i, b := range []bool{sk.rated, sk.known, sk.prov, sk.offered} {
				if b {
					sf |= 1 << i
				}
			}
			w.u8(sf)
			w.iv(int64(sk.rating))
			w.iv(sk.since)
			w.iv(sk.last)
			w.iv(int64(sk.sent))
		}
	}
}

// Seat flags: a seat's booleans, one bit each.
const (
	seatfReady = 1 << iota
	seatfGone
	seatfBot
	seatfTook
	seatfAuto
	seatfAway
	seatfTicking
	seatfExpired
)

// flagBit is one flag of a flags byte and the field it stands for.
type flagBit struct {
	bit uint8
	on  *bool
}

// seatFlags lists sl's flags; the encoder and the decoder both go by it,
// so a flag cannot be written and not read.
func seatFlags(sl *seatSlot) [8]flagBit {
	return [...]flagBit{
		{seatfReady, &sl.ready}, {seatfGone, &sl.gone}, {seatfBot, &sl.bot}, {seatfTook, &sl.took},
		{seatfAuto, &sl.auto}, {seatfAway, &sl.away}, {seatfTicking, &sl.ticking}, {seatfExpired, &sl.expired},
	}
}

// Table flags.
const (
	tfRef = 1 << iota // a reference client's Bomber match
	tfPrivate
	tfGame
	tfOffer
	tfTimeout
)

func (e *snapEncoder) table(t *table) {
	w := &e.w
	var f uint8
	if !t.ext() {
		f |= tfRef
	}
	if t.private {
		f |= tfPrivate
	}
	if t.game != nil {
		f |= tfGame
	}
	if t.offer != nil {
		f |= tfOffer
	}
	if t.timeout {
		f |= tfTimeout
	}
	w.u8(f)
	w.uv(uint64(t.id))
	if t.ext() {
		w.str(t.kind.Spec.Name)
	}
	keys := sortedKeys(t.opts)
	w.uv(uint64(len(keys)))
	for _, k := range keys {
		w.str(k)
		w.str(t.opts[k])
	}
	w.uv(uint64(len(t.seats)))
	for i := range t.seats {
		sl := &t.seats[i]
		var sf uint8
		for _, f := range seatFlags(sl) {
			if *f.on {
				sf |= f.bit
			}
		}
		w.u8(sf)
		w.uv(uint64(e.sessRef(sl.s)))
		w.str(sl.name)
		w.uv(uint64(sl.asked))
		w.b = append(w.b, sl.token[:]...)
		w.iv(sl.awayUntil)
		w.iv(sl.left)
		w.iv(sl.since)
		w.iv(sl.pausedAt)
		w.iv(sl.pauseLeft)
	}
	w.uv(uint64(len(t.watchers)))
	for _, s := range t.watchers {
		w.uv(uint64(e.sessRef(s)))
	}
	w.str(t.creator)
	w.uv(uint64(t.node))
	w.u8(t.watch)
	w.str(t.code)
	w.u8(t.phase)
	w.uv(uint64(t.seq))
	w.b = append(w.b, t.seed[:]...)
	if t.kind != refKind {
		var rng []byte // none: the table draws from the world's
		if t.rng != nil {
			rng, _ = t.rng.MarshalBinary() // never fails
		}
		w.bytes(rng)
	}
	w.iv(t.start)
	w.uv(uint64(len(t.moves)))
	for _, m := range t.moves {
		w.iv(int64(m.seat))
		w.u8(m.move.Kind)
		w.u8(m.move.Len)
		// up to the last non-zero byte, not Len: bytes past Len are part
		// of the comparable Move too
		n := len(m.move.Arg)
		for n > 0 && m.move.Arg[n-1] == 0 {
			n--
		}
		w.bytes(m.move.Arg[:n])
		w.iv(m.at)
	}
	if o := t.offer; o != nil {
		w.u8(o.what)
		w.iv(int64(o.by))
		w.uv(uint64(len(o.agreed)))
		for _, a := range o.agreed {
			w.bool(a)
		}
		w.iv(o.expires)
	}
	for _, c := range []*chatLog{&t.chat, &t.wchat} {
		w.uv(uint64(len(c.lines)))
		for _, l := range c.lines {
			w.str(l.from)
			w.str(l.text)
		}
		w.iv(int64(c.next))
	}
}

// snapWriter appends the primitives of the format.
type snapWriter struct{ b []byte }

func (w *snapWriter) u8(v uint8)   { w.b = append(w.b, v) }
func (w *snapWriter) uv(v uint64)  { w.b = binary.AppendUvarint(w.b, v) }
func (w *snapWriter) iv(v int64)   { w.b = binary.AppendVarint(w.b, v) }
func (w *snapWriter) str(s string) { w.uv(uint64(len(s))); w.b = append(w.b, s...) }
func (w *snapWriter) bytes(p []byte) {
	w.uv(uint64(len(p)))
	w.b = append(w.b, p...)
}
func (w *snapWriter) bool(v bool) {
	if v {
		w.u8(1)
	} else {
		w.u8(0)
	}
}

// snapReader reads the primitives back; after the first error every read
// returns zero and the error sticks.
type snapReader struct {
	b   []byte
	off int
	err error
}

func (r *snapReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: at byte %d: %s", ErrSnapshot, r.off, fmt.Sprintf(format, args...))
	}
}

func (r *snapReader) u8() uint8 {
	if r.err != nil || r.off >= len(r.b) {
		r.fail("truncated")
		return 0
	}
	r.off++
	return r.b[r.off-1]
}

func (r *snapReader) uv() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.fail("bad uvarint")
		return 0
	}
	r.off += n
	return v
}

func (r *snapReader) iv() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b[r.off:])
	if n <= 0 {
		r.fail("bad varint")
		return 0
	}
	r.off += n
	return v
}

// count reads a list length, refused when the rest of the input could not
// hold that many items of at least per bytes each.
func (r *snapReader) count(per int) int {
	n := r.uv()
	if r.err == nil && n > uint64(len(r.b)-r.off)/uint64(per) {
		r.fail("count %d does not fit in the %d bytes left", n, len(r.b)-r.off)
		return 0
	}
	return int(n)
}

// ref reads a reference (index+1, 0 for nil) into a list of n.
func (r *snapReader) ref(n int) int {
	v := r.uv()
	if v > uint64(n) {
		r.fail("reference %d to a list of %d", v, n)
		return 0
	}
	return int(v)
}

func (r *snapReader) raw(n int) []byte {
	if r.err != nil || n > len(r.b)-r.off {
		r.fail("truncated")
		return nil
	}
	r.off += n
	return r.b[r.off-n : r.off]
}

func (r *snapReader) bytes() []byte { return r.raw(r.count(1)) }
func (r *snapReader) str() string   { return string(r.bytes()) }

func (r *snapReader) bool() bool {
	switch r.u8() {
	case 0:
		return false
	case 1:
		return true
	}
	r.fail("bad bool")
	return false
}

func (r *snapReader) u32() uint32 {
	v := r.uv()
	if v > 1<<32-1 {
		r.fail("%d overflows 32 bits", v)
	}
	return uint32(v)
}

// small reads a non-negative int that fits an int32 (settings and counts).
func (r *snapReader) small() int {
	v := r.iv()
	if v < 0 || v > 1<<31-1 {
		r.fail("value %d out of range", v)
		return 0
	}
	return int(v)
}

// player reads a seat index: Spectator or 0..n-1.
func (r *snapReader) player(n int) rules.Player {
	v := r.iv()
	if v < int64(rules.Spectator) || v >= int64(n) {
		r.fail("seat %d of %d", v, n)
		return 0
	}
	return rules.Player(v)
}

// Restore rebuilds a hub from a Snapshot. cfg supplies Games and Casts
// (the caller's); every other setting comes from the snapshot. Bad input returns an error wrapping ErrSnapshot.
func Restore(cfg Config, snap []byte) (*Hub, error) {
	r := &snapReader{b: snap}
	v := r.u8()
	if r.err == nil && (v < snapshotVersionNoSignUps || v > snapshotVersion) {
		return nil, fmt.Errorf("%w: version %d, want %d to %d", ErrSnapshot, v, snapshotVersionNoSignUps, snapshotVersion)
	}
	c := readConfig(r, v)
	c.Games, c.Casts = cfg.Games, cfg.Casts
	h := New(c)
	if r.err != nil {
		return nil, r.err
	}
	size := binary.Size(h.stats)
	if v < snapshotVersionPairing {
		size = statsNoPairing
	}
	if v <= snapshotVersionSegments64 {
		size -= statsSegments64
	}
	if n := r.uv(); r.err == nil && n != uint64(size) {
		return nil, fmt.Errorf("%w: stats of %d bytes, want %d", ErrSnapshot, n, size)
	}
	if p := r.raw(size); r.err == nil {
		// an older Stats lacks the pairing counters at its end: they start at
		// zero; one with 64 slots a segment counter has its slots widened
		full := make([]byte, binary.Size(h.stats))
		if v <= snapshotVersionSegments64 {
			const old, slots = 64 * 8, len(Stats{}.SegmentsIn) * 8
			copy(full, p[:old])
			copy(full[slots:], p[old:2*old])
			copy(full[2*slots:], p[2*old:])
		} else {
			copy(full, p)
		}
		if _, err := binary.Decode(full, binary.LittleEndian, &h.stats); err != nil {
			return nil, fmt.Errorf("%w: stats: %w", ErrSnapshot, err)
		}
	}
	h.checkSeq = r.uv()
	h.tableSeq = r.u32()
	h.sweepAt = r.iv()
	if n := r.uv(); n > maxRNGState {
		r.fail("generator state of %d bytes", n)
	} else if p := r.raw(int(n)); r.err == nil {
		if err := h.rng.UnmarshalBinary(p); err != nil {
			return nil, fmt.Errorf("%w: generator: %w", ErrSnapshot, err)
		}
	}
	h.generation = 0 // an older format's world draws as its build drew
	if v > snapshotVersionNoGeneration {
		if g := r.uv(); g > Generation {
			r.fail("generation %d, this build's is %d", g, Generation)
		} else {
			h.generation = uint32(g)
		}
		h.refSeq = r.u32()
	}
	d := snapDecoder{r: r, h: h, version: v}
	if err := d.body(); err != nil {
		return nil, err
	}
	if err := h.CheckInvariants(); err != nil {
		return nil, fmt.Errorf("%w: inconsistent: %w", ErrSnapshot, err)
	}
	return h, nil
}

func readConfig(r *snapReader, version uint8) Config {
	var c Config
	c.Dialect = Dialect(r.u8())
	c.First = First(r.u8())
	c.HideUnknownUsers = r.bool()
	if c.Dialect > Document || c.First > Invitee {
		r.fail("dialect %d or first %d unknown", c.Dialect, c.First)
	}
	for _, d := range []*time.Duration{&c.KickGrace, &c.LoginTimeout, &c.LoginWindow, &c.LoginLockout, &c.OfferTTL, &c.ResumeGrace, &c.ResumeGraceBye} {
		*d = time.Duration(r.iv())
	}
	for _, n := range []*int{&c.LoginFailures, &c.SegmentRate, &c.SegmentBurst, &c.MaxTables, &c.MaxTablesPerUser, &c.MaxWatchers, &c.ChatRate, &c.ChatBurst} {
		*n = r.small()
	}
	if version != snapshotVersionNoSignUps {
		c.SignUpClosed = r.bool()
		c.SignUpsPerAddress = r.small()
		c.SignUpsPerHour = r.small()
	}
	if version >= snapshotVersionPairing {
		c.PairRound = time.Duration(r.iv())
		c.PairComputerAfter = time.Duration(r.iv())
		for _, n := range []*int{&c.PairRange, &c.PairWiden, &c.PairRangeCap} {
			*n = r.small()
		}
	}
	return c
}

// snapDecoder reads sessions and tables, then links their references.
type snapDecoder struct {
	r       *snapReader
	h       *Hub
	version uint8
	sess    []*session
	tabs    []*table
	links   []sessLinks
	seats   [][]int // per table: session refs of its seats
	watch   [][]int // per table: session refs of its watchers
}

// sessLinks are a session's references, resolved once everything is read.
type sessLinks struct{ peer, table int }

// Minimal encoded sizes, for the count checks.
const (
	minSession = 13
	minTable   = 60
	minSeat    = 23
	minMove    = 5
)

func (d *snapDecoder) body() error {
	r := d.r
	n := r.count(minSession)
	d.sess = make([]*session, n)
	d.links = make([]sessLinks, n)
	for i := range n {
		d.sess[i] = &session{}
	}
	// sessions refer to tables read later: read their references raw
	var tabRefs []uint64
	for i := range n {
		tabRefs = append(tabRefs, d.session(i))
	}
	m := r.count(minTable)
	d.tabs = make([]*table, m)
	d.seats = make([][]int, m)
	d.watch = make([][]int, m)
	for i := range m {
		d.table(i)
		if r.err != nil {
			return r.err
		}
	}
	for i, ref := range tabRefs {
		if ref > uint64(m) {
			r.fail("session %d refers to table %d of %d", i, ref, m)
			return r.err
		}
		d.links[i].table = int(ref)
	}
	for i := range n {
		if r.err != nil {
			break
		}
		d.link(i)
	}
	for i, t := range d.tabs {
		if r.err != nil {
			break
		}
		d.linkTable(i, t)
	}
	d.maps()
	if r.err == nil && r.off != len(r.b) {
		r.fail("%d bytes left over", len(r.b)-r.off)
	}
	return r.err
}

// session reads session i; it returns its raw table reference.
func (d *snapDecoder) session(i int) uint64 {
	r := d.r
	s := d.sess[i]
	f := r.u8()
	s.closed, s.orphan, s.spoke = f&sfClosed != 0, f&sfOrphan != 0, f&sfSpoke != 0
	s.conn = ConnID(r.uv())
	s.state = State(r.u8())
	if s.state > AtTable {
		r.fail("session %d in state %d", i, s.state)
	}
	s.name = r.str()
	s.opened = r.iv()
	s.check = r.uv()
	q := r.uv()
	if q > pendingMax {
		r.fail("session %d has %d queued segments", i, q)
		return 0
	}
	s.queued = uint8(q)
	if q > 0 {
		s.queue = new([pendingMax]segment.Segment)
	}
	for k := range int(s.queued) {
		t := segment.Type(r.u8())
		p := r.bytes()
		if len(p) > segment.MaxPayload {
			r.fail("queued segment of %d bytes", len(p))
			return 0
		}
		s.queue[k] = segment.Name(t, p)
	}
	d.links[i].peer = r.ref(len(d.sess))
	tab := r.uv()
	seat := r.iv()
	if seat < int64(rules.Spectator) || seat > 127 {
		r.fail("session %d at seat %d", i, seat)
	}
	s.seat = rules.Player(seat) // checked against its table when linked
	s.source = r.str()
	s.credit = r.iv()
	s.last = r.iv()
	if f&sfExt != 0 {
		s.x = &extSession{features: uint32(r.u32()), bye: f&sfBye != 0}
		s.x.chatCredit = r.iv()
		s.x.chatLast = r.iv()
		st := segment.AssemblerState{Pending: f&sfAsmPending != 0, Failed: f&sfAsmFailed != 0}
		if st.Pending {
			st.Type = segment.Type(r.u8())
			st.Body = r.bytes()
		}
		if r.err == nil {
			if err := s.x.asm.SetState(st); err != nil {
				r.fail("session %d: %v", i, err)
			}
		}
		if f&sfSeek != 0 {
			sk := &seeker{s: s, game: r.str(), clock: r.str()}
			sf := r.u8()
			sk.rated, sk.known, sk.prov, sk.offered = sf&1 != 0, sf&2 != 0, sf&4 != 0, sf&8 != 0
			sk.rating = r.small()
			sk.since, sk.last = r.iv(), r.iv()
			sk.sent = r.small()
			s.x.seek = sk
		}
	} else if f&(sfBye|sfAsmPending|sfAsmFailed|sfSeek) != 0 {
		r.fail("session %d has extended flags without the extended protocol", i)
	}
	return tab
}

func (d *snapDecoder) table(i int) {
	r, h := d.r, d.h
	t := &table{}
	d.tabs[i] = t
	f := r.u8()
	t.id = r.u32()
	if f&tfRef != 0 {
		t.kind = refKind
		if d.version <= snapshotVersionNoGeneration {
			// an older format's matches have id 0: number them as they come
			d.h.refSeq++
			t.id = refID(d.h.refSeq)
		}
		if t.id&refTableBase == 0 {
			r.fail("reference match with id %d", t.id)
		}
	} else {
		if t.id&refTableBase != 0 {
			r.fail("table with a reference match's id %d", t.id)
		}
		name := r.str()
		t.kind = h.games[name]
		if r.err == nil && t.kind == nil {
			r.fail("table %d plays %q, which the catalogue does not offer", t.id, name)
			return
		}
	}
	nopts := r.count(2)
	t.opts = make(rules.Options, nopts)
	for range nopts {
		k := r.str()
		t.opts[k] = r.str()
	}
	nseats := r.count(minSeat)
	if r.err == nil && (nseats == 0 || nseats > 64) {
		r.fail("table %d has %d seats", t.id, nseats)
		return
	}
	t.seats = make([]seatSlot, nseats)
	d.seats[i] = make([]int, nseats)
	for k := range t.seats {
		sl := &t.seats[k]
		sf := r.u8()
		for _, f := range seatFlags(sl) {
			*f.on = sf&f.bit != 0
		}
		d.seats[i][k] = r.ref(len(d.sess))
		sl.name = r.str()
		sl.asked = r.u32()
		copy(sl.token[:], r.raw(segment.TokenLen))
		sl.awayUntil = r.iv()
		sl.left = r.iv()
		sl.since = r.iv()
		sl.pausedAt = r.iv()
		sl.pauseLeft = r.iv()
	}
	nw := r.count(1)
	d.watch[i] = make([]int, nw)
	for k := range nw {
		d.watch[i][k] = r.ref(len(d.sess))
	}
	t.creator = r.str()
	if d.version > snapshotVersionNoTableNode {
		t.node = r.u32()
	}
	t.watch = r.u8()
	t.code = r.str()
	t.phase = r.u8()
	t.seq = r.u32()
	copy(t.seed[:], r.raw(32))
	if t.kind != refKind {
		d.generator(t)
	}
	t.start = r.iv()
	t.private, t.timeout = f&tfPrivate != 0, f&tfTimeout != 0
	if t.watch > watchNobody || t.phase > phaseOver {
		r.fail("table %d: watch %d, phase %d", t.id, t.watch, t.phase)
	}
	nm := r.count(minMove)
	t.moves = make([]playedMove, nm, max(nm, 64))
	for k := range t.moves {
		m := &t.moves[k]
		m.seat = r.player(nseats)
		m.move.Kind = r.u8()
		m.move.Len = r.u8()
		if m.move.Len > rules.MoveArgs {
			r.fail("table %d: a move of %d arguments", t.id, m.move.Len)
		}
		arg := r.bytes()
		if len(arg) > rules.MoveArgs {
			r.fail("table %d: a move of %d argument bytes", t.id, len(arg))
		}
		copy(m.move.Arg[:], arg)
		m.at = r.iv()
	}
	if f&tfOffer != 0 {
		o := &offer{what: r.u8(), by: r.player(nseats)}
		na := r.count(1)
		if r.err == nil && na != nseats {
			r.fail("table %d: an offer for %d seats at a table of %d", t.id, na, nseats)
		}
		o.agreed = make([]bool, na)
		for k := range o.agreed {
			o.agreed[k] = r.bool()
		}
		o.expires = r.iv()
		t.offer = o
	}
	for _, c := range []*chatLog{&t.chat, &t.wchat} {
		nl := r.count(2)
		if nl > chatHistory {
			r.fail("table %d keeps %d chat lines", t.id, nl)
			return
		}
		c.lines = make([]chatLine, nl)
		for k := range c.lines {
			c.lines[k] = chatLine{from: r.str(), text: r.str()}
		}
		c.next = r.small()
		if r.err == nil && (c.next >= chatHistory || nl < chatHistory && c.next != 0) {
			r.fail("table %d: chat position %d of %d lines", t.id, c.next, nl)
		}
	}
	if r.err == nil {
		d.check(t)
	}
	if r.err == nil && f&tfGame != 0 {
		d.rebuild(t)
	}
}

// generator reads t's own generator, if it has one.
func (d *snapDecoder) generator(t *table) {
	r := d.r
	if d.version <= snapshotVersionNoGeneration {
		return
	}
	p := r.bytes()
	if len(p) > maxRNGState {
		r.fail("table %d: generator state of %d bytes", t.id, len(p))
	}
	if r.err != nil || len(p) == 0 {
		return
	}
	t.rng = new(rand.ChaCha8)
	if err := t.rng.UnmarshalBinary(p); err != nil {
		r.fail("table %d: generator: %v", t.id, err)
	}
}

// check refuses a table whose settings the hub could not have made: its
// options are checked as create checks them (a ready check would otherwise
// start a game the rules refuse), and its clock comes from its options, as
// at create.
func (d *snapDecoder) check(t *table) {
	r := d.r
	if t.kind == refKind {
		if _, err := t.kind.Spec.New(len(t.seats), t.opts, nil); err != nil {
			r.fail("reference match %d: %v", t.id, err)
		}
		return
	}
	clock, gameOpts, err := parseClock(t.opts)
	if err == nil {
		_, err = t.kind.Spec.New(len(t.seats), gameOpts, record.Rand([32]byte{}))
	}
	if err != nil {
		r.fail("table %d: %v", t.id, err)
		return
	}
	t.clock = clock
	if o := t.offer; o != nil {
		if o.what < offerDraw || o.what > offerTakeback || o.by < 0 || o.what == offerTakeback && (!t.kind.Spec.Takeback || len(t.moves) == 0) {
			r.fail("table %d: offer %d by seat %d", t.id, o.what, o.by)
		}
	}
}

// rebuild makes t's game again: a new game from its seed, then its moves
// played in order (as takeback does). The games draw randomness only from
// the Rand they were given, in Play, and a refused move changes nothing, so
// the same seed and moves give the same game (aeroplane's dice included).
func (d *snapDecoder) rebuild(t *table) {
	r := d.r
	var g rules.Game
	var err error
	if t.kind == refKind {
		g, err = t.kind.Spec.New(2, t.opts, nil) // as refStart: Bomber draws nothing
	} else {
		g, err = t.newGame()
	}
	if err != nil {
		r.fail("table %d: %v", t.id, err)
		return
	}
	steps := d.h.steps
	for k, m := range t.moves {
		if steps, err = g.Play(m.seat, m.move, steps[:0]); err != nil {
			r.fail("table %d: move %d does not replay: %v", t.id, k+1, err)
			return
		}
	}
	t.game = g
}

// link resolves session i's peer and table.
func (d *snapDecoder) link(i int) {
	r := d.r
	s := d.sess[i]
	if p := d.links[i].peer; p > 0 {
		s.peer = d.sess[p-1]
	}
	if k := d.links[i].table; k > 0 {
		s.table = d.tabs[k-1]
		if int(s.seat) >= len(s.table.seats) {
			r.fail("session %d at seat %d of %d", i, s.seat, len(s.table.seats))
		}
		if s.table.ext() != (s.state == AtTable) {
			r.fail("session %d in state %v at a table of the wrong kind", i, s.state)
		}
	}
	if (s.state == Draw || s.state == Game) && (s.table == nil || s.seat < 0 || len(s.table.seats) != 2 || s.table.game == nil) {
		r.fail("session %d plays without a match", i)
	}
}

// linkTable resolves table i's seats and watchers.
func (d *snapDecoder) linkTable(i int, t *table) {
	r := d.r
	if !t.ext() && (len(t.seats) != 2 || t.game == nil) {
		r.fail("reference match %d without two seats and a game", i)
		return
	}
	if t.phase == phasePlaying && t.game == nil {
		r.fail("table %d plays without a game", t.id)
		return
	}
	for k, ref := range d.seats[i] {
		if ref > 0 {
			t.seats[k].s = d.sess[ref-1]
		}
	}
	for _, ref := range d.watch[i] {
		if ref == 0 {
			r.fail("table %d has a nil watcher", t.id)
			return
		}
		t.watchers = append(t.watchers, d.sess[ref-1])
	}
}

// maps reads the hub's indexes and queues.
func (d *snapDecoder) maps() {
	r, h := d.r, d.h
	ns, nt := len(d.sess), len(d.tabs)
	sess := func() *session {
		k := r.ref(ns)
		if k == 0 {
			r.fail("nil session")
			return nil
		}
		return d.sess[k-1]
	}
	for _, s := range d.sess {
		if s.closed {
			continue
		}
		if h.sessions[s.conn] != nil {
			r.fail("connection %d listed twice", s.conn)
			return
		}
		h.sessions[s.conn] = s
	}
	n := r.count(1)
	for range n {
		if s := sess(); r.err == nil {
			h.online = append(h.online, s)
		}
	}
	n = r.count(2)
	for range n {
		name := r.str()
		if s := sess(); r.err == nil {
			h.users[name] = s
		}
	}
	n = r.count(2)
	for range n {
		id := r.uv()
		if s := sess(); r.err == nil {
			h.checks[id] = s
		}
	}
	for _, q := range h.timerQueues() {
		n = r.count(2)
		q.items = make([]timer, 0, n)
		for range n {
			q.push(r.iv(), ConnID(r.uv()))
		}
	}
	n = r.count(5)
	for range n {
		k := r.str()
		h.failures[k] = &failures{count: r.small(), since: r.iv(), until: r.iv(), next: r.iv()}
	}
	n = r.count(7)
	for range n {
		c := heldCheck{at: r.iv(), s: sess()}
		c.check = Check{ID: r.uv(), Conn: ConnID(r.uv()), Kind: CheckKind(r.u8()), User: r.str(), Password: r.str()}
		if r.err == nil {
			h.held = append(h.held, c)
		}
	}
	n = r.count(2)
	for range n {
		code := r.str()
		k := r.ref(nt)
		if r.err == nil && k == 0 {
			r.fail("join code %q of no table", code)
		}
		if r.err == nil {
			h.codes[code] = d.tabs[k-1]
		}
	}
	n = r.count(1)
	for range n {
		h.clockTables = append(h.clockTables, r.u32())
	}
	n = r.count(1)
	for range n {
		k := r.ref(nt)
		if r.err != nil {
			return
		}
		if k == 0 {
			r.fail("nil table")
			return
		}
		t := d.tabs[k-1]
		if !t.ext() || h.tables[t.id] != nil {
			r.fail("table %d listed twice or misfiled", t.id)
			return
		}
		h.tables[t.id] = t
	}
	for code, t := range h.codes {
		if h.tables[t.id] != t || t.code != code {
			r.fail("join code %q of a table that is not open", code)
			return
		}
	}
	if d.version < snapshotVersionPairing {
		return // nobody waits to be paired
	}
	h.pairAt = r.iv()
	n = r.count(1)
	for range n {
		s := sess()
		if r.err != nil {
			return
		}
		if s.x == nil || s.x.seek == nil || !s.x.seek.known {
			r.fail("session %d in a pairing pool without a seek", s.conn)
			return
		}
		h.seekers = append(h.seekers, s.x.seek)
	}
}
