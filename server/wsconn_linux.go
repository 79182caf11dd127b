package server

import (
	"bytes"
	"crypto/tls"
	"errors"
	"net"
	"net/netip"

	gws "github.com/gobwas/ws"
	"go.uber.org/zap"
	"golang.org/x/sys/unix"
)

// A WebSocket on the reactor's loop. The gateway does the HTTP handshake
// and hands the socket over (ServeWebSocket); from then on the loop reads
// and writes it like a TCP connection's, undoing the client's frames as
// they are read and framing the output as it is written, so a WebSocket
// costs no goroutine and no hand-off between threads (a reader and a
// writer goroutine per connection, as ServeMessages runs it, took about
// half of the server's CPU in Checkers tables over the gateway). The
// frames are RFC 6455's, read and written with gobwas/ws's frame layer.
//
// Each message the server sends holds whole segments: one write, one frame
// (a flush is one message unless it passes a write's chunk). A client's
// message must hold whole segments too; its frames' payloads go straight
// to the connection's decoder.

// wsConn is a WebSocket's state on the loop.
type wsConn struct {
	// reading
	in    []byte     // bytes read but not yet taken: a frame's header, or a control frame, in parts
	hdr   gws.Header // the data frame whose payload is being read
	left  int64      // of its payload, bytes not yet read
	off   int        // of its payload, bytes unmasked so far (the mask's phase)
	msg   int64      // bytes of the data message so far
	inMsg bool       // a data message continues in the next frame
	max   int64      // the most bytes a message may hold
	rd    bytes.Reader
	hbuf  [gws.MaxHeaderSize - 2]byte
	// writing
	pre  []byte // what goes before the rest of the frame being written: its header, or a whole control frame
	hdrb [gws.MaxHeaderSize]byte
	out  int    // of the frame being written, payload bytes not yet written
	ctrl []byte // control frames to write once the frame being written is done
	code gws.StatusCode
	why  string
	gone func() // closes the gateway's handle of the socket
}

// maxControl is the most a control frame's payload holds (RFC 6455 5.5).
const maxControl = 125

// ServeWebSocket implements WebSocketHost.
func (r *Reactor) ServeWebSocket(nc net.Conn, early []byte, ip netip.Addr, remote string, maxMessage int) error {
	tcp := plainTCP(nc)
	if tcp == nil {
		return ErrNotPlainSocket
	}
	raw, err := tcp.SyscallConn()
	if err != nil {
		return ErrNotPlainSocket
	}
	fd := -1
	if cerr := raw.Control(func(s uintptr) { fd, err = unix.FcntlInt(s, unix.F_DUPFD_CLOEXEC, 0) }); cerr != nil || err != nil {
		return ErrNotPlainSocket
	}
	// the runtime's copy of the descriptor goes now, so its poller stops
	// watching the socket (it woke for every frame the client sent, for no
	// goroutine: a third of the server's system time); nc itself (a
	// wrapper that counts the web listener's connections) is closed when
	// the connection ends
	tcp.Close()
	w := &wsConn{max: int64(maxMessage), gone: func() { nc.Close() }}
	if len(early) > 0 {
		w.in = append([]byte(nil), early...)
	}
	r.mu.Lock()
	if r.closing {
		r.mu.Unlock()
		unix.Close(fd)
		nc.Close()
		return ErrClosed
	}
	r.accepted = append(r.accepted, acceptedConn{fd: fd, ws: w, ip: ip, remote: remote})
	r.mu.Unlock()
	r.wake()
	return nil
}

// plainTCP is the TCP socket under nc, through wrappers that count
// connections (NetConn), or nil when a layer transforms the bytes (TLS).
func plainTCP(nc net.Conn) *net.TCPConn {
	for {
		switch c := nc.(type) {
		case *net.TCPConn:
			return c
		case *tls.Conn:
			return nil
		case interface{ NetConn() net.Conn }:
			nc = c.NetConn()
		default:
			return nil
		}
	}
}

// wsRefused closes a handed-over WebSocket that admission refused, telling
// it so with a close frame (1013).
func (r *Reactor) wsRefused(a acceptedConn) {
	writeClose(a.fd, gws.StatusCode(1013), "too many connections")
	unix.Close(a.fd)
	a.ws.gone()
}

// writeClose writes a close frame to fd, best effort.
func writeClose(fd int, code gws.StatusCode, why string) {
	f, err := gws.CompileFrame(gws.NewCloseFrame(gws.NewCloseFrameBody(code, why)))
	if err == nil {
		rawWrite(fd, f)
	}
}

// wsInput takes bytes read from the socket: data frames' payloads go to
// the decoder as they come, control frames are answered.
func (rc *rconn) wsInput(p []byte) {
	w, c, e := rc.ws, rc.c, rc.r.eng
	if len(w.in) > 0 {
		w.in = append(w.in, p...)
		p = w.in
	}
	for len(p) > 0 && !c.gone {
		if w.left > 0 { // a data frame's payload
			k := int(min(int64(len(p)), w.left))
			gws.Cipher(p[:k], w.hdr.Mask, w.off)
			w.off += k
			w.left -= int64(k)
			e.input(c, p[:k])
			p = p[k:]
			if w.left == 0 {
				rc.wsFrameDone()
			}
			continue
		}
		size := headerSize(p)
		if size == 0 || len(p) < size {
			break // the header is not all here yet
		}
		w.rd.Reset(p[:size])
		h, err := gws.ReadHeaderBuffer(&w.rd, w.hbuf[:])
		if err == nil {
			state := gws.StateServerSide
			if w.inMsg {
				state = state.Set(gws.StateFragmented)
			}
			err = gws.CheckHeader(h, state) // masked, no extension bits, continuations in place
		}
		if err != nil {
			rc.wsFail(gws.StatusProtocolError, "protocol error", "bad_frame", err)
			return
		}
		if h.OpCode.IsControl() {
			if int64(len(p)) < int64(size)+h.Length {
				break // the control frame is not all here yet
			}
			body := p[size : size+int(h.Length)]
			gws.Cipher(body, h.Mask, 0)
			p = p[size+int(h.Length):]
			rc.wsControl(h.OpCode, body)
			continue
		}
		if h.OpCode == gws.OpText {
			rc.wsFail(gws.StatusUnsupportedData, "binary messages only", "text_message", errors.New("text message on a binary protocol"))
			return
		}
		if w.msg += h.Length; h.Length < 0 || w.msg > w.max { // (a length past 2^63 reads as negative)
			rc.wsFail(gws.StatusMessageTooBig, "message too big", "message_too_big", errors.New("message over web.max_message"))
			return
		}
		w.hdr, w.left, w.off = h, h.Length, 0
		p = p[size:]
		if h.Length == 0 {
			rc.wsFrameDone()
		}
	}
	if c.gone {
		return
	}
	// keep what is left (less than a header and a control frame's payload)
	n := copy(w.in[:cap(w.in)], p)
	if n < len(p) {
		w.in = append(w.in[:0:0], p...)
	} else {
		w.in = w.in[:n]
	}
	if len(w.in) == 0 && cap(w.in) > 2*gws.MaxHeaderSize+maxControl {
		w.in = nil
	}
}

// headerSize is the length of the frame header p starts with, once its
// first two bytes are here (0 before).
func headerSize(p []byte) int {
	if len(p) < 2 {
		return 0
	}
	n := 2
	switch p[1] & 0x7f {
	case 126:
		n += 2
	case 127:
		n += 8
	}
	if p[1]&0x80 != 0 {
		n += 4
	}
	return n
}

// wsFrameDone ends a data frame: at the end of its message, the message
// must have held whole segments.
func (rc *rconn) wsFrameDone() {
	w := rc.ws
	w.inMsg = !w.hdr.Fin
	if w.inMsg {
		return
	}
	w.msg = 0
	if !rc.c.gone && rc.c.dec.Partial() {
		rc.wsFail(gws.StatusPolicyViolation, "protocol error", "partial_message", ErrPartialMessage)
	}
}

// wsControl answers a control frame: a ping with a pong, a close with a
// close (and the connection ends).
func (rc *rconn) wsControl(op gws.OpCode, body []byte) {
	w := rc.ws
	switch op {
	case gws.OpPing:
		f, _ := gws.CompileFrame(gws.NewPongFrame(body))
		w.ctrl = append(w.ctrl, f...)
		rc.write()
	case gws.OpClose:
		code, _ := gws.ParseCloseFrameData(body)
		if code.Empty() {
			code = gws.StatusNormalClosure
		}
		w.code, w.why = code, ""
		rc.r.eng.closed(rc.c, ReasonPeer)
	}
}

// wsFail closes the connection for a broken rule of the WebSocket or the
// protocol, with code and why in its close frame.
func (rc *rconn) wsFail(code gws.StatusCode, why, metric string, err error) {
	rc.ws.code, rc.ws.why = code, why
	e := rc.r.eng
	e.obs.ProtocolError(metric)
	e.log.Info("protocol error, closing", zap.Uint64("conn", uint64(rc.c.id)), zap.Error(err))
	e.drop(rc.c, ReasonProtocol, true)
}

// closing implements reasoned: the close frame says why the server ends
// the connection, unless a broken rule named the reason already.
func (rc *rconn) closing(why CloseReason) {
	w := rc.ws
	if w == nil || w.code != 0 {
		return
	}
	switch why {
	case ReasonProtocol:
		w.code, w.why = gws.StatusPolicyViolation, "protocol error"
	case ReasonShutdown:
		w.code, w.why = gws.StatusGoingAway, "shutting down"
	case ReasonLimit:
		w.code, w.why = gws.StatusCode(1013), "too many connections"
	default:
		w.code = gws.StatusNormalClosure
	}
}

// idle reports whether no frame is being written: a control frame may go.
func (w *wsConn) idle() bool { return len(w.pre) == 0 && w.out == 0 }

// owes reports whether the WebSocket has bytes of its own to write: the
// rest of a frame's header or a control frame.
func (w *wsConn) owes() bool { return len(w.pre) > 0 || len(w.ctrl) > 0 }

// wsWrite is one write(2) of a WebSocket's output: the rest of the frame
// being written, or a control frame waiting, or a new frame of the whole
// segments queued (at most a chunk). It returns how many bytes of the
// queued output (payload) it wrote.
func (rc *rconn) wsWrite() (int, error) {
	w := rc.ws
	var iov []unix.Iovec
	switch {
	case w.idle() && len(w.ctrl) > 0:
		w.pre, w.ctrl = w.ctrl, nil
	case w.idle():
		if rc.unread() == 0 {
			return 0, nil
		}
		iov = rc.gather()
		size := 0
		for _, v := range iov {
			size += int(v.Len)
		}
		h := gws.Header{Fin: true, OpCode: gws.OpBinary, Length: int64(size)}
		n := gws.HeaderSize(h)
		var b sliceWriter = w.hdrb[:0]
		gws.WriteHeader(&b, h)
		w.pre, w.out = w.hdrb[:n], size
	default:
		if w.out > 0 {
			iov = rc.gatherBytes(w.out)
		}
	}
	all := rc.r.wsIov[:0]
	if len(w.pre) > 0 {
		all = append(all, unix.Iovec{Base: &w.pre[0]})
		all[0].SetLen(len(w.pre))
	}
	all = append(all, iov...)
	n, err := rawWritev(int(rc.fd), all)
	clear(all)
	clear(iov)
	if n <= 0 {
		return 0, err
	}
	k := min(n, len(w.pre))
	if w.pre = w.pre[k:]; len(w.pre) == 0 {
		w.pre = nil
	}
	n -= k
	w.out -= n
	return n, err
}

// gatherBytes is the next n bytes of the output (the rest of a frame), in
// the reactor's scratch iovecs, whatever the segments' boundaries; fewer
// when they span more than maxIovecs pieces.
func (rc *rconn) gatherBytes(n int) []unix.Iovec {
	iov := rc.r.iov[:0]
	add := func(b []byte) {
		if k := min(n, len(b)); k > 0 {
			iov = append(iov, unix.Iovec{Base: &b[0]})
			iov[len(iov)-1].SetLen(k)
			n -= k
		}
	}
	add(rc.out[rc.sent:])
	for i := 0; i < len(rc.more) && n > 0 && len(iov) < maxIovecs; i++ {
		add(rc.more[i].b)
	}
	return iov
}

// sliceWriter appends what is written to it.
type sliceWriter []byte

func (s *sliceWriter) Write(p []byte) (int, error) {
	*s = append(*s, p...)
	return len(p), nil
}

// wsClose (from kill, once) writes the close frame, if no frame is half
// written (it would land in the middle of it), and lets the gateway's
// handle go.
func (rc *rconn) wsClose() {
	w := rc.ws
	if w.idle() {
		code := w.code
		if code == 0 { // killed without a reason (a node leaving the cluster)
			code = gws.StatusNormalClosure
		}
		writeClose(int(rc.fd), code, w.why)
	}
	w.gone()
}
