//go:build linux

// Package relay is the floor the bench measures bomberd against: the least a
// server can do for the load generator's game traffic. One OS thread waits in
// epoll_wait on non-blocking sockets; each byte read from one connection is
// written to its partner, nothing else: no state machine, no rules, no
// buffering beyond what a full socket forces.
//
// The only protocol it knows is how partners find each other: a
// connection's first segment (3-byte header, payload) is its pairing key,
// and the relay answers it with PasswdResp(1), the segment the load
// generator's login waits for. The second connection to send the same key
// becomes the first one's partner. The load generator's relay mode
// (load.Config.Relay) sends Info(inviter's name) from both clients of a
// game, the inviter only after its partner has been answered, and then
// plays without invitations (see package load).
//
// The fan-out floor (StartFanout) is the same loop for the table games: a
// connection's pairing key names its group, whose size k is the key's
// first byte, and each read from a member is written to all k members, the
// sender included (a table's server sends the mover its own move too): one
// read(2) and k write(2)s a message, the least a table move to k
// connections costs.
package relay

import (
	"errors"
	"fmt"
	"net"
	"runtime"
	"slices"

	"golang.org/x/sys/unix"
)

// answer is PasswdResp(1): type 0x03, length 1, code 1 (OK).
var answer = []byte{0x03, 0x00, 0x01, 0x01}

// maxKey bounds the pairing segment's payload (a user name fits in 29).
const maxKey = 64

// conn is one client socket.
type conn struct {
	fd      int
	partner int    // partner's fd, -1 until paired
	head    []byte // the pairing segment, until whole
	out     []byte // bytes for this socket that did not fit (rare: a full send buffer)
	paused  bool   // not reading: the partner's out is not drained
	key     string // the pairing key while waiting for a partner
	group   *group // the fan-out floor's: the connection's group
}

// group is the fan-out floor's set of connections that share a key.
type group struct {
	key     string
	members []*conn
}

// Relay is a listening relay; Serve runs it.
type Relay struct {
	lfd, epfd, stopfd int
	addr              string
	conns             map[int]*conn
	waiting           map[string]int    // key → fd of the first connection that sent it
	groups            map[string]*group // the fan-out floor's, by key; nil in a relay
	buf               []byte
}

// ListenFanout opens a fan-out floor's listening socket at addr.
func ListenFanout(addr string) (*Relay, error) {
	r, err := Listen(addr)
	if err == nil {
		r.groups = map[string]*group{}
	}
	return r, err
}

// StartFanout listens at addr as the fan-out floor and serves on a
// goroutine of its own until Close, as Start.
func StartFanout(addr string) (*Relay, <-chan error, error) {
	r, err := ListenFanout(addr)
	if err != nil {
		return nil, nil, err
	}
	done := make(chan error, 1)
	go func() { done <- r.Serve() }()
	return r, done, nil
}

// Listen opens a listening socket at addr (host:port; port 0 picks one).
func Listen(addr string) (*Relay, error) {
	ta, err := net.ResolveTCPAddr("tcp4", addr)
	if err != nil {
		return nil, fmt.Errorf("relay: %w", err)
	}
	lfd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("relay: socket: %w", err)
	}
	r := &Relay{lfd: lfd, epfd: -1, stopfd: -1, conns: map[int]*conn{}, waiting: map[string]int{}, buf: make([]byte, 64<<10)}
	fail := func(what string, err error) (*Relay, error) {
		r.closeFDs()
		return nil, fmt.Errorf("relay: %s: %w", what, err)
	}
	unix.SetsockoptInt(lfd, unix.SOL_SOCKET, unix.SO_REUSEADDR, 1)
	sa := &unix.SockaddrInet4{Port: ta.Port}
	if ip := ta.IP.To4(); ip != nil {
		copy(sa.Addr[:], ip)
	}
	if err := unix.Bind(lfd, sa); err != nil {
		return fail("bind", err)
	}
	if err := unix.Listen(lfd, 4096); err != nil {
		return fail("listen", err)
	}
	got, err := unix.Getsockname(lfd)
	if err != nil {
		return fail("getsockname", err)
	}
	in4 := got.(*unix.SockaddrInet4)
	r.addr = fmt.Sprintf("%s:%d", net.IP(in4.Addr[:]), in4.Port)
	if r.epfd, err = unix.EpollCreate1(unix.EPOLL_CLOEXEC); err != nil {
		return fail("epoll_create1", err)
	}
	// Close writes to this eventfd to wake the loop: closing a descriptor
	// another thread waits on does not wake it.
	if r.stopfd, err = unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC); err != nil {
		return fail("eventfd", err)
	}
	for _, fd := range []int{lfd, r.stopfd} {
		if err := unix.EpollCtl(r.epfd, unix.EPOLL_CTL_ADD, fd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(fd)}); err != nil {
			return fail("epoll_ctl", err)
		}
	}
	return r, nil
}

// Addr is the listening address, host:port.
func (r *Relay) Addr() string { return r.addr }

// Start listens at addr and serves on a goroutine of its own until Close;
// the channel yields what Serve returned.
func Start(addr string) (*Relay, <-chan error, error) {
	r, err := Listen(addr)
	if err != nil {
		return nil, nil, err
	}
	done := make(chan error, 1)
	go func() { done <- r.Serve() }()
	return r, done, nil
}

// Close stops Serve (which then closes every socket).
func (r *Relay) Close() error {
	var one = [8]byte{1}
	_, err := unix.Write(r.stopfd, one[:])
	return err
}

func (r *Relay) closeFDs() {
	for fd := range r.conns {
		unix.Close(fd)
	}
	for _, fd := range []int{r.lfd, r.epfd, r.stopfd} {
		if fd >= 0 {
			unix.Close(fd)
		}
	}
}

// Serve relays until Close; it holds its OS thread, as a C relay's one
// thread would, so the Go scheduler is never between a read and its write.
func (r *Relay) Serve() error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer r.closeFDs()
	events := make([]unix.EpollEvent, 256)
	for {
		n, err := unix.EpollWait(r.epfd, events, -1)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return fmt.Errorf("relay: epoll_wait: %w", err)
		}
		for _, ev := range events[:n] {
			fd := int(ev.Fd)
			switch {
			case fd == r.stopfd:
				return nil
			case fd == r.lfd:
				r.accept()
			default:
				c := r.conns[fd]
				if c == nil {
					continue // closed earlier in this batch with its partner
				}
				if ev.Events&unix.EPOLLOUT != 0 {
					r.flush(c)
				}
				if ev.Events&(unix.EPOLLIN|unix.EPOLLHUP|unix.EPOLLERR) != 0 && r.conns[fd] != nil {
					r.read(c)
				}
			}
		}
	}
}

// accept takes every pending connection.
func (r *Relay) accept() {
	for {
		fd, _, err := unix.Accept4(r.lfd, unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC)
		if err != nil {
			return // EAGAIN, or out of descriptors: the rest wait in the queue
		}
		unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1)
		if err := unix.EpollCtl(r.epfd, unix.EPOLL_CTL_ADD, fd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(fd)}); err != nil {
			unix.Close(fd)
			continue
		}
		r.conns[fd] = &conn{fd: fd, partner: -1}
	}
}

// read takes what one read returns and hands it on: to the pairing
// segment until it is whole, then to the partner.
func (r *Relay) read(c *conn) {
	n, err := unix.Read(c.fd, r.buf)
	if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR) {
		return
	}
	if n <= 0 {
		r.drop(c)
		return
	}
	data := r.buf[:n]
	if r.groups != nil {
		r.fan(c, data)
		return
	}
	if c.partner < 0 {
		var ok bool
		if data, ok = r.pair(c, data); !ok {
			r.drop(c)
			return
		}
		if c.partner < 0 || len(data) == 0 {
			return // bytes before a partner exists have nobody to go to
		}
	}
	p := r.conns[c.partner]
	if p == nil {
		r.drop(c)
		return
	}
	if len(p.out) > 0 {
		p.out = append(p.out, data...)
		return
	}
	w, err := unix.Write(p.fd, data)
	if err != nil && !errors.Is(err, unix.EAGAIN) {
		r.drop(p)
		return
	}
	if w = max(w, 0); w < len(data) {
		// the partner's send buffer is full: keep the rest, stop reading
		// from c until it is written
		p.out = append(p.out[:0], data[w:]...)
		c.paused = true
		unix.EpollCtl(r.epfd, unix.EPOLL_CTL_MOD, c.fd, &unix.EpollEvent{Events: 0, Fd: int32(c.fd)})
		unix.EpollCtl(r.epfd, unix.EPOLL_CTL_MOD, p.fd, &unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLOUT, Fd: int32(p.fd)})
	}
}

// fan hands what one read returned to every member of c's group, c
// included, one write(2) each; before c has a group, to its pairing
// segment. A member whose socket is full keeps the rest and is written
// when it drains (the table games wait for each message, so that is
// bounded).
func (r *Relay) fan(c *conn, data []byte) {
	if c.group == nil {
		var ok bool
		if data, ok = r.join(c, data); !ok {
			r.drop(c)
			return
		}
		if c.group == nil || len(data) == 0 {
			return
		}
	}
	for _, m := range c.group.members {
		if len(m.out) > 0 {
			m.out = append(m.out, data...)
			continue
		}
		w, err := unix.Write(m.fd, data)
		if err != nil && !errors.Is(err, unix.EAGAIN) {
			continue // its own read sees it closed and drops it
		}
		if w = max(w, 0); w < len(data) {
			m.out = append(m.out[:0], data[w:]...)
			unix.EpollCtl(r.epfd, unix.EPOLL_CTL_MOD, m.fd, &unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLOUT, Fd: int32(m.fd)})
		}
	}
}

// join collects c's first segment, answers it and adds c to the group its
// payload names (the payload's first byte is the group's size, which
// only the clients use); it returns the bytes that followed the segment,
// false on a bad segment.
func (r *Relay) join(c *conn, data []byte) ([]byte, bool) {
	c.head = append(c.head, data...)
	if len(c.head) < 3 {
		return nil, true
	}
	size := 3 + int(c.head[1])<<8 + int(c.head[2])
	if size-3 > maxKey || size == 3 {
		return nil, false
	}
	if len(c.head) < size {
		return nil, true
	}
	key, rest := string(c.head[3:size]), c.head[size:]
	c.head = nil
	g := r.groups[key]
	if g == nil {
		g = &group{key: key}
		r.groups[key] = g
	}
	g.members = append(g.members, c)
	c.group = g
	if _, err := unix.Write(c.fd, answer); err != nil {
		return nil, false
	}
	return rest, true
}

// pair collects c's first segment, answers it and pairs c by its payload;
// it returns the bytes that followed the segment, false on a bad segment.
func (r *Relay) pair(c *conn, data []byte) ([]byte, bool) {
	c.head = append(c.head, data...)
	if len(c.head) < 3 {
		return nil, true
	}
	size := 3 + int(c.head[1])<<8 + int(c.head[2])
	if size-3 > maxKey {
		return nil, false
	}
	if len(c.head) < size {
		return nil, true
	}
	key, rest := string(c.head[3:size]), c.head[size:]
	c.head = nil
	if other, ok := r.waiting[key]; ok {
		delete(r.waiting, key)
		r.conns[other].key = ""
		c.partner, r.conns[other].partner = other, c.fd
	} else {
		r.waiting[key], c.key = c.fd, key
	}
	if _, err := unix.Write(c.fd, answer); err != nil {
		return nil, false
	}
	return rest, true
}

// flush writes what c's socket could not take before; once empty, its
// partner is read again.
func (r *Relay) flush(c *conn) {
	if len(c.out) > 0 {
		w, err := unix.Write(c.fd, c.out)
		if err != nil && !errors.Is(err, unix.EAGAIN) {
			r.drop(c)
			return
		}
		c.out = c.out[:copy(c.out, c.out[max(w, 0):])]
	}
	if len(c.out) > 0 {
		return
	}
	unix.EpollCtl(r.epfd, unix.EPOLL_CTL_MOD, c.fd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(c.fd)})
	if p := r.conns[c.partner]; p != nil && p.paused {
		p.paused = false
		unix.EpollCtl(r.epfd, unix.EPOLL_CTL_MOD, p.fd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(p.fd)})
	}
}

// drop closes c and its partner: a game without one of its players is
// over. In the fan-out floor, c alone leaves its group.
func (r *Relay) drop(c *conn) {
	if g := c.group; g != nil {
		g.members = slices.DeleteFunc(g.members, func(m *conn) bool { return m == c })
		if len(g.members) == 0 {
			delete(r.groups, g.key)
		}
		c.group, c.partner = nil, -1
	}
	for _, fd := range []int{c.fd, c.partner} {
		if x := r.conns[fd]; x != nil {
			if x.key != "" {
				delete(r.waiting, x.key)
			}
			delete(r.conns, fd)
			unix.Close(fd)
		}
	}
}
