package load

import (
	"context"
	"net"
	"net/http"

	"github.com/coder/websocket"
)

// wsReadLimit bounds one message from the server: a login among many users
// brings the whole user list in one message.
const wsReadLimit = 64 << 20

// DialWS opens a WebSocket to the gateway at url through d and returns it
// as a byte stream: each Write is one binary message (the clients write
// whole segments), reads return the messages' bytes in order.
func DialWS(ctx context.Context, url string, d *net.Dialer) (net.Conn, error) {
	hc := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPClient: hc, CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		return nil, err
	}
	c.SetReadLimit(wsReadLimit)
	return websocket.NetConn(context.Background(), c, websocket.MessageBinary), nil
}
