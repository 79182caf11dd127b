package main

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/bomber-game/bomber/cluster"
	"github.com/bomber-game/bomber/cmd/internal/cli"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/statemachine"
)

// metrics is bomberd's Prometheus registry. Event counters come from the
// engine through server.Observer (called on its goroutine; prometheus
// counters are cheap atomics); the hub's own counters and the sessions by
// state are read at scrape time. No metric has a per-user label.
type metrics struct {
	reg         *prometheus.Registry
	conns       prometheus.Gauge
	accepted    prometheus.Counter
	closed      *prometheus.CounterVec
	rejected    *prometheus.CounterVec
	acceptErrs  *prometheus.CounterVec
	protoErrors *prometheus.CounterVec
	loop        prometheus.Histogram
	store       *prometheus.HistogramVec
	bots        *prometheus.HistogramVec
	rated       *prometheus.CounterVec
	applied     [2]prometheus.Counter // inputs the hub applied: for the world, for one table
}

func newMetrics() *metrics {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m := &metrics{
		reg:      reg,
		conns:    prometheus.NewGauge(prometheus.GaugeOpts{Name: "bomber_connections", Help: "Open connections."}),
		accepted: prometheus.NewCounter(prometheus.CounterOpts{Name: "bomber_connections_accepted_total", Help: "Connections accepted."}),
		closed:   prometheus.NewCounterVec(prometheus.CounterOpts{Name: "bomber_connections_closed_total", Help: "Connections closed, by reason."}, []string{"reason"}),
		rejected: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "bomber_connections_rejected_total", Help: "Connections refused at accept, by limit."}, []string{"limit"}),
		acceptErrs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "bomber_accept_errors_total",
			Help: "Accepts that failed, by reason (emfile, enfile: out of descriptors; accepting pauses briefly)."}, []string{"reason"}),
		protoErrors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "bomber_protocol_errors_total", Help: "Protocol errors, by reason."}, []string{"reason"}),
		loop: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "bomber_loop_seconds", Help: "Time the engine loop spends on one batch of events.",
			Buckets: roundBuckets(prometheus.ExponentialBuckets(1e-6, 4, 12))}),
		store: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "bomber_account_store_seconds", Help: "Account check latency (hashing and database), by check and answer.",
			Buckets: roundBuckets(prometheus.ExponentialBuckets(1e-4, 3, 12))}, []string{"check", "answer"}),
	}
	for _, r := range []server.CloseReason{server.ReasonPeer, server.ReasonServer, server.ReasonProtocol, server.ReasonBacklog, server.ReasonOutputMemory, server.ReasonSegmentTimeout, server.ReasonShutdown} {
		m.closed.WithLabelValues(string(r))
	}
	for _, r := range []string{server.AcceptEMFILE, server.AcceptENFILE, server.AcceptNoMem, server.AcceptOther} {
		m.acceptErrs.WithLabelValues(r)
	}
	m.bots = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "bomber_bot_move_seconds", Help: "Time a computer player took for a move, by game and whether it answered in its budget.",
		Buckets: prometheus.ExponentialBuckets(1e-4, 3, 10)}, []string{"game", "ok"})
	m.rated = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "bomber_rated_games_recorded_total",
		Help: "Rated games with a result stored, by game (each updated its players' ratings)."}, []string{"game"})
	inputs := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "bomber_inputs_applied_total",
		Help: "Inputs this node's state machine applied from the log, by scope: a table's (moves, offers, seats, its chat, computer moves) or the world's (connections, logins, lobby, ticks). In a cluster every node applies every input."}, []string{"scope"})
	m.applied = [2]prometheus.Counter{inputs.WithLabelValues("world"), inputs.WithLabelValues("table")}
	reg.MustRegister(inputs)
	reg.MustRegister(m.conns, m.accepted, m.closed, m.rejected, m.acceptErrs, m.protoErrors, m.loop, m.store, m.bots, m.rated)
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "bomber_build_info", Help: "Build information (always 1).",
		ConstLabels: prometheus.Labels{"version": cli.Version()}}, func() float64 { return 1 }))
	return m
}

// roundBuckets rounds bucket bounds to 6 significant digits: repeated
// multiplication leaves float noise (le="4.0000000000000003e-06") in the
// exposition's labels.
func roundBuckets(b []float64) []float64 {
	for i, v := range b {
		b[i], _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
	}
	return b
}

func (m *metrics) ConnOpened() { m.conns.Inc(); m.accepted.Inc() }
func (m *metrics) ConnClosed(r server.CloseReason) {
	m.conns.Dec()
	m.closed.WithLabelValues(string(r)).Inc()
}
func (m *metrics) ConnRejected(limit string)   { m.rejected.WithLabelValues(limit).Inc() }
func (m *metrics) AcceptFailed(reason string)  { m.acceptErrs.WithLabelValues(reason).Inc() }
func (m *metrics) ProtocolError(reason string) { m.protoErrors.WithLabelValues(reason).Inc() }
func (m *metrics) LoopLatency(d time.Duration) { m.loop.Observe(d.Seconds()) }
func (m *metrics) InputApplied(table bool) {
	if table {
		m.applied[1].Inc()
	} else {
		m.applied[0].Inc()
	}
}
func (m *metrics) BotMove(game string, d time.Duration, ok bool) {
	m.bots.WithLabelValues(game, strconv.FormatBool(ok)).Observe(d.Seconds())
}
func (m *metrics) CheckLatency(k statemachine.CheckKind, d time.Duration, a statemachine.Answer) {
	m.store.WithLabelValues(k.String(), answerLabel.Replace(a.String())).Observe(d.Seconds())
}

// answerLabel makes an answer's name a label value ("wrong password" is
// wrong_password, "sign-up closed" signup_closed). It is built once: a
// replacer made for each check built its 6.7 KB table each time: 29% of
// the account workers' CPU samples in a login storm.
var answerLabel = strings.NewReplacer(" ", "_", "-", "")

// hubCollector reads the hub's counters and the sessions by state at scrape
// time, through the engine loop.
type hubCollector struct {
	tr       func() server.Transport
	logins   *prometheus.Desc
	sessions *prometheus.Desc
	started  *prometheus.Desc
	ignored  *prometheus.Desc
	refused  *prometheus.Desc
	kicks    *prometheus.Desc
	throttle *prometheus.Desc
	segIn    *prometheus.Desc
	segOut   *prometheus.Desc
	ended    *prometheus.Desc
	pools    *prometheus.Desc
	pairWait *prometheus.Desc
	pairing  *prometheus.Desc
}

func newHubCollector(tr func() server.Transport) *hubCollector {
	return &hubCollector{
		tr:       tr,
		logins:   prometheus.NewDesc("bomber_logins_total", "Login attempts, by result.", []string{"result"}, nil),
		sessions: prometheus.NewDesc("bomber_sessions", "Connections by state.", []string{"state"}, nil),
		started:  prometheus.NewDesc("bomber_games_started_total", "Games started (invitation accepted).", nil, nil),
		ignored:  prometheus.NewDesc("bomber_segments_ignored_total", "Well-formed segments that meant nothing in their state.", nil, nil),
		refused:  prometheus.NewDesc("bomber_seat_changes_refused_total", "Seat changes a seat's life forbids, refused: a bug in the hub (the log says which).", nil, nil),
		kicks:    prometheus.NewDesc("bomber_kicks_total", "Sessions replaced by a newer login of the same user.", nil, nil),
		throttle: prometheus.NewDesc("bomber_login_throttled_total", "Logins refused by throttling.", nil, nil),
		segIn:    prometheus.NewDesc("bomber_segments_in_total", "Segments received, by type.", []string{"type"}, nil),
		segOut:   prometheus.NewDesc("bomber_segments_out_total", "Segments sent, by type.", []string{"type"}, nil),
		ended:    prometheus.NewDesc("bomber_games_finished_total", "Games ended, by reason.", []string{"reason"}, nil),
		pools:    prometheus.NewDesc("bomber_pairing_waiting", "Players waiting to be paired (Play now), by game.", []string{"game"}, nil),
		pairWait: prometheus.NewDesc("bomber_pairing_wait_seconds", "How long paired players (or those who took the computer) waited.", nil, nil),
		pairing:  prometheus.NewDesc("bomber_pairing_total", "Quick pairing: seeks, seeks cancelled, pairs made, computers offered and computer games taken.", []string{"event"}, nil),
	}
}

func (c *hubCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.logins
	ch <- c.sessions
	ch <- c.started
	ch <- c.ignored
	ch <- c.refused
	ch <- c.kicks
	ch <- c.throttle
	ch <- c.segIn
	ch <- c.segOut
	ch <- c.ended
	ch <- c.pools
	ch <- c.pairWait
	ch <- c.pairing
}

func (c *hubCollector) Collect(ch chan<- prometheus.Metric) {
	tr := c.tr()
	if tr == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	st, err := tr.Stats(ctx)
	if err != nil {
		return
	}
	ch <- prometheus.MustNewConstMetric(c.logins, prometheus.CounterValue, float64(st.LoginsOK), "ok")
	ch <- prometheus.MustNewConstMetric(c.logins, prometheus.CounterValue, float64(st.LoginsFailed), "failed")
	ch <- prometheus.MustNewConstMetric(c.logins, prometheus.CounterValue, float64(st.LoginsError), "error")
	ch <- prometheus.MustNewConstMetric(c.started, prometheus.CounterValue, float64(st.GamesStarted))
	ch <- prometheus.MustNewConstMetric(c.ignored, prometheus.CounterValue, float64(st.Ignored))
	ch <- prometheus.MustNewConstMetric(c.refused, prometheus.CounterValue, float64(st.SeatsRefused))
	ch <- prometheus.MustNewConstMetric(c.kicks, prometheus.CounterValue, float64(st.Kicks))
	ch <- prometheus.MustNewConstMetric(c.throttle, prometheus.CounterValue, float64(st.Throttled))
	for t := segment.Type(0); t < segment.Type(len(st.SegmentsIn)); t++ {
		if t.Known() || t.KnownExtended() {
			ch <- prometheus.MustNewConstMetric(c.segIn, prometheus.CounterValue, float64(st.SegmentsIn[t]), t.String())
			ch <- prometheus.MustNewConstMetric(c.segOut, prometheus.CounterValue, float64(st.SegmentsOut[t]), t.String())
		}
	}
	for i, r := range record.Reasons {
		ch <- prometheus.MustNewConstMetric(c.ended, prometheus.CounterValue, float64(st.GamesEnded[i]), r.String())
	}
	c.collectPairing(ctx, ch, tr, &st)
	by, err := tr.CountStates(ctx)
	if err != nil {
		return
	}
	for st := range statemachine.NumStates {
		ch <- prometheus.MustNewConstMetric(c.sessions, prometheus.GaugeValue, float64(by[st]), statemachine.State(st).String())
	}
}

// registerMetrics serves /metrics on the admin mux.
func (d *daemonState) registerMetrics(mux *http.ServeMux) {
	if d.metrics == nil {
		return
	}
	d.metrics.reg.MustRegister(newHubCollector(func() server.Transport { return d.tr }))
	mux.Handle("GET /metrics", promhttp.HandlerFor(d.metrics.reg, promhttp.HandlerOpts{Registry: d.metrics.reg}))
}

// cluster exports a clustered node's state and its appends to the log.
func (m *metrics) cluster(n *cluster.Node) {
	b := func(v bool) float64 {
		if v {
			return 1
		}
		return 0
	}
	m.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "bomber_cluster_leader", Help: "1 while this node holds the leader lease (ticks, records, declaring nodes gone)."},
			func() float64 { return b(n.Stats().Leader) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "bomber_cluster_nats_connected", Help: "1 while the NATS link is up."},
			func() float64 { return b(n.Stats().Connected) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "bomber_cluster_log_delivered_sequence", Help: "The shared log's sequence number this node has been delivered up to."},
			func() float64 { return float64(n.Stats().Delivered) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "bomber_cluster_appends_total", Help: "Messages this node appended to the shared log (each a group of input batches)."},
			func() float64 { return float64(n.Stats().Appends) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "bomber_cluster_append_seconds_total", Help: "Time those appends took, until the stream's acknowledgement."},
			func() float64 { return n.Stats().AppendTime.Seconds() }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "bomber_cluster_append_retries_total", Help: "Appends tried again after a failure (NATS unreachable)."},
			func() float64 { return float64(n.Stats().Retries) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "bomber_cluster_dropped_batches_total", Help: "Input batches dropped while cut off from NATS for too long."},
			func() float64 { return float64(n.Stats().Dropped) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "bomber_cluster_log_untrusted", Help: "1 once the shared log is not the one this node applied (forked, made again, or missing more than the node keeps): it serves nothing more and exits."},
			func() float64 { return b(n.Stats().Untrusted) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "bomber_cluster_log_rollbacks_total", Help: "Times the shared log was found to end before entries this node applied (NATS started on an older store)."},
			func() float64 { return float64(n.Stats().Rollbacks) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "bomber_cluster_log_restored_entries_total", Help: "Entries this node put back into a shared log that had lost them."},
			func() float64 { return float64(n.Stats().Restored) }),
	)
}

// collectPairing reports the pairing pools' sizes by game (every game of
// the catalogue, 0 when nobody waits), the waits of paired players and the
// pairing counters.
func (c *hubCollector) collectPairing(ctx context.Context, ch chan<- prometheus.Metric, tr server.Transport, st *statemachine.Stats) {
	for _, ev := range []struct {
		name string
		n    uint64
	}{{"seek", st.Pairing.Seeks}, {"cancelled", st.Pairing.SeeksCancelled}, {"paired", st.Pairing.Pairings}, {"computer_offered", st.Pairing.ComputerOffers}, {"computer_game", st.Pairing.ComputerGames}} {
		ch <- prometheus.MustNewConstMetric(c.pairing, prometheus.CounterValue, float64(ev.n), ev.name)
	}
	buckets := map[float64]uint64{}
	var n uint64
	for i, b := range statemachine.PairWaitBounds() {
		n += st.Pairing.PairWaits[i]
		buckets[float64(b)] = n
	}
	n += st.Pairing.PairWaits[len(st.Pairing.PairWaits)-1]
	// the sum is not kept: the buckets are what a wait's quantiles need
	ch <- prometheus.MustNewConstHistogram(c.pairWait, n, 0, buckets)
	pools, err := tr.Pools(ctx)
	if err != nil {
		return
	}
	waiting := map[string]int{}
	for _, e := range statemachine.Catalogue() {
		waiting[e.Spec.Name] = 0
	}
	for _, p := range pools {
		waiting[p.Game] += p.Waiting
	}
	for g, w := range waiting {
		ch <- prometheus.MustNewConstMetric(c.pools, prometheus.GaugeValue, float64(w), g)
	}
}
