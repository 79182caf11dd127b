package capture

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/capture/mask"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/segment/transcript"
	"github.com/bomber-game/bomber/statemachine"
)

// Config says where and how much to capture.
type Config struct {
	Dir           string   // directory for capture files; created when missing
	ShowPasswords bool     // write passwords as sent instead of masking them
	MaxFileBytes  int64    // rotate before a file grows past this; 0: 64 MiB (at least 4 KiB)
	MaxFiles      int      // capture files kept in Dir, oldest deleted first; 0: 20
	MaxPending    int      // bytes queued for the writer before lines are dropped; 0: 4 MiB
	Header        []string // narration at the top of every file, e.g. "config: login-timeout=30s"
}

// Defaults of Config.
const (
	DefaultMaxFileBytes = 64 << 20
	DefaultMaxFiles     = 20
	DefaultMaxPending   = 4 << 20
	minFileBytes        = 4 << 10
)

// ErrConfig: the configuration cannot work.
var ErrConfig = errors.New("capture: bad configuration")

// filePrefix and fileSuffix bracket every capture file's name, so pruning
// never touches anything else in Dir.
const (
	filePrefix = "capture-"
	fileSuffix = ".txt"
)

type connState struct {
	name string
	mask mask.Masker
	dec  segment.Decoder // follows the (masked) input for comments
}

// chunk is queued output: bytes for the current file, or the start of a new
// file when name is set.
type chunk struct {
	name string
	data []byte
}

// Capture writes every connection's traffic to rotated transcript files. It
// implements server.Tap (the daemon's wiring checks it); see the package
// comment.
type Capture struct {
	cfg Config
	clk Clock
	log *zap.Logger

	// engine goroutine only
	conns     map[statemachine.ConnID]*connState
	file      string // the current file's name
	fileStart time.Time
	fileBytes int64
	seq       int
	dropped   int

	// shared with the writer
	mu      sync.Mutex
	cond    *sync.Cond
	queue   []chunk
	pending int
	closing bool
	done    chan struct{}
	once    sync.Once
	w       writer
}

// New starts a capture into cfg.Dir; the first file is created at once.
// Close it after the daemon's transport has shut down.
func New(cfg Config, clock Clock, logger *zap.Logger) (*Capture, error) {
	if cfg.Dir == "" {
		return nil, fmt.Errorf("%w: no directory", ErrConfig)
	}
	if cfg.MaxFileBytes <= 0 {
		cfg.MaxFileBytes = DefaultMaxFileBytes
	}
	cfg.MaxFileBytes = max(cfg.MaxFileBytes, minFileBytes)
	if cfg.MaxFiles <= 0 {
		cfg.MaxFiles = DefaultMaxFiles
	}
	if cfg.MaxPending <= 0 {
		cfg.MaxPending = DefaultMaxPending
	}
	if clock == nil {
		clock = systemClock{}
	}
	if logger == nil {
		logger = zap.NewNop()
	}
	if err := os.MkdirAll(cfg.Dir, 0o750); err != nil {
		return nil, fmt.Errorf("capture: %w", err)
	}
	c := &Capture{
		cfg:   cfg,
		clk:   clock,
		log:   logger,
		conns: make(map[statemachine.ConnID]*connState),
		done:  make(chan struct{}),
		w:     writer{dir: cfg.Dir, keep: cfg.MaxFiles, log: logger},
	}
	c.cond = sync.NewCond(&c.mu)
	c.rotate(clock.Now())
	go c.run()
	return c, nil
}

// Opened records a new connection and where it came from.
func (c *Capture) Opened(id statemachine.ConnID, remote string) {
	cs := &connState{name: fmt.Sprintf("c%d", id)}
	c.conns[id] = cs
	e := transcript.Entry{Conn: cs.name, Op: transcript.Open, Comment: "from " + remote}
	c.emit(e, "")
}

// In records bytes from a client exactly as they were read.
func (c *Capture) In(id statemachine.ConnID, data []byte) {
	cs := c.conns[id]
	if cs == nil || len(data) == 0 {
		return
	}
	if !c.cfg.ShowPasswords {
		data = cs.mask.Mask(make([]byte, 0, len(data)), data)
	} else {
		data = append([]byte(nil), data...)
	}
	// a huge read is written on several lines, each well within what a
	// transcript reader takes
	for len(data) > 0 {
		n := min(len(data), maxLine)
		comment := transcript.DescribeStream(&cs.dec, data[:n], c.cfg.ShowPasswords)
		c.emit(transcript.Entry{Conn: cs.name, Op: transcript.Send, Data: data[:n]}, comment)
		data = data[n:]
	}
}

// maxLine is the most bytes one '>' line holds.
const maxLine = 1024

// Out records one segment queued for a client.
func (c *Capture) Out(id statemachine.ConnID, seg segment.Segment) {
	if cs := c.conns[id]; cs != nil {
		c.emit(transcript.Entry{Conn: cs.name, Op: transcript.Recv, Data: seg.AppendTo(nil)}, "")
	}
}

// Input records one of the hub's inputs as the hub got it ("in" lines: its
// wire form, its time the engine's), so the capture replays exactly in
// process: account answers, computer players' moves, ticks and seeds are
// inputs too. A computer player's move is also written as a bot line, for
// replays against a running daemon (replay.BotOracle); an answer without a
// move (the pool's word that a bot over its budget finished, which the hub
// ignores) has none, since a bot line needs a move. Passwords never reach
// the hub (the shell gives it a stand-in), so "in" lines hold none.
func (c *Capture) Input(at int64, in *statemachine.Input) {
	if a := in.Bot; in.Kind == statemachine.InBot && a.Move != "" {
		c.emit(transcript.Entry{Op: transcript.Bot, Bot: transcript.BotMove{Table: a.Table, Seat: int8(a.Seat), Seq: a.Seq, Move: a.Move}}, "")
	}
	c.emit(transcript.Entry{Op: transcript.Input, Data: statemachine.AppendInput(nil, at, in), Comment: describeInput(in)}, "")
}

// describeInput is an "in" line's comment.
func describeInput(in *statemachine.Input) string {
	switch in.Kind {
	case statemachine.InOpen:
		return fmt.Sprintf("open c%d from %s", in.Conn, in.Text)
	case statemachine.InReceive:
		return fmt.Sprintf("receive c%d: %s", in.Conn, transcript.Describe(in.Seg.AppendTo(nil), false))
	case statemachine.InClosed:
		return fmt.Sprintf("closed c%d", in.Conn)
	case statemachine.InAnswer:
		return fmt.Sprintf("answer check %d: %s", in.Check, in.Answer)
	case statemachine.InBot:
		return fmt.Sprintf("bot table %d seat %d update %d: %q", in.Bot.Table, in.Bot.Seat, in.Bot.Seq, in.Bot.Move)
	case statemachine.InKick, statemachine.InConfig:
		return fmt.Sprintf("%s %q", in.Kind, in.Text)
	case statemachine.InGone:
		return fmt.Sprintf("gone: node %d", in.Node)
	case statemachine.InTableTick:
		return fmt.Sprintf("table tick: table %d", in.Table)
	}
	return in.Kind.String()
}

// Closed records the end of a connection: "closed" when the server ended
// it, "close" when the client did.
func (c *Capture) Closed(id statemachine.ConnID, byServer bool) {
	cs := c.conns[id]
	if cs == nil {
		return
	}
	delete(c.conns, id)
	op := transcript.Close
	if byServer {
		op = transcript.Closed
	}
	c.emit(transcript.Entry{Conn: cs.name, Op: op}, "")
}

// Close writes out everything queued, closes the current file and stops
// the writer. Later Tap calls are ignored.
func (c *Capture) Close() error {
	c.once.Do(func() {
		c.mu.Lock()
		c.closing = true
		c.cond.Signal()
		c.mu.Unlock()
		<-c.done
	})
	return c.w.err
}

// emit formats e with a time stamp in the current file and queues it,
// rotating first when the line would take the file past its bound.
func (c *Capture) emit(e transcript.Entry, comment string) {
	now := c.clk.Now()
	line := c.format(now, e, comment)
	if c.fileBytes+int64(len(line)) > c.cfg.MaxFileBytes {
		c.rotate(now)
		line = c.format(now, e, comment)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return
	}
	if c.pending+len(line) > c.cfg.MaxPending {
		c.dropped++
		return
	}
	if c.dropped > 0 {
		note := fmt.Sprintf("# capture: %d lines dropped here because the disk fell behind\n", c.dropped)
		c.dropped = 0
		c.appendLocked(note)
	}
	c.appendLocked(line)
	c.fileBytes += int64(len(line))
}

func (c *Capture) appendLocked(s string) {
	if len(c.queue) == 0 {
		c.queue = append(c.queue, chunk{}) // more for the writer's current file
	}
	last := &c.queue[len(c.queue)-1]
	last.data = append(last.data, s...)
	c.pending += len(s)
	c.cond.Signal()
}

func (c *Capture) format(now time.Time, e transcript.Entry, comment string) string {
	e.At = max(now.Sub(c.fileStart), 0)
	s := e.Format(c.cfg.ShowPasswords)
	if e.Op == transcript.Send {
		body, _, _ := strings.Cut(s, "  #")
		s = body
		if comment != "" {
			s += "  # " + comment
		}
	}
	return s + "\n"
}

// rotate queues the start of a new file with its narration header.
func (c *Capture) rotate(now time.Time) {
	c.seq++
	name := fmt.Sprintf("%s%s-%04d%s", filePrefix, now.UTC().Format("20060102T150405.000000Z"), c.seq, fileSuffix)
	var h strings.Builder
	fmt.Fprintf(&h, "# Bomber capture %s, started %s; t= is seconds since then.\n", name, now.UTC().Format(time.RFC3339Nano))
	for _, l := range c.cfg.Header {
		h.WriteString("# " + l + "\n")
	}
	if c.file != "" {
		// the hub's state at this point comes from the inputs before it
		fmt.Fprintf(&h, "# capture: continues %s; replay the files together, concatenated in name order\n", c.file)
	}
	if len(c.conns) > 0 {
		ids := make([]statemachine.ConnID, 0, len(c.conns))
		for id := range c.conns {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		names := make([]string, len(ids))
		for i, id := range ids {
			names[i] = c.conns[id].name
		}
		fmt.Fprintf(&h, "# capture: %s opened in an earlier file\n", strings.Join(names, " "))
	}
	c.file, c.fileStart, c.fileBytes = name, now, int64(h.Len())
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return
	}
	c.queue = append(c.queue, chunk{name: name, data: []byte(h.String())})
	c.pending += h.Len()
	c.cond.Signal()
}

// run is the writer goroutine: it takes whatever is queued and writes it.
// Once closing is seen under the lock, nothing more can be queued, so the
// batch taken with it is the last.
func (c *Capture) run() {
	defer close(c.done)
	for {
		c.mu.Lock()
		for len(c.queue) == 0 && !c.closing {
			c.cond.Wait()
		}
		q, closing := c.queue, c.closing
		c.queue, c.pending = nil, 0
		c.mu.Unlock()
		for _, ch := range q {
			if ch.name != "" {
				c.w.open(ch.name)
			}
			c.w.write(ch.data)
		}
		c.w.flush()
		if closing {
			c.w.close()
			return
		}
	}
}

// Clock is the time source for the t= stamps (server.Clock satisfies it).
type Clock interface{ Now() time.Time }

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }
