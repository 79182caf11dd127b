package server

import (
	"errors"
	"net"
	"net/netip"
)

// ErrNotPlainSocket: ServeWebSocket was given a connection the loop cannot
// read and write itself (under TLS, or not TCP); serve it with
// ServeMessages.
var ErrNotPlainSocket = errors.New("server: not a plain TCP socket")

// WebSocketHost is a transport whose loop serves WebSockets itself.
type WebSocketHost interface {
	// ServeWebSocket takes over nc, a WebSocket whose opening handshake is
	// done, with early the bytes the client sent after it that were
	// already read, from address ip (remote names it in captures), its
	// messages at most maxMessage bytes. It returns at once; the
	// transport closes nc when the connection ends. ErrNotPlainSocket:
	// nc cannot be served this way (nc is left open).
	ServeWebSocket(nc net.Conn, early []byte, ip netip.Addr, remote string, maxMessage int) error
}
