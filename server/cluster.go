package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	mrand "math/rand/v2"
	"slices"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// Log is the ordered log the nodes of a cluster share (package cluster keeps
// it in a NATS JetStream stream). A clustered engine never feeds the hub
// directly: it appends its inputs (connections opened and closed, segments
// read, account answers, computer players' moves, ticks) to the log, and
// applies every entry the log delivers, its own and other nodes', in the
// log's order, to its own copy of the hub. The hub is deterministic and every
// input carries its time and its randomness, so every node holds the same
// world: each writes to its own connections what that world says, and a node
// that dies loses no game, because the others hold it already.
type Log interface {
	// Incarnation is this node's number in the world: no other node, nor
	// this one before a restart, ever had it. Connection ids carry it.
	Incarnation() uint32
	// Renew takes a new incarnation after the world declared this one dead
	// (the node was cut off for longer than the others wait).
	Renew() (uint32, error)
	// Notify sets what to call, from any goroutine, when entries wait.
	Notify(wake func())
	// Append queues one batch of encoded inputs; batches keep their order.
	// It does not block: a node cut off from the log queues what it can.
	Append(batch []byte)
	// Take moves the entries delivered since the last call into buf.
	Take(buf []LogEntry) []LogEntry
	// Leader reports whether this node does the world's chores now: ticks,
	// computer players, game records, declaring silent nodes dead.
	Leader() bool
	// Alive reports whether incarnation inc has been heard from lately.
	Alive(inc uint32) bool
	// Claim reserves game record key for this node to write: false when
	// another node (or an earlier leader) claimed it.
	Claim(ctx context.Context, key string) (bool, error)
	// Sync waits until every appended batch is in the log.
	Sync(ctx context.Context) error
	// Snapshot is the snapshot of the world this node starts from: the
	// log entry it was taken after and what SaveSnapshot was given (nil
	// data when the log is to be applied from its start).
	Snapshot() (seq uint64, data []byte)
	// SnapshotEvery is how many entries the leader lets pass between
	// snapshots (0: never).
	SnapshotEvery() uint64
	// SaveSnapshot stores a snapshot of the world as of entry seq, without
	// blocking; the log before an older snapshot may then be dropped.
	SaveSnapshot(seq uint64, data []byte)
	// Fail reports that this node cannot go on serving the world.
	Fail(err error)
}

// LogEntry is one entry of the shared log: a node's batches of inputs.
type LogEntry struct {
	Seq  uint64 // the log's sequence number
	Data []byte
}

// The shared log's wire form. An entry is one or more batches, each a
// uvarint length and then:
//
//	version   1 byte (logVersion)
//	origin    uvarint: the incarnation that appended it
//	seed      32 bytes: the randomness the hub draws while applying it
//	base      varint: the time of its first input (ns since 1970)
//	inputs    kind byte, varint time after base, then by kind:
//	  open     uvarint conn, uvarint length, source address
//	  receive  uvarint conn, the segment's wire bytes (header and payload)
//	  closed   uvarint conn
//	  answer   uvarint check id, answer byte
//	  tick     nothing
//	  bot      uvarint table, seat byte, uvarint seq, uvarint length, move
//	  kick     uvarint length, user name
//	  gone     uvarint incarnation
//	  config   uvarint length, the hub's settings as JSON (statemachine.Config
//	           without the game catalogue and the entropy source, which are
//	           the build's and the log's)
//
// Example: an entry of one batch of 37 bytes (0x25) from incarnation 7,
// with an all-zero seed, base time 2 ns, holding one tick at the base time:
//
//	25 01 07 00…00 (32 bytes) 04 05 00
const logVersion = 1

// Input kinds in the shared log.
const (
	inOpen byte = iota + 1
	inReceive
	inClosed
	inAnswer
	inTick
	inBot
	inKick
	inGone
	inConfig
)

// errBadEntry is a log entry this build cannot read.
var errBadEntry = errors.New("unreadable log entry")

// clusterState is what a clustered engine keeps beside the hub.
type clusterState struct {
	log      Log
	inc      uint32
	seeds    io.Reader // where a batch's seed comes from
	chacha   replayEntropy
	out      []byte // the batch being built
	base     int64
	applied  int64 // time of the last input applied (the hub's clock)
	seq      uint64
	recIdx   int
	ents     []LogEntry
	dead     map[uint32]bool // incarnations declared gone (from the log)
	incs     map[uint32]bool // incarnations that opened connections and are not gone
	asked    map[uint32]bool // incarnations this leader asked the log to declare gone
	recs     []keyedRecord   // records of the last minutes, for a new leader
	leader   bool
	lastTick int64
	left     bool   // this node said goodbye (or failed): it applies nothing more
	snapSeq  uint64 // the entry of the last snapshot taken or started from
	// Passwords never go into the log (it is kept on disk, and NATS
	// readers could read them): a Passwd segment goes in with a stand-in,
	// and the node that read it swaps the password back into the account
	// check its copy of the hub asks for.
	secrets   map[string]string
	byConn    map[statemachine.ConnID][]string
	secretSeq uint64
}

// maxSecrets bounds the passwords kept for one connection (a client that
// sends passwords the hub ignores must not grow the map).
const maxSecrets = 4

// standIn replaces a Passwd segment's password by a stand-in, remembering
// the password for the account check.
func (e *engine) standIn(c statemachine.ConnID, seg segment.Segment) segment.Segment {
	cs := e.cl
	cs.secretSeq++
	tok := fmt.Sprintf("\x00%x", cs.secretSeq)
	cs.secrets[tok] = string(seg.Payload())
	toks := append(cs.byConn[c], tok)
	if len(toks) > maxSecrets {
		delete(cs.secrets, toks[0])
		toks = toks[1:]
	}
	cs.byConn[c] = toks
	out, err := segment.Raw(seg.Type, []byte(tok))
	if err != nil {
		return seg // cannot happen: a stand-in is shorter than any payload limit
	}
	return out
}

// secret is the password a stand-in stands for (used once).
func (e *engine) secret(c statemachine.ConnID, tok string) string {
	cs := e.cl
	pw, ok := cs.secrets[tok]
	if !ok {
		return tok
	}
	delete(cs.secrets, tok)
	toks := cs.byConn[c]
	if i := slices.Index(toks, tok); i >= 0 {
		cs.byConn[c] = slices.Delete(toks, i, i+1)
	}
	return pw
}

// forgetSecrets drops the passwords kept for connection c.
func (e *engine) forgetSecrets(c statemachine.ConnID) {
	if e.cl == nil {
		return
	}
	for _, tok := range e.cl.byConn[c] {
		delete(e.cl.secrets, tok)
	}
	delete(e.cl.byConn, c)
}

type keyedRecord struct { // exported fields: snapshots hold them (gob)
	Key string
	R   record.Game
	At  int64
}

// keepRecords is how long (log time) every node keeps the records it
// applied, so that a node that becomes leader writes those the dead leader
// may not have: well beyond the time it takes to notice a dead leader.
const keepRecords = int64(120e9)

// replayEntropy is the hub's randomness on a clustered node: reseeded from
// each batch's seed, so every node draws the same bytes.
type replayEntropy struct{ r *mrand.ChaCha8 }

func (r *replayEntropy) Read(p []byte) (int, error) {
	if r.r == nil {
		return 0, errors.New("no batch seed")
	}
	return r.r.Read(p)
}

// clustered sets up e to work through cfg.Log.
func (e *engine) clustered() {
	l := e.cfg.Log
	cs := &clusterState{log: l, inc: l.Incarnation(), seeds: e.cfg.Hub.Entropy,
		dead: map[uint32]bool{}, incs: map[uint32]bool{}, asked: map[uint32]bool{},
		secrets: map[string]string{}, byConn: map[statemachine.ConnID][]string{}}
	if cs.seeds == nil {
		cs.seeds = rand.Reader
	}
	e.cl = cs
	e.nextID = statemachine.ConnID(cs.inc) << 32
	e.cfg.Hub.Entropy = &cs.chacha
	e.hub.SetConfig(e.cfg.Hub)
	if seq, data := l.Snapshot(); data != nil {
		if err := e.restore(seq, data); err != nil {
			e.log.Error("the world's snapshot cannot be read; this node stops", zap.Error(err))
			cs.left = true
			l.Fail(err)
			return
		}
	}
	// The world runs on the settings of the node that started or reloaded
	// last: a node puts its own in the log as it joins, and every node
	// applies them there. A node replaying the log applies the older
	// nodes' settings where they were put, so all nodes' copies agree.
	e.inConfig(e.now(), e.cfg.Hub)
	l.Notify(e.pool.wake)
}

// inConfig puts the hub's settings in the log.
func (e *engine) inConfig(now int64, c statemachine.Config) {
	c.Games, c.Entropy = nil, nil
	j, err := json.Marshal(c)
	if err != nil {
		e.log.Error("the hub's settings cannot be put in the log", zap.Error(err))
		return
	}
	e.cl.out = appendStr(e.begin(now, inConfig), string(j))
}

// applyConfig applies settings from the log, keeping this build's game
// catalogue and the log's randomness.
func (e *engine) applyConfig(j string) error {
	var c statemachine.Config
	if err := json.Unmarshal([]byte(j), &c); err != nil {
		return fmt.Errorf("%w: settings: %w", errBadEntry, err)
	}
	c.Games, c.Entropy, c.Casts = e.cfg.Hub.Games, &e.cl.chacha, true
	e.cfg.Hub = c
	e.hub.SetConfig(c)
	return nil
}

func incOf(c statemachine.ConnID) uint32 { return uint32(c >> 32) }

// local reports whether connection c is (or was) one of this node's.
func (e *engine) local(c statemachine.ConnID) bool { return e.cl == nil || incOf(c) == e.cl.inc }

// The engine's inputs: straight into the hub on a node alone, into the
// shared log on a clustered one.

func (e *engine) inOpen(now int64, c statemachine.ConnID, source string) {
	if e.cl == nil {
		e.hub.OpenFrom(now, c, source)
		return
	}
	b := e.begin(now, inOpen)
	b = binary.AppendUvarint(b, uint64(c))
	e.cl.out = appendStr(b, source)
}

func (e *engine) inReceive(now int64, c statemachine.ConnID, seg segment.Segment) {
	if e.cl == nil {
		e.hub.Receive(now, c, seg)
		return
	}
	if seg.Type == segment.Passwd {
		seg = e.standIn(c, seg)
	}
	b := e.begin(now, inReceive)
	b = binary.AppendUvarint(b, uint64(c))
	e.cl.out = seg.AppendTo(b)
}

func (e *engine) inClosed(now int64, c statemachine.ConnID) {
	if e.cl == nil {
		e.hub.Closed(now, c)
		return
	}
	e.forgetSecrets(c)
	e.cl.out = binary.AppendUvarint(e.begin(now, inClosed), uint64(c))
}

func (e *engine) inAnswer(now int64, id uint64, a statemachine.Answer) {
	if e.cl == nil {
		e.hub.Answer(now, id, a)
		return
	}
	e.cl.out = append(binary.AppendUvarint(e.begin(now, inAnswer), id), byte(a))
}

func (e *engine) inBot(now int64, a statemachine.BotAnswer) {
	if e.cl == nil {
		e.hub.BotMove(now, a)
		return
	}
	b := binary.AppendUvarint(e.begin(now, inBot), uint64(a.Table))
	b = append(b, byte(a.Seat))
	b = binary.AppendUvarint(b, uint64(a.Seq))
	e.cl.out = appendStr(b, a.Move)
}

func (e *engine) inKick(now int64, user string) bool {
	if e.cl == nil {
		return e.hub.Disconnect(now, user)
	}
	if !e.hub.IsOnline(user) {
		return false
	}
	e.cl.out = appendStr(e.begin(now, inKick), user)
	return true
}

// begin starts an input of kind at time now in the batch being built.
func (e *engine) begin(now int64, kind byte) []byte {
	cs := e.cl
	if len(cs.out) == 0 {
		cs.out = append(cs.out, logVersion)
		cs.out = binary.AppendUvarint(cs.out, uint64(cs.inc))
		var seed [32]byte
		if _, err := io.ReadFull(cs.seeds, seed[:]); err != nil {
			e.log.Error("no randomness for the log's seed", zap.Error(err))
		}
		cs.out = append(cs.out, seed[:]...)
		cs.base = now
		cs.out = binary.AppendVarint(cs.out, now)
	}
	cs.out = append(cs.out, kind)
	return binary.AppendVarint(cs.out, now-cs.base)
}

func appendStr(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// flushLog hands the batch built this iteration to the log.
func (e *engine) flushLog() {
	cs := e.cl
	if len(cs.out) == 0 {
		return
	}
	cs.log.Append(cs.out)
	cs.out = nil // the log keeps it
}

// applyLog applies what the log delivered, in its order, and acts on each
// entry's outputs.
func (e *engine) applyLog() {
	cs := e.cl
	if cs.left {
		return
	}
	cs.ents = cs.log.Take(cs.ents[:0])
	for _, ent := range cs.ents {
		cs.seq, cs.recIdx = ent.Seq, 0
		if err := e.applyEntry(ent.Data); err != nil {
			// every node skips the same bytes the same way: the world stays one
			e.log.Error("skipping the rest of a log entry", zap.Uint64("seq", ent.Seq), zap.Error(err))
		}
		e.act()
		if every := cs.log.SnapshotEvery(); cs.leader && every > 0 && ent.Seq >= cs.snapSeq+every {
			e.snapshot(ent.Seq)
		}
	}
	clear(cs.ents)
}

// applyEntry applies one log entry: its batches in order.
func (e *engine) applyEntry(d []byte) error {
	for len(d) > 0 {
		n, k := binary.Uvarint(d)
		if k <= 0 || n > uint64(len(d)-k) {
			return fmt.Errorf("%w: batch length", errBadEntry)
		}
		if err := e.applyBatch(d[k : k+int(n)]); err != nil {
			return err
		}
		d = d[k+int(n):]
	}
	return nil
}

// logReader reads one batch.
type logReader struct {
	b   []byte
	err error
}

func (r *logReader) uvarint() uint64 {
	v, k := binary.Uvarint(r.b)
	if k <= 0 {
		r.fail("number")
		return 0
	}
	r.b = r.b[k:]
	return v
}

func (r *logReader) varint() int64 {
	v, k := binary.Varint(r.b)
	if k <= 0 {
		r.fail("number")
		return 0
	}
	r.b = r.b[k:]
	return v
}

func (r *logReader) bytes(n int) []byte {
	if n < 0 || n > len(r.b) {
		r.fail("bytes")
		return nil
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p
}

func (r *logReader) str() string { return string(r.bytes(int(min(r.uvarint(), 1<<16)))) }

func (r *logReader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s", errBadEntry, what)
	}
	r.b = nil
}

// applyBatch feeds one node's batch to the hub.
func (e *engine) applyBatch(b []byte) error {
	cs := e.cl
	if len(b) == 0 || b[0] != logVersion {
		return fmt.Errorf("%w: version", errBadEntry)
	}
	r := &logReader{b: b[1:]}
	r.uvarint() // the origin's incarnation: for people reading the log
	seed := r.bytes(32)
	base := r.varint()
	if r.err != nil {
		return r.err
	}
	cs.chacha.r = mrand.NewChaCha8([32]byte(seed))
	for len(r.b) > 0 && r.err == nil {
		kind := r.bytes(1)
		at := base + r.varint()
		if r.err != nil {
			break
		}
		now := max(cs.applied, at) // nodes' clocks differ a little: the hub's never goes back
		cs.applied = now
		switch kind[0] {
		case inOpen:
			c := statemachine.ConnID(r.uvarint())
			src := r.str()
			if r.err == nil && !cs.dead[incOf(c)] && !e.hub.Known(c) {
				cs.incs[incOf(c)] = true
				e.hub.OpenFrom(now, c, src)
			}
		case inReceive:
			c := statemachine.ConnID(r.uvarint())
			hdr := r.bytes(segment.HeaderLen)
			if r.err != nil {
				break
			}
			p := r.bytes(int(hdr[1])<<8 | int(hdr[2]))
			seg, err := segment.Raw(segment.Type(hdr[0]), p)
			if r.err == nil && err == nil {
				e.hub.Receive(now, c, seg)
				e.bound()
			}
		case inClosed:
			e.hub.Closed(now, statemachine.ConnID(r.uvarint()))
		case inAnswer:
			id := r.uvarint()
			a := r.bytes(1)
			if r.err == nil {
				e.hub.Answer(now, id, statemachine.Answer(a[0]))
			}
		case inTick:
			e.hub.Tick(now)
		case inBot:
			a := statemachine.BotAnswer{Table: uint32(r.uvarint())}
			if s := r.bytes(1); s != nil {
				a.Seat = rules.Player(s[0])
			}
			a.Seq = uint32(r.uvarint())
			a.Move = r.str()
			if r.err == nil {
				e.hub.BotMove(now, a)
			}
		case inKick:
			if u := r.str(); r.err == nil {
				e.hub.Disconnect(now, u)
			}
		case inGone:
			if inc := uint32(r.uvarint()); r.err == nil {
				e.applyGone(now, inc)
			}
		case inConfig:
			if j := r.str(); r.err == nil {
				if err := e.applyConfig(j); err != nil {
					r.err = err
				}
			}
		default:
			r.fail(fmt.Sprintf("input kind %d", kind[0]))
		}
	}
	cs.chacha.r = nil
	return r.err
}

// applyGone closes every connection of a node declared dead (or that left):
// its players' seats are held for them to resume on another node. When it
// is this node, the world has moved on without its connections: they are
// closed here too, and the node takes a new incarnation.
func (e *engine) applyGone(now int64, inc uint32) {
	cs := e.cl
	if cs.dead[inc] {
		return
	}
	cs.dead[inc] = true
	delete(cs.incs, inc)
	delete(cs.asked, inc)
	var gone []statemachine.ConnID
	for _, s := range e.hub.Sessions(nil) {
		if incOf(s.Conn) == inc {
			gone = append(gone, s.Conn)
		}
	}
	slices.Sort(gone) // the same order on every node
	for _, c := range gone {
		e.hub.Closed(now, c)
	}
	if inc != cs.inc {
		return
	}
	e.log.Warn("the cluster declared this node gone (cut off too long); closing its connections")
	for _, c := range e.conns {
		c.gone = true
		delete(e.conns, c.id)
		delete(e.partial, c)
		e.obs.ConnClosed(ReasonServer)
		c.link.kill()
	}
	cs.out = cs.out[:0]
	clear(cs.secrets)
	clear(cs.byConn)
	inc, err := cs.log.Renew()
	if err != nil {
		e.log.Error("no new incarnation; this node cannot take connections", zap.Error(err))
		return
	}
	cs.inc = inc
	e.nextID = statemachine.ConnID(inc) << 32
}

// chores does the leader's work at a tick: time passes in the log when the
// hub waits for it, and silent nodes are declared gone.
func (e *engine) chores(now int64) {
	cs := e.cl
	leader := cs.log.Leader()
	if leader && !cs.leader {
		e.becameLeader()
	}
	cs.leader = leader
	if !leader {
		return
	}
	if at, ok := e.hub.NextDeadline(); ok && at <= now && cs.lastTick < at {
		cs.lastTick = now
		e.begin(now, inTick)
	}
	for inc := range cs.incs {
		if inc != cs.inc && !cs.asked[inc] && !cs.log.Alive(inc) {
			cs.asked[inc] = true
			e.log.Warn("a node went silent; its connections are closed and its players' seats held", zap.Uint32("incarnation", inc))
			e.cl.out = binary.AppendUvarint(e.begin(now, inGone), uint64(inc))
		}
	}
}

// becameLeader takes over the chores a dead leader may have left half done:
// computer players' moves it was asked for, and records it may not have
// written.
func (e *engine) becameLeader() {
	cs := e.cl
	e.log.Info("this node now does the cluster's chores (leader)")
	clear(cs.asked)
	for _, req := range e.hub.PendingBots(nil) {
		if !e.bots.ask(req) {
			e.botAnswer(fallbackMove(req))
		}
	}
	for _, kr := range cs.recs {
		e.pool.recordOnce(kr.Key, kr.R, e.wall(kr.R.Start), e.wall(kr.R.End))
	}
}

// clusterBots asks for computer players' moves when this node is the
// leader (a new leader asks again what is pending: becameLeader).
func (e *engine) clusterBots(reqs []statemachine.BotRequest) {
	if !e.cl.leader {
		return
	}
	for _, req := range reqs {
		if !e.bots.ask(req) {
			e.log.Warn("bot queue full; playing a random legal move", zap.String("game", req.Game))
			e.botAnswer(fallbackMove(req))
		}
	}
}

// clusterRecord keeps a finished game for a possible new leader and writes
// it when this node is the leader, once for the whole cluster.
func (e *engine) clusterRecord(r record.Game) {
	cs := e.cl
	key := fmt.Sprintf("%d.%d", cs.seq, cs.recIdx)
	cs.recIdx++
	i := 0
	for i < len(cs.recs) && cs.recs[i].At < cs.applied-keepRecords {
		i++
	}
	cs.recs = append(cs.recs[:0], cs.recs[i:]...)
	cs.recs = append(cs.recs, keyedRecord{key, r, cs.applied})
	if cs.leader {
		e.pool.recordOnce(key, r, e.wall(r.Start), e.wall(r.End))
	}
}

// leave takes this node out of the world for a drain or a stop: its
// connections close and their seats are held for their players to resume
// on another node; no game ends.
func (e *engine) leave(ctx context.Context) {
	cs := e.cl
	e.cl.out = binary.AppendUvarint(e.begin(e.now(), inGone), uint64(cs.inc))
	e.flushLog()
	cs.left = true
	if err := cs.log.Sync(ctx); err != nil {
		e.log.Warn("leaving the cluster: the log did not take the goodbye", zap.Error(err))
	}
	for _, c := range e.conns {
		c.gone = true
		delete(e.conns, c.id)
		delete(e.partial, c)
		e.obs.ConnClosed(ReasonServer)
		c.link.shut()
	}
}

// snapshotVersion is the first byte of a snapshot of a clustered engine.
const snapshotVersion = 1

// A snapshot of the world, as SaveSnapshot stores it:
//
//	version   1 byte (snapshotVersion)
//	applied   varint: the hub's clock
//	dead      uvarint count, then each incarnation declared gone (uvarint)
//	incs      uvarint count, then each live incarnation (uvarint)
//	records   uvarint length, then the recent records (gob), for a new leader
//	hub       the rest: statemachine's Snapshot

// snapshot saves the world as of log entry seq (its outputs acted on: the
// hub's Ready is empty).
func (e *engine) snapshot(seq uint64) {
	cs := e.cl
	cs.snapSeq = seq
	hub, err := e.hub.Snapshot()
	if err != nil {
		e.log.Error("snapshot of the world failed", zap.Error(err))
		return
	}
	b := []byte{snapshotVersion}
	b = binary.AppendVarint(b, cs.applied)
	for _, set := range []map[uint32]bool{cs.dead, cs.incs} {
		keys := slices.Sorted(maps.Keys(set))
		b = binary.AppendUvarint(b, uint64(len(keys)))
		for _, k := range keys {
			b = binary.AppendUvarint(b, uint64(k))
		}
	}
	var recs bytes.Buffer
	if err := gob.NewEncoder(&recs).Encode(cs.recs); err != nil {
		e.log.Error("snapshot of the world failed: records", zap.Error(err))
		return
	}
	b = binary.AppendUvarint(b, uint64(recs.Len()))
	b = append(b, recs.Bytes()...)
	cs.log.SaveSnapshot(seq, append(b, hub...))
}

// restore rebuilds the world from a snapshot taken after log entry seq.
func (e *engine) restore(seq uint64, data []byte) error {
	cs := e.cl
	if len(data) == 0 || data[0] != snapshotVersion {
		return fmt.Errorf("%w: snapshot version", errBadEntry)
	}
	r := &logReader{b: data[1:]}
	cs.applied = r.varint()
	for _, set := range []map[uint32]bool{cs.dead, cs.incs} {
		n := r.uvarint()
		for i := uint64(0); i < n && r.err == nil; i++ {
			set[uint32(r.uvarint())] = true
		}
	}
	recs := r.bytes(int(min(r.uvarint(), uint64(len(r.b)+1))))
	if r.err != nil {
		return r.err
	}
	if err := gob.NewDecoder(bytes.NewReader(recs)).Decode(&cs.recs); err != nil {
		return fmt.Errorf("%w: snapshot records: %w", errBadEntry, err)
	}
	h, err := statemachine.Restore(e.cfg.Hub, r.b)
	if err != nil {
		return err
	}
	e.hub = h
	e.cfg.Hub = h.Config()
	e.restart(h.Members(nil))
	cs.snapSeq, cs.seq = seq, seq
	e.log.Info("restored the world from a snapshot", zap.Uint64("seq", seq), zap.Int("bytes", len(data)))
	return nil
}
