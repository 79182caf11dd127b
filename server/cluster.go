package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/gob"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// Log is the ordered log of the world's inputs. Every engine works through
// one: it never feeds the hub directly but appends its inputs (connections
// opened and closed, segments read, account answers, computer players'
// moves, ticks, settings, seeds) to the log in batches, and applies every
// entry the log delivers, in the log's order, to its hub. A node alone
// keeps the log in memory (memLog), or on disk to survive a restart
// (package journal); the nodes of a cluster share one in a NATS JetStream
// stream (package cluster), each applying every entry to its own copy of
// the hub. The hub is deterministic and every input carries its time and
// the randomness is an input too, so every copy holds the same world: each
// node writes to its own connections what that world says, and a node that
// dies loses no game, because the others hold it already.
type Log interface {
	// Incarnation is this node's number in the world: no other node, nor
	// this one before a restart, ever had it. Connection ids carry it.
	Incarnation() uint32
	// Renew takes a new incarnation after the world declared this one dead
	// (the node was cut off for longer than the others wait).
	Renew() (uint32, error)
	// Notify sets what to call, from any goroutine, when entries wait.
	Notify(wake func())
	// Append queues a copy of one batch of encoded inputs (statemachine's
	// batch form); batches keep their order. It does not block: a node cut
	// off from the log queues what it can. The caller reuses batch.
	Append(batch []byte)
	// Take moves the entries delivered since the last call into buf.
	Take(buf []LogEntry) []LogEntry
	// Leader reports whether this node does the world's chores now: ticks,
	// game records, declaring silent nodes dead. (Computer players are
	// every member's: each runs those of the tables it owns, ownerOf.)
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

// An entry of the log is one or more batches, each a uvarint length and
// then a batch of inputs in statemachine's form (statemachine.ReadBatch):
// the log holds nothing the hub's one way in does not.

// clusterState is what an engine keeps beside the hub for its log: a node
// alone is a cluster of one, and both go the same way.
type clusterState struct {
	log     Log
	inc     uint32
	seeds   io.Reader // where the hub's seeds come from (crypto/rand unless a test sets one)
	out     []byte    // the batch being built
	base    int64
	applied int64 // time of the last input applied (the hub's clock)
	seq     uint64
	recIdx  int
	ents    []LogEntry
	dead    map[uint32]bool // incarnations declared gone (from the log)
	// incs are the world's members as the log says: the incarnations that
	// put a batch in it (a batch's origin; a node's connections open in its
	// own batches) and are not gone; members is them in order. Every node
	// agrees on both at every entry, so on which node runs a table's
	// computer players (ownerOf).
	incs    map[uint32]bool
	members []uint32
	replays bool            // the log replays a capture: this node does no chores
	asked   map[uint32]bool // incarnations this leader asked the log to declare gone
	recs    []keyedRecord   // records of the last minutes not yet settled here, for a new leader
	settled []string        // keys the recorder settled (forgetSettled's)
	leader  bool
	tickAt  int64                // time of the last tick this node appended
	ticked  int64                // time of the last tick applied
	ticks   []statemachine.Input // the inputs of the tick being appended (TickInputs)
	left    bool                 // this node said goodbye (or failed): it applies nothing more
	leaving bool                 // this node is applying its own goodbye (a node alone stopping)
	snapSeq uint64               // the entry of the last snapshot taken or started from
	scratch statemachine.Input   // the input being applied
	// Passwords never go into the log (it is kept on disk, and NATS
	// readers could read them): a Passwd segment goes in with a stand-in,
	// and the node that read it swaps the password back into the account
	// check its copy of the hub asks for.
	secrets   map[string]string
	byConn    map[statemachine.ConnID][]string
	secretSeq uint64
	// signUps holds the segments of a SignUp or an Account message still
	// coming, per connection: its passwords are swapped for stand-ins once
	// the message is whole.
	signUps map[statemachine.ConnID][]segment.Segment
}

// maxSecrets bounds the passwords kept for one connection (a client that
// sends passwords the hub ignores must not grow the map).
const maxSecrets = 4

// standIn replaces a Passwd segment's password by a stand-in, remembering
// the password for the account check.
func (e *engine) standIn(c statemachine.ConnID, seg segment.Segment) segment.Segment {
	out, err := segment.Raw(seg.Type, []byte(e.secretToken(c, string(seg.Payload()))))
	if err != nil {
		return seg // cannot happen: a stand-in is shorter than any payload limit
	}
	return out
}

// secretToken remembers password for connection c and returns the
// stand-in that goes into the log instead.
func (e *engine) secretToken(c statemachine.ConnID, password string) string {
	cs := e.cl
	cs.secretSeq++
	tok := fmt.Sprintf("\x00%x", cs.secretSeq)
	cs.secrets[tok] = password
	toks := append(cs.byConn[c], tok)
	if len(toks) > maxSecrets {
		delete(cs.secrets, toks[0])
		toks = toks[1:]
	}
	cs.byConn[c] = toks
	return tok
}

// maxSignUpParts: a SignUp or an Account message (cap 64) comes in at
// most three segments.
const maxSignUpParts = 3

// signUpStandIn takes the segments of a SignUp as they come and returns
// what goes into the log: nothing until the last one; then the SignUp with
// its password replaced by a stand-in (as Passwd's is), or, for one that
// does not decode, its segments with every byte zeroed, so the hub still
// refuses it (a nameless SignUp) and what it carried stays out of the log.
func (e *engine) signUpStandIn(c statemachine.ConnID, seg segment.Segment) []segment.Segment {
	cs := e.cl
	parts := append(cs.signUps[c], seg)
	if seg.Type.Fragment() && len(parts) < maxSignUpParts {
		cs.signUps[c] = parts
		return nil
	}
	delete(cs.signUps, c)
	var body []byte
	for _, p := range parts {
		body = append(body, p.Payload()...)
	}
	if seg.Type.Fragment() || slices.ContainsFunc(parts, func(p segment.Segment) bool { return p.Type.Base() != seg.Type.Base() }) {
		return blanked(parts)
	}
	if seg.Type.Base() == segment.Account {
		return e.accountStandIn(c, parts, body)
	}
	m, err := segment.DecodeSignUpMsg(body)
	if err != nil {
		return blanked(parts)
	}
	m.Password = e.secretToken(c, m.Password)
	return segment.AppendMessage(nil, segment.SignUp, m.Append(nil))
}

// accountStandIn is signUpStandIn for an Account message (body, whole, in
// parts): both its passwords, the current and the new, go in as stand-ins
// (an empty one stays empty, so the hub still refuses it).
func (e *engine) accountStandIn(c statemachine.ConnID, parts []segment.Segment, body []byte) []segment.Segment {
	m, err := segment.DecodeAccountMsg(body)
	if err != nil {
		return blanked(parts)
	}
	if m.Password != "" {
		m.Password = e.secretToken(c, m.Password)
	}
	if m.New != "" {
		m.New = e.secretToken(c, m.New)
	}
	return segment.AppendMessage(nil, segment.Account, m.Append(nil))
}

// brokenSignUp returns the segments of c's SignUp in progress, zeroed,
// when another segment cuts it short (a framing error the hub closes the
// connection for).
func (e *engine) brokenSignUp(c statemachine.ConnID) []segment.Segment {
	parts := e.cl.signUps[c]
	delete(e.cl.signUps, c)
	return blanked(parts)
}

func blanked(parts []segment.Segment) []segment.Segment {
	out := make([]segment.Segment, len(parts))
	for i, p := range parts {
		out[i], _ = segment.Raw(p.Type, make([]byte, p.Len()))
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
	for _, tok := range e.cl.byConn[c] {
		delete(e.cl.secrets, tok)
	}
	delete(e.cl.byConn, c)
	delete(e.cl.signUps, c)
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

// clustered sets e up to work through its log: the snapshot it starts
// from, then its settings and a fresh seed as its first inputs.
func (e *engine) clustered() {
	l := e.cfg.Log
	cs := &clusterState{log: l, inc: l.Incarnation(), seeds: e.cfg.Entropy,
		dead: map[uint32]bool{}, incs: map[uint32]bool{}, asked: map[uint32]bool{},
		secrets: map[string]string{}, byConn: map[statemachine.ConnID][]string{}, signUps: map[statemachine.ConnID][]segment.Segment{}}
	if cs.seeds == nil {
		cs.seeds = rand.Reader
	}
	_, cs.replays = l.(replayer)
	e.cl = cs
	e.nextID = statemachine.ConnID(cs.inc) << 32
	if seq, data := l.Snapshot(); data != nil {
		if err := e.restore(seq, data); err != nil {
			e.log.Error("the world's snapshot cannot be read; this node stops", zap.Error(err))
			cs.left = true
			l.Fail(err)
			return
		}
	}
	if r, ok := l.(resumer); ok && r.Resumes() {
		// the node's own log from before a restart: replay it now, and let
		// the world's time go on where it stopped (turn clocks and seats
		// held for their players did not run while the node was down)
		e.applyLog()
		e.start = e.cfg.Clock.Now().Add(-time.Duration(cs.applied))
		// the connections of its earlier starts are gone: their players'
		// seats are held for them to resume
		for _, inc := range slices.Sorted(maps.Keys(cs.incs)) {
			if inc != cs.inc {
				cs.asked[inc] = true
				e.in(e.now(), statemachine.Input{Kind: statemachine.InGone, Node: inc})
			}
		}
	}
	// The world runs on the settings of the node that started or reloaded
	// last: a node puts its own in the log as it joins, and every node
	// applies them there. A node replaying the log applies the older
	// nodes' settings where they were put, so all nodes' copies agree.
	now := e.now()
	e.in(now, statemachine.ConfigInput(e.cfg.Hub))
	seed := statemachine.Input{Kind: statemachine.InSeed}
	if _, err := io.ReadFull(cs.seeds, seed.Seed[:]); err != nil {
		e.log.Error("no randomness for the hub's seed", zap.Error(err))
	}
	e.in(now, seed)
	l.Notify(e.pool.wake)
	if l.Leader() {
		e.becameLeader() // a world restored from its log may wait for computer players
		cs.leader = true
	}
}

// resumer is a log that one node keeps across its restarts (a journal on
// disk): the world stood still while the node was down.
type resumer interface{ Resumes() bool }

// replayer is a log that replays a capture: its node does none of the
// world's chores, whose results the capture holds.
type replayer interface{ Replays() bool }

// local reports whether connection c is (or was) one of this node's.
func (e *engine) local(c statemachine.ConnID) bool { return statemachine.NodeOf(c) == e.cl.inc }

// The engine's inputs, into the log.

func (e *engine) inOpen(now int64, c statemachine.ConnID, source string) {
	e.in(now, statemachine.Input{Kind: statemachine.InOpen, Conn: c, Text: source})
}

func (e *engine) inReceive(now int64, c statemachine.ConnID, seg segment.Segment) {
	switch {
	case seg.Type == segment.Passwd:
		seg = e.standIn(c, seg)
	case seg.Type.Extended() && (seg.Type.Base() == segment.SignUp || seg.Type.Base() == segment.Account):
		for _, s := range e.signUpStandIn(c, seg) {
			e.in(now, statemachine.Input{Kind: statemachine.InReceive, Conn: c, Seg: s})
		}
		return
	case len(e.cl.signUps[c]) > 0:
		for _, s := range e.brokenSignUp(c) {
			e.in(now, statemachine.Input{Kind: statemachine.InReceive, Conn: c, Seg: s})
		}
	}
	e.in(now, statemachine.Input{Kind: statemachine.InReceive, Conn: c, Seg: seg})
}

func (e *engine) inClosed(now int64, c statemachine.ConnID) {
	e.forgetSecrets(c)
	e.in(now, statemachine.Input{Kind: statemachine.InClosed, Conn: c})
}

func (e *engine) inAnswer(now int64, id uint64, a statemachine.Answer) {
	e.in(now, statemachine.Input{Kind: statemachine.InAnswer, Check: id, Answer: a})
}

// refuse answers check ch with a without asking the store: a query with an
// empty reply (a query is answered only by replies).
func (e *engine) refuse(now int64, ch statemachine.Check, a statemachine.Answer) {
	if ch.Kind.Query() {
		e.in(now, statemachine.Input{Kind: statemachine.InReply, Check: ch.ID, Answer: a, Asked: ch.Kind})
		return
	}
	e.inAnswer(now, ch.ID, a)
}

func (e *engine) inKick(now int64, user string) bool {
	if !e.hub.IsOnline(user) {
		return false
	}
	e.in(now, statemachine.Input{Kind: statemachine.InKick, Text: user})
	return true
}

// in appends one input at time now to the batch being built (the log has
// it at the end of the loop's iteration, or sooner: sync).
func (e *engine) in(now int64, in statemachine.Input) {
	cs := e.cl
	if len(cs.out) == 0 {
		cs.base = now
		cs.out = statemachine.AppendBatchHeader(cs.out, cs.inc, now)
	}
	cs.out = statemachine.AppendInput(cs.out, now-cs.base, &in)
}

// flushLog hands the batch built so far to the log.
func (e *engine) flushLog() {
	cs := e.cl
	if len(cs.out) == 0 {
		return
	}
	cs.log.Append(cs.out)
	cs.out = cs.out[:0] // the log copied it
}

// sync hands the log what this node put in it and applies what the log
// delivered: at once on a node alone, whose log delivers what it is given.
func (e *engine) sync() {
	e.flushLog()
	e.applyLog()
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
		if every := cs.log.SnapshotEvery(); cs.leader && every > 0 && ent.Seq >= cs.snapSeq+every &&
			(!e.bursting() || ent.Seq >= cs.snapSeq+snapshotPatience*every) {
			e.snapshot(ent.Seq)
		}
	}
	clear(cs.ents)
}

// applyEntry applies one log entry: its batches in order.
func (e *engine) applyEntry(d []byte) error {
	cs := e.cl
	for len(d) > 0 {
		n, k := binary.Uvarint(d)
		if k <= 0 || n > uint64(len(d)-k) {
			return fmt.Errorf("%w: batch length", statemachine.ErrInput)
		}
		b := d[k : k+int(n)]
		origin, err := statemachine.BatchOrigin(b)
		if err != nil {
			return err
		}
		e.member(origin)
		if err := statemachine.ReadBatch(b, &cs.scratch, e.apply); err != nil {
			return err
		}
		d = d[k+int(n):]
	}
	return nil
}

// apply gives the hub one input from the log at its time, with what the
// shell keeps beside the hub: which nodes' connections exist, and when
// time last passed.
func (e *engine) apply(at int64, in *statemachine.Input) {
	cs := e.cl
	now := max(cs.applied, at) // nodes' clocks differ a little: the hub's never goes back
	cs.applied = now
	switch in.Kind {
	case statemachine.InOpen:
		if cs.dead[statemachine.NodeOf(in.Conn)] || e.hub.Known(in.Conn) {
			return // a gone node's connection, or one the log already opened
		}
	case statemachine.InTick:
		cs.ticked = now
	case statemachine.InGone:
		if cs.dead[in.Node] {
			return
		}
	}
	if e.cfg.Tap != nil {
		e.cfg.Tap.Input(now, in)
	}
	e.obs.InputApplied(e.hub.TableOf(in) != 0)
	e.hub.Step(now, *in)
	switch in.Kind {
	case statemachine.InReceive:
		e.bound()
	case statemachine.InGone:
		e.applyGone(in.Node)
	case statemachine.InConfig:
		e.cfg.Hub = e.hub.Config()
	}
	if e.cfg.Tap != nil {
		// the capture shows what the hub did with each input right after
		// it, where an in-process replay of its "in" lines puts it (acting
		// early does not flush: the bytes on the wire are the same)
		e.act()
	}
}

// applyGone keeps the shell's books after the hub closed every connection
// of a node declared dead (or that left): its players' seats are held for
// them to resume on another node. When it is this node, the world has
// moved on without its connections: they are closed here too, and the node
// takes a new incarnation.
func (e *engine) applyGone(inc uint32) {
	cs := e.cl
	cs.dead[inc] = true
	if cs.incs[inc] {
		delete(cs.incs, inc)
		e.membersChanged()
	}
	delete(cs.asked, inc)
	if inc != cs.inc || cs.leaving {
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

// tickRetry is how long a tick may stay unapplied before the leader puts
// another in the log.
const tickRetry = int64(2e9)

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
	// one tick in flight at a time (the tables' ticks that are due, then
	// the world's, whose applying says it arrived): the next once the last
	// was applied (or is long overdue: a log that lost it)
	if at, ok := e.hub.NextDeadline(); ok && at <= now && (cs.ticked >= cs.tickAt || now-cs.tickAt > tickRetry) {
		cs.tickAt = now
		cs.ticks = e.hub.TickInputs(now, cs.ticks[:0])
		for _, in := range cs.ticks {
			e.in(now, in)
		}
	}
	for inc := range cs.incs {
		if inc != cs.inc && !cs.asked[inc] && !cs.log.Alive(inc) {
			cs.asked[inc] = true
			e.log.Warn("a node went silent; its connections are closed and its players' seats held", zap.Uint32("incarnation", inc))
			e.in(now, statemachine.Input{Kind: statemachine.InGone, Node: inc})
		}
	}
}

// becameLeader takes over the chores a dead leader may have left half done:
// records it may not have written.
func (e *engine) becameLeader() {
	cs := e.cl
	e.log.Info("this node does its world's chores now (leader: ticks, records, declaring silent nodes gone)")
	clear(cs.asked)
	for _, kr := range cs.recs {
		e.pool.recordOnce(kr.Key, kr.R, e.wall(kr.R.Start), e.wall(kr.R.End))
	}
}

// member counts incarnation inc among the world's members from the entry
// being applied on (unless it is one already, or gone).
func (e *engine) member(inc uint32) {
	cs := e.cl
	if cs.incs[inc] || cs.dead[inc] {
		return
	}
	cs.incs[inc] = true
	e.membersChanged()
}

// membersChanged puts the world's members in order after one came or went,
// and asks for the computer players' moves the change gave this node: the
// moves of its new tables that the hub waits for (the node that ran them
// before may be gone, or may answer too: the hub takes the first answer
// to each request and ignores the rest).
func (e *engine) membersChanged() {
	cs := e.cl
	before := cs.members
	cs.members = slices.Sorted(maps.Keys(cs.incs))
	if cs.replays || !cs.incs[cs.inc] {
		return
	}
	for _, req := range e.hub.PendingBots(nil) {
		if was, _ := e.ownerOf(before, req.Table); was != cs.inc {
			if now, _ := e.ownerOf(cs.members, req.Table); now == cs.inc {
				e.askBot(req)
			}
		}
	}
}

// ownerOf is the member of members (in order) that runs table t's
// computer players: the node the table was opened on while it is one (a
// balancer spreads the players, and so the tables, over the nodes; the
// creator's moves and its computers' then go into the log together), else
// the one rendezvous hashing gives. False when there are no members.
func (e *engine) ownerOf(members []uint32, t uint32) (uint32, bool) {
	if node, ok := e.hub.TableNode(t); ok {
		if _, in := slices.BinarySearch(members, node); in {
			return node, true
		}
	}
	return rendezvous(members, t)
}

// rendezvous is the member whose hash with table t is highest, so tables
// spread evenly over the members and a member's coming or going moves
// only the tables it gains or had. False when there are no members.
func rendezvous(members []uint32, t uint32) (uint32, bool) {
	var best uint64
	owner, ok := uint32(0), false
	for _, m := range members {
		if h := mix64(uint64(t)<<32 | uint64(m)); !ok || h > best {
			best, owner, ok = h, m, true
		}
	}
	return owner, ok
}

// mix64 is SplitMix64's finalizer: every bit of x moves every bit of the
// result, so consecutive table ids and incarnations hash apart.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// owns reports whether this node runs table t's computer players now.
func (e *engine) owns(t uint32) bool {
	cs := e.cl
	owner, ok := e.ownerOf(cs.members, t)
	return ok && owner == cs.inc && !cs.replays
}

// clusterBots asks for the computer players' moves of the tables this node
// owns (a member's coming or going hands the moves waited for to their
// new owners: membersChanged).
func (e *engine) clusterBots(reqs []statemachine.BotRequest) {
	for _, req := range reqs {
		if e.owns(req.Table) {
			e.askBot(req)
		}
	}
}

// askBot queues a computer player's move in its table creator's share of
// the bot queue; what does not fit is played at random at once.
func (e *engine) askBot(req statemachine.BotRequest) {
	ok, dropped := e.bots.ask(e.hub.TableCreator(req.Table), req)
	if dropped != nil {
		e.log.Warn("bot queue full; the user holding most of it gets a random legal move", zap.String("game", dropped.Game))
		e.botAnswer(fallbackMove(*dropped))
	}
	if !ok {
		e.log.Warn("bot queue full; playing a random legal move", zap.String("game", req.Game))
		e.botAnswer(fallbackMove(req))
	}
}

// clusterRecord keeps a finished game for a possible new leader and writes
// it when this node is the leader, once for the whole cluster.
func (e *engine) clusterRecord(r record.Game) {
	cs := e.cl
	key := fmt.Sprintf("%d.%d", cs.seq, cs.recIdx)
	cs.recIdx++
	e.forgetSettled()
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

// forgetSettled drops the records this node's recorder has settled
// (stored, or found another node's to store): no new leader needs them
// from this node, and a snapshot need not carry them. A node alone, always
// its world's leader, so keeps only the games not yet in its store; at
// hundreds of games a minute the two minutes of records it kept before
// made each snapshot (gob) take the loop for 100-250 ms.
func (e *engine) forgetSettled() {
	cs := e.cl
	cs.settled = e.pool.takeSettled(cs.settled[:0])
	if len(cs.settled) == 0 {
		return
	}
	done := make(map[string]bool, len(cs.settled))
	for _, k := range cs.settled {
		done[k] = true
	}
	cs.recs = slices.DeleteFunc(cs.recs, func(kr keyedRecord) bool { return done[kr.Key] })
	clear(cs.settled)
}

// leave takes this node out of the world for a drain or a stop: its
// connections close and their seats are held for their players to resume
// (on another node, or on this one once it starts again); no table's game
// ends, but a reference Bomber match whose players were both on this node
// ends as aborted (the reference protocol cannot resume one).
func (e *engine) leave(ctx context.Context) {
	cs := e.cl
	e.in(e.now(), statemachine.Input{Kind: statemachine.InGone, Node: cs.inc})
	if r, ok := cs.log.(resumer); ok && r.Resumes() {
		// a node alone is its world: its goodbye is applied now, so the
		// reference matches it aborts are recorded before it exits (a
		// restart replays the goodbye; the store keeps one record a game)
		cs.leaving = true
		e.sync()
	} else {
		e.flushLog()
	}
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

// snapshotPatience bounds how long a snapshot due during a burst waits:
// until snapshotPatience times SnapshotEvery entries have passed since the
// last one, then it is taken anyway (a restart replays at most that many).
const snapshotPatience = 4

// bursting reports whether the loop is in a burst of logins: passwords
// being checked, or presence notices not yet cast to everyone online. A
// snapshot encodes the whole world in one step on the loop (about 10 ms
// with 10,000 users online); taken in a login storm, it held up every
// game's moves for that long, the storm's whole relay p99. It waits for
// the burst to pass instead.
func (e *engine) bursting() bool {
	return e.pool.checking() || e.fan.pending()
}

// snapshot saves the world as of log entry seq (its outputs acted on: the
// hub's Ready is empty).
func (e *engine) snapshot(seq uint64) {
	cs := e.cl
	cs.snapSeq = seq
	e.forgetSettled()
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
	bad := func(what string) error { return fmt.Errorf("%w: snapshot %s", statemachine.ErrSnapshot, what) }
	if len(data) == 0 || data[0] != snapshotVersion {
		return bad("version")
	}
	b := data[1:]
	applied, k := binary.Varint(b)
	if k <= 0 {
		return bad("time")
	}
	cs.applied, b = applied, b[k:]
	for _, set := range []map[uint32]bool{cs.dead, cs.incs} {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)) {
			return bad("nodes")
		}
		b = b[k:]
		for range n {
			v, k := binary.Uvarint(b)
			if k <= 0 {
				return bad("nodes")
			}
			set[uint32(v)], b = true, b[k:]
		}
	}
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return bad("records")
	}
	recs := b[k : k+int(n)]
	if err := gob.NewDecoder(bytes.NewReader(recs)).Decode(&cs.recs); err != nil {
		return fmt.Errorf("%w: snapshot records: %w", statemachine.ErrSnapshot, err)
	}
	h, err := statemachine.Restore(e.cfg.Hub, b[k+int(n):])
	if err != nil {
		return err
	}
	e.hub = h
	e.cfg.Hub = h.Config()
	e.restart(h.Members(nil))
	cs.members = slices.Sorted(maps.Keys(cs.incs))
	cs.snapSeq, cs.seq = seq, seq
	e.log.Info("restored the world from a snapshot", zap.Uint64("seq", seq), zap.Int("bytes", len(data)))
	return nil
}
