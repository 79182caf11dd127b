// Package hashproc runs argon2id in a child process, so that each hash's
// scratch memory (hashing.memory_kib, 19 MiB by default) is allocated and
// collected in that process, not in the daemon's heap. x/crypto's argon2
// allocates that memory afresh for every hash and takes no buffer: in the
// daemon each login was a collection's worth of garbage, and the collector's
// stops and mark work on the engine loop's CPU were what delayed game
// traffic during a storm of logins (docs/performance.md).
//
// Each child hashes one password at a time, and the Client keeps one child
// per hash that may run at once. The parent and the child speak over the
// child's stdin and stdout, one request and its answer at a time, big
// endian:
//
//	request:  id u32 | memory KiB u32 | time u32 | threads u8 | key length u32 | password length u16 | salt length u16 | password | salt
//	response: id u32 | key length u16 | key (length 0: the child refused the parameters)
//
// Example, request 1 for password "123", salt 16 bytes of 0x01, 64 KiB, 1 pass,
// 1 lane, 32-byte key:
//
//	00000001 00000040 00000001 01 00000020 0003 0010 313233 01010101010101010101010101010101
//
// and its answer: 00000001 0020 followed by the 32-byte key.
package hashproc

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"sync"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/account"
)

// requestHeader is the fixed part of a request, before password and salt.
const requestHeader = 4 + 4 + 4 + 1 + 4 + 2 + 2

// maxSalt bounds a request's salt: a stored hash's salt is at most 64 bytes.
const maxSalt = 1 << 10

// giveUpAfter is how many children in a row may end (or fail to start)
// without answering before the Client stops starting them and hashes in
// the parent.
const giveUpAfter = 3

// ErrChildGone is what a request gets when the child ended before answering.
var ErrChildGone = errors.New("hashproc: the hashing process ended")

// Serve answers requests from r on w, one at a time, until r ends. It is
// the child's whole life.
func Serve(r io.Reader, w io.Writer) error {
	in := bufio.NewReader(r)
	out := bufio.NewWriter(w)
	var hdr [requestHeader]byte
	for {
		if _, err := io.ReadFull(in, hdr[:]); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("hashproc: reading a request: %w", err)
		}
		id := binary.BigEndian.Uint32(hdr[0:])
		p := account.Params{
			Memory:  binary.BigEndian.Uint32(hdr[4:]),
			Time:    binary.BigEndian.Uint32(hdr[8:]),
			Threads: hdr[12],
			KeyLen:  binary.BigEndian.Uint32(hdr[13:]),
		}
		pwLen, saltLen := int(binary.BigEndian.Uint16(hdr[17:])), int(binary.BigEndian.Uint16(hdr[19:]))
		if saltLen > maxSalt {
			return fmt.Errorf("hashproc: a salt of %d bytes", saltLen)
		}
		body := make([]byte, pwLen+saltLen)
		if _, err := io.ReadFull(in, body); err != nil {
			return fmt.Errorf("hashproc: reading request %d: %w", id, err)
		}
		p.SaltLen = uint32(saltLen)
		var key []byte
		if p.Check() == nil {
			key, _ = account.LocalDeriver{}.Derive(context.Background(), body[:pwLen], body[pwLen:], p)
		}
		var rh [6]byte
		binary.BigEndian.PutUint32(rh[0:], id)
		binary.BigEndian.PutUint16(rh[4:], uint16(len(key)))
		out.Write(rh[:])
		out.Write(key)
		if err := out.Flush(); err != nil {
			return fmt.Errorf("hashproc: answering request %d: %w", id, err)
		}
	}
}

// Client is an account.Deriver that hands each key to a child process. It
// keeps the children that are idle and starts one when a request finds
// none, so there are as many as hashes ever ran at once (the Hasher bounds
// that). A request is a write and a blocking read on the calling thread:
// its pipes are kept out of Go's poller, so the child's answer wakes the
// waiting thread itself, not a poller thread that then wakes it; at nice
// 10 on a busy CPU each such hand-over waits for the CPU. If a child ends
// before answering, or cannot be started, the request is hashed in the
// parent: a login is never lost to it. After giveUpAfter of those in a
// row, every request is hashed in the parent.
type Client struct {
	start func() *exec.Cmd
	log   *zap.Logger

	mu       sync.Mutex
	idle     []*child
	running  map[*child]bool
	nextID   uint32
	failures int  // children in a row that ended or failed to start without answering
	closed   bool // by Close: no child is started again
	local    int  // requests hashed in the parent
	started  int  // children started
}

// child is one running hashing process and the parent's ends of its pipes.
type child struct {
	cmd *exec.Cmd
	req *os.File // the child's stdin
	res *os.File // the child's stdout
	in  *bufio.Reader
}

// NewClient returns a Client that starts its children with start (a
// command whose stdin and stdout it sets; stderr is left as the command
// has it).
func NewClient(start func() *exec.Cmd, log *zap.Logger) *Client {
	return &Client{start: start, log: log, running: map[*child]bool{}}
}

// Derive returns argon2id(password, salt) under p, computed by a child or,
// if it cannot be, in this process.
func (c *Client) Derive(ctx context.Context, password, salt []byte, p account.Params) ([]byte, error) {
	key, err := c.remote(password, salt, p)
	if err == nil {
		return key, nil
	}
	c.mu.Lock()
	c.local++
	c.mu.Unlock()
	c.log.Warn("hashing a password in the daemon: the hashing process could not", zap.Error(err))
	return account.LocalDeriver{}.Derive(ctx, password, salt, p)
}

// Stats reports how many children were started and how many requests were
// hashed in this process instead.
func (c *Client) Stats() (started, local int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.started, c.local
}

// Pids returns the running children's process ids.
func (c *Client) Pids() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	var pids []int
	for ch := range c.running {
		pids = append(pids, ch.cmd.Process.Pid)
	}
	return pids
}

// Close ends the idle children (each exits when its stdin closes) and waits
// for them; a child busy with a request ends as the request returns.
// Requests after Close are hashed here.
func (c *Client) Close() error {
	c.mu.Lock()
	c.closed = true
	idle := c.idle
	c.idle = nil
	c.mu.Unlock()
	for _, ch := range idle {
		c.end(ch)
	}
	return nil
}

func (c *Client) remote(password, salt []byte, p account.Params) ([]byte, error) {
	if len(password) > math.MaxUint16 || len(salt) > maxSalt {
		return nil, fmt.Errorf("hashproc: a password of %d bytes or a salt of %d", len(password), len(salt))
	}
	c.mu.Lock()
	ch, err := c.take()
	c.nextID++
	id := c.nextID
	c.mu.Unlock()
	if err != nil {
		return nil, err
	}
	req := make([]byte, requestHeader, requestHeader+len(password)+len(salt))
	binary.BigEndian.PutUint32(req[0:], id)
	binary.BigEndian.PutUint32(req[4:], p.Memory)
	binary.BigEndian.PutUint32(req[8:], p.Time)
	req[12] = p.Threads
	binary.BigEndian.PutUint32(req[13:], p.KeyLen)
	binary.BigEndian.PutUint16(req[17:], uint16(len(password)))
	binary.BigEndian.PutUint16(req[19:], uint16(len(salt)))
	req = append(append(req, password...), salt...)
	key, err := ch.ask(id, req)
	c.mu.Lock()
	if err != nil {
		c.failures++
	} else {
		c.failures = 0
	}
	keep := err == nil && !c.closed
	if keep {
		c.idle = append(c.idle, ch)
	}
	c.mu.Unlock()
	if !keep {
		c.end(ch)
	}
	if err != nil {
		return nil, err
	}
	if len(key) == 0 {
		return nil, fmt.Errorf("hashproc: the child refused parameters %+v", p)
	}
	return key, nil
}

// ask writes one request and reads its answer.
func (ch *child) ask(id uint32, req []byte) ([]byte, error) {
	if _, err := ch.req.Write(req); err != nil {
		return nil, fmt.Errorf("%w: writing request %d: %v", ErrChildGone, id, err)
	}
	var rh [6]byte
	if _, err := io.ReadFull(ch.in, rh[:]); err != nil {
		return nil, fmt.Errorf("%w: reading answer %d: %v", ErrChildGone, id, err)
	}
	key := make([]byte, binary.BigEndian.Uint16(rh[4:]))
	if _, err := io.ReadFull(ch.in, key); err != nil {
		return nil, fmt.Errorf("%w: reading answer %d: %v", ErrChildGone, id, err)
	}
	if got := binary.BigEndian.Uint32(rh[0:]); got != id {
		return nil, fmt.Errorf("hashproc: answer %d to request %d", got, id)
	}
	return key, nil
}

// take returns an idle child or starts one. Called with c.mu held.
func (c *Client) take() (*child, error) {
	if n := len(c.idle); n > 0 {
		ch := c.idle[n-1]
		c.idle = c.idle[:n-1]
		return ch, nil
	}
	if c.closed {
		return nil, errors.New("hashproc: closed")
	}
	if c.failures >= giveUpAfter {
		return nil, fmt.Errorf("hashproc: %d hashing processes in a row ended without answering; not starting another", c.failures)
	}
	ch, err := c.spawn()
	if err != nil {
		c.failures++
		return nil, err
	}
	c.started++
	c.running[ch] = true
	return ch, nil
}

// spawn starts a child on two pipes (blocking ones where the system has
// pipe2: see pipe).
func (c *Client) spawn() (*child, error) {
	stdin, req, err := pipe("hashproc-stdin", "hashproc-requests")
	if err != nil {
		return nil, fmt.Errorf("hashproc: pipe: %w", err)
	}
	res, stdout, err := pipe("hashproc-answers", "hashproc-stdout")
	if err != nil {
		stdin.Close()
		req.Close()
		return nil, fmt.Errorf("hashproc: pipe: %w", err)
	}
	cmd := c.start()
	cmd.Stdin, cmd.Stdout = stdin, stdout
	err = cmd.Start()
	stdin.Close() // the child's ends: its copies stay open in it
	stdout.Close()
	if err != nil {
		req.Close()
		res.Close()
		return nil, fmt.Errorf("hashproc: starting %s: %w", cmd.Path, err)
	}
	return &child{cmd: cmd, req: req, res: res, in: bufio.NewReader(res)}, nil
}

// end closes a child's stdin, so that it exits, and reaps it.
func (c *Client) end(ch *child) {
	ch.req.Close()
	err := ch.cmd.Wait()
	ch.res.Close()
	c.mu.Lock()
	delete(c.running, ch)
	closed := c.closed
	c.mu.Unlock()
	if !closed || err != nil {
		c.log.Warn("a hashing process ended", zap.Int("pid", ch.cmd.Process.Pid), zap.NamedError("exit", err))
	}
}
