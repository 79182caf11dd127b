// Package cluster joins bomberd nodes into one world over NATS JetStream.
//
// The nodes share an ordered log, a JetStream stream: each node appends its
// inputs to it and applies every entry, in order, to its own copy of the
// pure hub (server.Log says how). JetStream key-value buckets hold the rest:
// node heartbeats (a node silent for NodeTTL is declared gone by the
// leader), the leader lease (the node that ticks the world's clock and
// writes game records; each node runs the computer players of the tables
// opened on it, by server's rule), incarnation numbers, and record claims
// (each finished game is written once). There is no
// membership or consensus protocol of our own: the stream orders, the
// buckets' compare-and-set decides.
package cluster

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.uber.org/zap"

	"github.com/bomber-game/bomber/server"
)

// Config is how a node joins the cluster.
type Config struct {
	URL   string // NATS server URL(s), comma-separated
	Creds string // a NATS credentials file; "" for none
	// TLS: a CA bundle to verify the NATS server, and a client certificate
	// and key when the server asks for one; "" for none.
	TLSCA, TLSCert, TLSKey string
	Node                   string // this node's name (logs, heartbeats); the host name by default
	World                  string // names the stream and buckets; "bomber" by default
	// Heartbeat is how often the node says it is alive and the leader
	// renews its lease; NodeTTL how long a node may be silent before the
	// leader declares it gone; LeaderTTL how long a lease outlives its
	// leader. 0 means 1s, 6s and three heartbeats.
	Heartbeat, NodeTTL, LeaderTTL time.Duration
	Replicas                      int // JetStream replicas of the stream and buckets; 0 means 1
	// SnapshotEvery is how many log entries the leader lets pass between
	// snapshots of the world; the log before the older of the last two is
	// then dropped. 0 means 100,000; negative, never.
	SnapshotEvery int
	Logger        *zap.Logger
}

func (c *Config) defaults() {
	if c.World == "" {
		c.World = "bomber"
	}
	if c.Node == "" {
		c.Node, _ = os.Hostname()
	}
	if c.Heartbeat <= 0 {
		c.Heartbeat = time.Second
	}
	if c.NodeTTL <= 0 {
		c.NodeTTL = 6 * time.Second
	}
	if c.LeaderTTL <= 0 {
		c.LeaderTTL = 3 * c.Heartbeat
	}
	if c.Replicas <= 0 {
		c.Replicas = 1
	}
	if c.SnapshotEvery == 0 {
		c.SnapshotEvery = 100000
	}
	if c.Logger == nil {
		c.Logger = zap.NewNop()
	}
}

// pingEvery is how often a node pings NATS: a sixth of NodeTTL, so that a
// dead link is found in a third to half of it and the node has the rest to
// reach another server of a NATS cluster before the world declares it
// gone; but not more than once a second (a busy NATS must not be taken
// for a dead one).
func pingEvery(nodeTTL time.Duration) time.Duration { return max(nodeTTL/6, time.Second) }

// maxQueued bounds the batches a node cut off from NATS keeps to append
// when the link returns; past it, it drops them (its players' inputs are
// lost, and by then the cluster has declared the node gone anyway).
const maxQueued = 64 << 20

// Node is this daemon's membership in the cluster; it implements server.Log.
type Node struct {
	closing    atomic.Bool   // Close has begun: the link going down is not news
	linkClosed chan struct{} // closed by the NATS link's last callback
	cfg        Config
	log        *zap.Logger
	nc         *nats.Conn
	js         jetstream.JetStream
	stream     jetstream.Stream
	subj       string
	nodes      jetstream.KeyValue // heartbeats: key n<incarnation>, value the node's name
	lease      jetstream.KeyValue // key "leader"
	meta       jetstream.KeyValue // key "incarnation": the next one
	claims     jetstream.KeyValue // record keys
	snaps      jetstream.ObjectStore
	ctx        context.Context
	cancel     context.CancelFunc
	wg         sync.WaitGroup

	inc    atomic.Uint32
	leader atomic.Bool
	stats  struct {
		appends, retries, appendNanos, dropped, delivered atomic.Uint64
		rollbacks, restored                               atomic.Uint64
	}
	caught atomic.Bool // delivered the log as it was at Join
	target uint64      // the log's last sequence at Join

	mu      sync.Mutex
	wake    func()
	ents    []server.LogEntry
	queue   [][]byte // batches waiting for the publisher
	queued  int      // their bytes
	pending int      // batches taken by the publisher and not yet acknowledged
	dropped int
	kick    chan struct{}
	synced  *sync.Cond
	seen    map[uint32]time.Time // last heartbeat seen per incarnation (this node's clock)
	since   time.Time            // when this node began watching heartbeats
	cons    jetstream.ConsumeContext
	last    uint64            // the last sequence delivered
	pos     map[uint32]uint64 // the sequence each node said it was delivered up to
	broken  error             // the log cannot be followed any more (a gap)
	fatal   chan error

	// The log this node applied is checked whenever the link comes back
	// (NATS may have restarted on an older store) and at every heartbeat.
	created   time.Time     // the stream's creation time at Join: its identity
	vrc       uint64        // the link's reconnect count the log was last checked at
	vdone     chan struct{} // closed when a check ends (and made again)
	vkick     chan struct{}
	gen       uint64      // the consumer whose entries are taken (older ones' are dropped)
	untrusted error       // the log is not the one this node applied
	tail      []tailEntry // the last entries applied, to compare and to put back
	tailBytes int

	snapSeq  uint64 // the snapshot this node started from (0: none)
	snapData []byte
	prevSnap uint64 // the last snapshot saved or loaded: the log before it may go
	saving   atomic.Bool
}

var _ server.Log = (*Node)(nil)

// ErrNoNATS means the node could not reach NATS or set up JetStream.
var ErrNoNATS = errors.New("cluster: NATS unavailable")

// Join connects to NATS, sets up the world's stream and buckets (the first
// node creates them), takes an incarnation and starts delivering the log
// from its start.
func Join(ctx context.Context, cfg Config) (*Node, error) {
	cfg.defaults()
	n := &Node{cfg: cfg, log: cfg.Logger.With(zap.String("node", cfg.Node)), subj: "bomber." + cfg.World + ".log",
		kick: make(chan struct{}, 1), vkick: make(chan struct{}, 1), vdone: make(chan struct{}), seen: map[uint32]time.Time{}, wake: func() {}, pos: map[uint32]uint64{}, fatal: make(chan error, 1),
		linkClosed: make(chan struct{})}
	n.synced = sync.NewCond(&n.mu)
	opts := []nats.Option{nats.Name("bomberd " + cfg.Node), nats.MaxReconnects(-1), nats.ReconnectWait(250 * time.Millisecond),
		nats.RetryOnFailedConnect(false),
		// nothing is sent for this node on a link that came back but what
		// it sends after checking the log there: a publish the client
		// kept while reconnecting would be appended first, at the end of a
		// log that may have lost entries this node applied (a fork)
		nats.ReconnectBufSize(-1),
		// a link that dies without a word (a dead switch or cable: no
		// reset, no close) is found by pings: two left unanswered and it
		// is down, so /readyz fails and a balancer moves the node's
		// players before the world declares the node gone. NATS's own
		// default (two pings two minutes apart) would leave a node cut off
		// that way ready, and its players waiting, for minutes.
		nats.PingInterval(pingEvery(cfg.NodeTTL)), nats.MaxPingsOutstanding(2),
		nats.ClosedHandler(func(*nats.Conn) { close(n.linkClosed) }),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if n.closing.Load() {
				return // Close: the node is leaving, its link goes with it
			}
			n.log.Warn("NATS link down", zap.Error(err))
		}),
		nats.ReconnectHandler(func(c *nats.Conn) {
			n.log.Info("NATS link back", zap.String("url", c.ConnectedUrlRedacted()))
			// heartbeats did not flow while the link was down: nobody is
			// declared gone until they have had time to come again
			n.mu.Lock()
			n.since = time.Now()
			n.mu.Unlock()
			n.poke()
			n.checkLog()
		}),
	}
	if cfg.Creds != "" {
		opts = append(opts, nats.UserCredentials(cfg.Creds))
	}
	if cfg.TLSCA != "" || cfg.TLSCert != "" {
		tc, err := tlsConfig(cfg)
		if err != nil {
			return nil, err
		}
		opts = append(opts, nats.Secure(tc))
	}
	nc, err := nats.Connect(cfg.URL, opts...)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrNoNATS, cfg.URL, err)
	}
	n.nc = nc
	if err := n.setup(ctx); err != nil {
		n.closing.Store(true) // the link's end is this failure's, told by the error
		nc.Close()
		return nil, err
	}
	n.ctx, n.cancel = context.WithCancel(context.Background())
	n.wg.Add(3)
	go n.publisher()
	go n.heartbeats()
	go n.verifier()
	return n, nil
}

func tlsConfig(cfg Config) (*tls.Config, error) {
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	if cfg.TLSCA != "" {
		pem, err := os.ReadFile(cfg.TLSCA)
		if err != nil {
			return nil, fmt.Errorf("cluster: tls ca: %w", err)
		}
		tc.RootCAs = x509.NewCertPool()
		if !tc.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("cluster: tls ca %s: no certificate", cfg.TLSCA)
		}
	}
	if cfg.TLSCert != "" {
		cert, err := tls.LoadX509KeyPair(cfg.TLSCert, cfg.TLSKey)
		if err != nil {
			return nil, fmt.Errorf("cluster: tls certificate: %w", err)
		}
		tc.Certificates = []tls.Certificate{cert}
	}
	return tc, nil
}

// setup creates or opens the stream and buckets, takes an incarnation and
// starts the consumer.
func (n *Node) setup(ctx context.Context) error {
	js, err := jetstream.New(n.nc)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrNoNATS, err)
	}
	n.js = js
	w := n.cfg.World
	err = n.patiently(ctx, "stream", func(ctx context.Context) (err error) {
		n.stream, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
			Name: StreamName(w), Subjects: []string{n.subj}, Storage: jetstream.FileStorage,
			Replicas: n.cfg.Replicas, Duplicates: 2 * time.Minute, MaxMsgSize: 8 << 20,
			Description: "bomberd world " + w + ": every node's inputs, in order",
		})
		return err
	})
	if errors.Is(err, nats.ErrNoResponders) || errors.Is(err, jetstream.ErrJetStreamNotEnabled) {
		return fmt.Errorf("%w: no JetStream on the NATS server (nats-server -js, or a jetstream block in its configuration): %w", ErrNoNATS, err)
	}
	if err != nil {
		return fmt.Errorf("%w: stream: %w", ErrNoNATS, err)
	}
	bucket := func(name string, ttl time.Duration) (kv jetstream.KeyValue, err error) {
		err = n.patiently(ctx, "bucket "+name, func(ctx context.Context) (err error) {
			kv, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: name, TTL: ttl, Replicas: n.cfg.Replicas, Storage: jetstream.FileStorage})
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("%w: bucket %s: %w", ErrNoNATS, name, err)
		}
		return kv, nil
	}
	names := BucketNames(w)
	if n.nodes, err = bucket(names[0], 2*n.cfg.NodeTTL); err != nil {
		return err
	}
	if n.lease, err = bucket(names[1], n.cfg.LeaderTTL); err != nil {
		return err
	}
	if n.meta, err = bucket(names[2], 0); err != nil {
		return err
	}
	if n.claims, err = bucket(names[3], 24*time.Hour); err != nil {
		return err
	}
	err = n.patiently(ctx, "snapshots", func(ctx context.Context) (err error) {
		n.snaps, err = js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: SnapshotBucket(w), Storage: jetstream.FileStorage, Replicas: n.cfg.Replicas})
		return err
	})
	if err != nil {
		return fmt.Errorf("%w: snapshots: %w", ErrNoNATS, err)
	}
	var snap []byte
	err = n.patiently(ctx, "the latest snapshot", func(ctx context.Context) (err error) {
		snap, err = n.snaps.GetBytes(ctx, "latest")
		return err
	})
	switch {
	case errors.Is(err, jetstream.ErrObjectNotFound):
	case err != nil:
		return fmt.Errorf("%w: the latest snapshot: %w", ErrNoNATS, err)
	case len(snap) < 8:
		return fmt.Errorf("cluster: the latest snapshot is %d bytes", len(snap))
	default:
		n.snapSeq, n.snapData = binary.BigEndian.Uint64(snap), snap[8:]
		n.prevSnap = n.snapSeq
	}
	inc, err := n.newIncarnation(ctx)
	if err != nil {
		return err
	}
	n.inc.Store(inc)
	var info *jetstream.StreamInfo
	err = n.patiently(ctx, "stream info", func(ctx context.Context) (err error) {
		info, err = n.stream.Info(ctx)
		return err
	})
	if err != nil {
		return fmt.Errorf("%w: stream info: %w", ErrNoNATS, err)
	}
	if first := info.State.FirstSeq; info.State.Msgs > 0 && first > n.snapSeq+1 {
		return fmt.Errorf("cluster: the log starts at entry %d and the latest snapshot is of entry %d: the world cannot be rebuilt (was the stream purged by hand?)", first, n.snapSeq)
	}
	if info.State.LastSeq < n.snapSeq {
		// the store lost the log's tail (NATS started on an older copy of
		// it) but not the snapshot: the entries after the log's end would
		// be numbered as ones the snapshot holds. A node that applied them
		// puts them back; until one has, this node cannot start.
		return fmt.Errorf("cluster: the log ends at entry %d and the latest snapshot is of entry %d: the store lost the log's tail (started on an older copy?); start this node again once a running node has put the entries back, or see docs/operations.md", info.State.LastSeq, n.snapSeq)
	}
	n.created = info.Created
	n.target = info.State.LastSeq
	n.last = n.snapSeq
	n.caught.Store(n.target <= n.snapSeq)
	return n.patiently(ctx, "consumer", func(ctx context.Context) error { return n.consume(ctx, n.nc.Stats().Reconnects) })
}

// askWithin bounds one JetStream request of a node setting itself up (or
// taking a new incarnation, Renew). An answer takes milliseconds; a
// request that comes while the group that should answer it elects a
// leader (the NATS cluster just formed, or just lost a server) is
// answered by nobody, ever.
const askWithin = 5 * time.Second

// patiently does f, each try within askWithin, until it succeeds, fails
// for a reason asking again cannot change, or ctx ends (then with the last
// try's error): a node starting beside a NATS cluster that is electing
// leaders waits for them, rather than for one lost request all its
// start-up long and then exiting.
func (n *Node) patiently(ctx context.Context, what string, f func(context.Context) error) error {
	for {
		try, cancel := context.WithTimeout(ctx, askWithin)
		err := f(try)
		cancel()
		if err == nil || ctx.Err() != nil || !transient(err) {
			return err
		}
		n.log.Warn("no answer from JetStream yet; asking again", zap.String("step", what), zap.Error(err))
		select {
		case <-ctx.Done():
			return err
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// transient says whether err may pass when asked again: no answer in
// time, or JetStream's "temporarily unavailable" (no leader yet). Nobody
// to answer at all is not: a NATS server without JetStream is a mistake
// of its set-up, which the node reports at once.
func transient(err error) bool {
	var api *jetstream.APIError
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout) ||
		(errors.As(err, &api) && api.ErrorCode == jsClusterNotAvailable)
}

// jsClusterNotAvailable is JetStream's error code for "JetStream system
// temporarily unavailable" (nats-server's JSClusterNotAvailErr).
const jsClusterNotAvailable jetstream.ErrorCode = 10008

// consume starts taking the log's entries from the one after the last
// taken, on a link checked at reconnect count rc; the consumer before it,
// if any, is stopped and what it still delivers is dropped. The link
// counts as checked from before the consumer starts: it delivers at once,
// and deliver drops what comes under an unchecked link, past the
// consumer's position, never to come again.
func (n *Node) consume(ctx context.Context, rc uint64) error {
	n.mu.Lock()
	n.gen++
	gen, from, old, checked := n.gen, n.last+1, n.cons, n.vrc
	n.vrc = rc
	n.mu.Unlock()
	if old != nil {
		old.Stop()
	}
	fail := func(err error) error {
		n.mu.Lock()
		if n.gen == gen {
			n.vrc = checked // no consumer: the next check makes one
		}
		n.mu.Unlock()
		return err
	}
	occ := jetstream.OrderedConsumerConfig{DeliverPolicy: jetstream.DeliverAllPolicy}
	if from > 1 {
		occ = jetstream.OrderedConsumerConfig{DeliverPolicy: jetstream.DeliverByStartSequencePolicy, OptStartSeq: from}
	}
	cons, err := n.stream.OrderedConsumer(ctx, occ)
	if err != nil {
		return fail(fmt.Errorf("%w: consumer: %w", ErrNoNATS, err))
	}
	cc, err := cons.Consume(func(m jetstream.Msg) { n.deliver(gen, m) }, jetstream.PullMaxMessages(4096))
	if err != nil {
		return fail(fmt.Errorf("%w: consume: %w", ErrNoNATS, err))
	}
	n.mu.Lock()
	n.cons = cc
	n.mu.Unlock()
	return nil
}

// StreamName is the JetStream stream of world w.
func StreamName(w string) string { return "BOMBER_" + w }

// SnapshotBucket is the object store of world w's snapshots.
func SnapshotBucket(w string) string { return "bomber_" + w + "_snap" }

// BucketNames are the key-value buckets of world w: heartbeats, the leader
// lease, incarnations, record claims.
func BucketNames(w string) [4]string {
	return [4]string{"bomber_" + w + "_nodes", "bomber_" + w + "_leader", "bomber_" + w + "_meta", "bomber_" + w + "_records"}
}

// newIncarnation takes the next incarnation number by compare-and-set.
func (n *Node) newIncarnation(ctx context.Context) (uint32, error) {
	for range 100 {
		var e jetstream.KeyValueEntry
		err := n.patiently(ctx, "incarnation", func(ctx context.Context) (err error) {
			e, err = n.meta.Get(ctx, "incarnation")
			return err
		})
		switch {
		case errors.Is(err, jetstream.ErrKeyNotFound):
			err := n.patiently(ctx, "incarnation", func(ctx context.Context) error {
				_, err := n.meta.Create(ctx, "incarnation", []byte("2"))
				return err
			})
			if err == nil {
				return 1, nil
			}
		case err != nil:
			return 0, fmt.Errorf("%w: incarnation: %w", ErrNoNATS, err)
		default:
			v, err := strconv.ParseUint(string(e.Value()), 10, 32)
			if err != nil {
				return 0, fmt.Errorf("cluster: incarnation %q: %w", e.Value(), err)
			}
			err = n.patiently(ctx, "incarnation", func(ctx context.Context) error {
				_, err := n.meta.Update(ctx, "incarnation", []byte(strconv.FormatUint(v+1, 10)), e.Revision())
				return err
			})
			if err == nil {
				return uint32(v), nil
			}
		}
	}
	return 0, fmt.Errorf("%w: incarnation: too much contention", ErrNoNATS)
}

// deliver takes one log entry from consumer gen.
func (n *Node) deliver(gen uint64, m jetstream.Msg) {
	md, err := m.Metadata()
	if err != nil {
		n.log.Error("log entry without metadata", zap.Error(err))
		return
	}
	seq := md.Sequence.Stream
	n.mu.Lock()
	if n.broken != nil || n.untrusted != nil || gen != n.gen || seq <= n.last {
		n.mu.Unlock()
		return // stopped following, a consumer replaced, or an entry the snapshot holds
	}
	if n.nc.Stats().Reconnects != n.vrc {
		// the link came back, perhaps to a server on an older store: nothing
		// is taken from the log until it is known to be the one this node
		// applied; a new consumer then starts after the last entry taken
		n.mu.Unlock()
		n.checkLog()
		return
	}
	if seq != n.last+1 {
		// entries this node never applied are gone: its world is no longer
		// the others'; it stops, and starts again from a snapshot
		n.broken = fmt.Errorf("cluster: log entries %d to %d are gone before this node applied them; restart it", n.last+1, seq-1)
		n.mu.Unlock()
		n.Fail(n.broken)
		return
	}
	n.ents = append(n.ents, server.LogEntry{Seq: seq, Data: m.Data()})
	n.keep(tailEntry{seq: seq, data: m.Data(), id: m.Headers().Get(jetstream.MsgIDHeader)})
	n.last = seq
	n.stats.delivered.Store(seq)
	wake := n.wake
	n.mu.Unlock()
	if seq >= n.target {
		n.caught.Store(true)
	}
	wake()
}

// Incarnation implements server.Log.
func (n *Node) Incarnation() uint32 { return n.inc.Load() }

// Renew implements server.Log.
func (n *Node) Renew() (uint32, error) {
	ctx, cancel := context.WithTimeout(n.ctx, 10*time.Second)
	defer cancel()
	inc, err := n.newIncarnation(ctx)
	if err != nil {
		return 0, err
	}
	n.inc.Store(inc)
	n.poke()
	return inc, nil
}

// Notify implements server.Log.
func (n *Node) Notify(wake func()) {
	n.mu.Lock()
	n.wake = wake
	n.mu.Unlock()
	wake()
}

// Append implements server.Log.
func (n *Node) Append(batch []byte) {
	n.mu.Lock()
	if n.queued+len(batch) > maxQueued {
		n.dropped++
		n.stats.dropped.Add(1)
		if n.dropped == 1 {
			n.log.Error("cut off from NATS too long: dropping inputs")
		}
		n.mu.Unlock()
		return
	}
	n.queue = append(n.queue, slices.Clone(batch)) // the engine reuses batch
	n.queued += len(batch)
	n.mu.Unlock()
	n.poke()
}

func (n *Node) poke() {
	select {
	case n.kick <- struct{}{}:
	default:
	}
}

// Take implements server.Log.
func (n *Node) Take(buf []server.LogEntry) []server.LogEntry {
	n.mu.Lock()
	buf = append(buf, n.ents...)
	clear(n.ents)
	n.ents = n.ents[:0]
	n.mu.Unlock()
	return buf
}

// Leader implements server.Log.
func (n *Node) Leader() bool { return n.leader.Load() && n.nc.IsConnected() }

// Alive implements server.Log: a node is alive when its heartbeat was seen
// within NodeTTL. Nobody is judged while this node cannot see its own
// heartbeats (its link or its watch is failing: the silence may be its
// own), and an incarnation first asked about gets NodeTTL to be heard.
func (n *Node) Alive(inc uint32) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	now := time.Now()
	own, ok := n.seen[n.inc.Load()]
	if now.Sub(n.since) < n.cfg.NodeTTL || !ok || now.Sub(own) >= n.cfg.NodeTTL {
		return true
	}
	t, ok := n.seen[inc]
	if !ok {
		n.seen[inc] = now
		return true
	}
	return now.Sub(t) < n.cfg.NodeTTL
}

// Claim implements server.Log. The claim names this node: a claim stored
// whose answer was lost (the link died after NATS wrote it) is found to be
// this node's when asked again, not another's, so the game is not left
// unwritten by everyone. (A node of the same name started again may so
// write a game twice; the store keeps a game once, by its seed.)
func (n *Node) Claim(ctx context.Context, key string) (bool, error) {
	me := []byte(n.cfg.Node)
	_, err := n.claims.Create(ctx, "g."+key, me)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, jetstream.ErrKeyExists):
		e, err := n.claims.Get(ctx, "g."+key)
		if err != nil {
			return false, fmt.Errorf("reading the claim on record %s: %w", key, err)
		}
		return string(e.Value()) == string(me), nil
	}
	return false, fmt.Errorf("claiming record %s: %w", key, err)
}

// Sync implements server.Log.
func (n *Node) Sync(ctx context.Context) error {
	if n.nc.IsClosed() {
		return fmt.Errorf("%w: connection closed", ErrNoNATS)
	}
	done := make(chan struct{})
	go func() {
		n.mu.Lock()
		for (len(n.queue) > 0 || n.pending > 0) && ctx.Err() == nil && n.untrusted == nil {
			n.synced.Wait()
		}
		n.mu.Unlock()
		close(done)
	}()
	select {
	case <-done:
		n.mu.Lock()
		defer n.mu.Unlock()
		return n.untrusted // nothing more goes into a log this node does not trust
	case <-ctx.Done():
		n.mu.Lock()
		n.synced.Broadcast()
		n.mu.Unlock()
		<-done
		return ctx.Err()
	}
}

// Ready reports whether the node serves the world: linked to NATS, caught
// up with the log as it was when the node joined, and that log the one it
// applied.
func (n *Node) Ready() error {
	switch {
	case !n.nc.IsConnected():
		return fmt.Errorf("%w: link down (%s)", ErrNoNATS, n.nc.Status())
	case !n.caught.Load():
		return errors.New("cluster: replaying the log")
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	switch {
	case n.untrusted != nil:
		return n.untrusted
	case n.broken != nil:
		return n.broken
	case n.nc.Stats().Reconnects != n.vrc:
		return errors.New("cluster: checking the log after the NATS link came back")
	}
	return nil
}

// Fail implements server.Log: the node cannot go on (Errors says so).
func (n *Node) Fail(err error) {
	n.mu.Lock()
	if n.broken == nil {
		n.broken = err
	}
	n.mu.Unlock()
	select {
	case n.fatal <- err:
	default:
	}
}

// Errors delivers what stops the node from serving the world (the daemon
// exits, to be started again).
func (n *Node) Errors() <-chan error { return n.fatal }

// Snapshot implements server.Log: the snapshot this node started from.
func (n *Node) Snapshot() (uint64, []byte) {
	n.mu.Lock()
	defer n.mu.Unlock()
	seq, data := n.snapSeq, n.snapData
	n.snapData = nil // given once
	return seq, data
}

// SnapshotEvery implements server.Log.
func (n *Node) SnapshotEvery() uint64 {
	if n.cfg.SnapshotEvery < 0 {
		return 0
	}
	return uint64(n.cfg.SnapshotEvery)
}

// SaveSnapshot implements server.Log: it stores the world as of entry seq
// and drops the log up to the previous snapshot (or what a node still
// reading it needs), off the caller's goroutine. A snapshot still being
// saved makes this one be skipped.
func (n *Node) SaveSnapshot(seq uint64, data []byte) {
	if !n.saving.CompareAndSwap(false, true) {
		return
	}
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		defer n.saving.Store(false)
		ctx, cancel := context.WithTimeout(n.ctx, 30*time.Second)
		defer cancel()
		obj := make([]byte, 8, 8+len(data))
		binary.BigEndian.PutUint64(obj, seq)
		if _, err := n.snaps.PutBytes(ctx, "latest", append(obj, data...)); err != nil {
			n.log.Warn("saving a snapshot failed", zap.Uint64("seq", seq), zap.Error(err))
			return
		}
		n.mu.Lock()
		bound := n.prevSnap
		n.prevSnap = seq
		now := time.Now()
		for inc, p := range n.pos {
			if t, ok := n.seen[inc]; ok && now.Sub(t) < n.cfg.NodeTTL && p < bound {
				bound = p // a live node still reads there
			}
		}
		n.mu.Unlock()
		if bound == 0 {
			return
		}
		if err := n.stream.Purge(ctx, jetstream.WithPurgeSequence(bound+1)); err != nil {
			n.log.Warn("dropping the log before a snapshot failed", zap.Uint64("seq", bound), zap.Error(err))
			return
		}
		n.log.Info("saved a snapshot of the world", zap.Uint64("seq", seq), zap.Int("bytes", len(data)), zap.Uint64("log_dropped_through", bound))
	}()
}

// Stats are the node's counters, for metrics.
type Stats struct {
	Leader      bool          // holds the leader lease
	Connected   bool          // the NATS link is up
	Appends     uint64        // messages appended to the log (each a group of batches)
	AppendTime  time.Duration // the time those appends took, from first try to the stream's ack
	Retries     uint64        // appends tried again after a failure
	Dropped     uint64        // batches dropped while cut off (over 64 MiB waiting)
	Delivered   uint64        // the log sequence delivered last
	Incarnation uint32
	Untrusted   bool   // the log is not the one this node applied: it serves nothing more
	Rollbacks   uint64 // times the log was found to end before what this node applied
	Restored    uint64 // entries this node put back into a log that had lost them
}

// Stats returns the node's counters.
func (n *Node) Stats() Stats {
	return Stats{Leader: n.Leader(), Connected: n.nc.IsConnected(), Appends: n.stats.appends.Load(),
		AppendTime: time.Duration(n.stats.appendNanos.Load()), Retries: n.stats.retries.Load(), Dropped: n.stats.dropped.Load(),
		Delivered: n.stats.delivered.Load(), Incarnation: n.inc.Load(), Untrusted: n.isUntrusted(),
		Rollbacks: n.stats.rollbacks.Load(), Restored: n.stats.restored.Load()}
}

func (n *Node) isUntrusted() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.untrusted != nil
}

// Name is this node's name.
func (n *Node) Name() string { return n.cfg.Node }

// Close stops the node's part in the cluster: it withdraws its heartbeat and
// lease and disconnects. The server's Shutdown (which says goodbye in the
// log) comes first.
func (n *Node) Close() error {
	n.closing.Store(true)
	n.cancel()
	n.mu.Lock()
	n.synced.Broadcast()
	n.mu.Unlock()
	n.wg.Wait()
	n.mu.Lock()
	cons := n.cons
	n.mu.Unlock()
	if cons != nil {
		cons.Stop()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if n.leader.Load() {
		n.lease.Delete(ctx, "leader")
	}
	n.nodes.Delete(ctx, "n"+strconv.FormatUint(uint64(n.inc.Load()), 10))
	n.nc.Close()
	select { // the link's callbacks run on a goroutine of its own: let them finish
	case <-n.linkClosed:
	case <-ctx.Done():
	}
	return nil
}

// publisher appends queued batches to the stream in order: all that waited
// go as one message (group commit), retried with the same message id until
// the stream takes it, so a batch is never lost, doubled or reordered.
func (n *Node) publisher() {
	defer n.wg.Done()
	var seq uint64
	for {
		select {
		case <-n.kick:
		case <-n.ctx.Done():
			return
		}
		for {
			n.mu.Lock()
			q := n.queue
			n.queue, n.queued, n.pending = nil, 0, len(q)
			n.mu.Unlock()
			if len(q) == 0 {
				break
			}
			size := 0
			for _, b := range q {
				size += len(b) + 5
			}
			msg := make([]byte, 0, size)
			for _, b := range q {
				msg = appendUvarint(msg, uint64(len(b)))
				msg = append(msg, b...)
			}
			seq++
			id := fmt.Sprintf("%d.%d", n.inc.Load(), seq)
			t0 := time.Now()
			for wait := 50 * time.Millisecond; ; wait = min(2*wait, time.Second) {
				if !n.awaitTrust() {
					return // closing
				}
				ctx, cancel := context.WithTimeout(n.ctx, 5*time.Second)
				_, err := n.js.Publish(ctx, n.subj, msg, jetstream.WithMsgID(id))
				cancel()
				if err == nil {
					break
				}
				if n.ctx.Err() != nil {
					return
				}
				n.stats.retries.Add(1)
				n.log.Warn("appending to the log failed; retrying", zap.Error(err))
				select {
				case <-time.After(wait):
				case <-n.ctx.Done():
					return
				}
			}
			n.stats.appends.Add(1)
			n.stats.appendNanos.Add(uint64(time.Since(t0)))
			n.mu.Lock()
			n.pending = 0
			n.synced.Broadcast()
			n.mu.Unlock()
		}
	}
}

func appendUvarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// heartbeats says this node is alive, watches the others, and holds or
// seeks the leader lease.
func (n *Node) heartbeats() {
	defer n.wg.Done()
	w, err := n.nodes.WatchAll(n.ctx)
	for err != nil {
		n.log.Warn("watching heartbeats failed; retrying", zap.Error(err))
		select {
		case <-time.After(n.cfg.Heartbeat):
		case <-n.ctx.Done():
			return
		}
		w, err = n.nodes.WatchAll(n.ctx)
	}
	defer w.Stop()
	n.mu.Lock()
	n.since = time.Now()
	n.mu.Unlock()
	t := time.NewTicker(n.cfg.Heartbeat)
	defer t.Stop()
	var leaseRev uint64
	beat := func() {
		ctx, cancel := context.WithTimeout(n.ctx, n.cfg.Heartbeat)
		defer cancel()
		n.mu.Lock()
		beat := n.cfg.Node + " " + strconv.FormatUint(n.last, 10)
		n.mu.Unlock()
		if n.isUntrusted() {
			return // its position is of a log the world no longer has
		}
		if _, err := n.nodes.Put(ctx, "n"+strconv.FormatUint(uint64(n.inc.Load()), 10), []byte(beat)); err != nil {
			n.log.Debug("heartbeat failed", zap.Error(err))
		}
		if !n.caught.Load() {
			return // a node still replaying the log leads nothing
		}
		var rev uint64
		if n.leader.Load() {
			rev, err = n.lease.Update(ctx, "leader", []byte(n.cfg.Node), leaseRev)
		} else {
			rev, err = n.lease.Create(ctx, "leader", []byte(n.cfg.Node))
		}
		if err != nil {
			if n.leader.Swap(false) {
				n.log.Warn("lost the leader lease", zap.Error(err))
			}
			return
		}
		leaseRev = rev
		if !n.leader.Swap(true) {
			n.log.Info("took the leader lease")
		}
	}
	beat()
	for {
		select {
		case <-n.ctx.Done():
			return
		case <-t.C:
			beat()
		case e, ok := <-w.Updates():
			if !ok {
				return
			}
			if e == nil || e.Operation() != jetstream.KeyValuePut {
				continue
			}
			inc, err := strconv.ParseUint(e.Key()[1:], 10, 32)
			if err != nil {
				continue
			}
			n.mu.Lock()
			n.seen[uint32(inc)] = time.Now()
			if i := strings.LastIndexByte(string(e.Value()), ' '); i >= 0 {
				if p, err := strconv.ParseUint(string(e.Value()[i+1:]), 10, 64); err == nil {
					n.pos[uint32(inc)] = p
				}
			}
			n.mu.Unlock()
		}
	}
}

// Reset deletes world w's stream and buckets: a fresh world (tests, and
// operators starting over with every node stopped).
func Reset(ctx context.Context, nc *nats.Conn, w string) error {
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	var errs []error
	if err := js.DeleteStream(ctx, StreamName(w)); err != nil && !errors.Is(err, jetstream.ErrStreamNotFound) {
		errs = append(errs, err)
	}
	for _, b := range BucketNames(w) {
		if err := js.DeleteKeyValue(ctx, b); err != nil && !errors.Is(err, jetstream.ErrBucketNotFound) {
			errs = append(errs, err)
		}
	}
	if err := js.DeleteObjectStore(ctx, SnapshotBucket(w)); err != nil && !errors.Is(err, jetstream.ErrStreamNotFound) && !errors.Is(err, jetstream.ErrBucketNotFound) {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
