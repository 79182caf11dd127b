//go:build linux

package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/bomber-game/bomber/bench/load"
	"github.com/bomber-game/bomber/client/ext"
	"github.com/bomber-game/bomber/segment"
)

// extConn is an extended-protocol client (package client/ext's state
// machine) over one real connection, pumped on its caller's goroutine: a
// client that stops calling pump stops reading, and what the server sends
// stays in the kernels.
type extConn struct {
	nc    net.Conn
	c     *ext.Client
	d     segment.Decoder
	onSeg func(segment.Segment) // sees every segment before the client does (Pong is no event)
	wmu   sync.Mutex
}

// dialer is a dialer from source address src ("" for the kernel's choice).
func dialer(src string) *net.Dialer {
	d := &net.Dialer{Timeout: 5 * time.Second}
	if src != "" && src != witnessSource { // the witnesses take the kernel's choice, 127.0.0.1
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(src)}
		d.Control = load.BindNoPort
	}
	return d
}

// dialExt connects to the game port at addr (or, with ws set, to the
// WebSocket gateway at that URL) from src and logs name in.
func dialExt(ctx context.Context, addr, ws, src, name string) (*extConn, error) {
	var nc net.Conn
	var err error
	if ws != "" {
		d := dialer(src)
		hc := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
		var c *websocket.Conn
		c, _, err = websocket.Dial(ctx, ws, &websocket.DialOptions{HTTPClient: hc, CompressionMode: websocket.CompressionDisabled})
		if err == nil {
			c.SetReadLimit(1 << 20)
			nc = websocket.NetConn(context.Background(), c, websocket.MessageBinary)
		}
	} else {
		nc, err = dialer(src).DialContext(ctx, "tcp", addr)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: dial: %w", name, err)
	}
	e := &extConn{nc: nc, c: ext.New()}
	e.d.SetDialect(segment.DialectExtended)
	e.send(e.c.Connected())
	o, err := e.c.Login(name, password)
	if err != nil {
		nc.Close()
		return nil, err
	}
	e.send(o)
	err = e.pump(10*time.Second, func(ev ext.Event) (bool, error) {
		switch ev.Kind {
		case ext.EvLoggedIn:
			return true, nil
		case ext.EvLoginRefused, ext.EvKicked, ext.EvProtocol:
			return true, fmt.Errorf("%s: login: %s", name, ev.Text)
		}
		return false, nil
	})
	if err != nil {
		nc.Close()
		return nil, err
	}
	return e, nil
}

// send writes what the client asked to send, in one write.
func (e *extConn) send(o ext.Out) error {
	if len(o.Send) == 0 {
		return nil
	}
	var b []byte
	for _, s := range o.Send {
		b = s.AppendTo(b)
	}
	e.wmu.Lock()
	defer e.wmu.Unlock()
	_, err := e.nc.Write(b)
	return err
}

// call sends what f asks the client to send.
func (e *extConn) call(f func() (ext.Out, error)) error {
	o, err := f()
	if err != nil {
		return err
	}
	return e.send(o)
}

var errTimeout = errors.New("timed out")

// pump reads and handles what the server sends until each returns true
// (or an error), the connection fails, or timeout passes; a timeout
// closes the connection (a WebSocket has no read deadline that leaves it
// open).
func (e *extConn) pump(timeout time.Duration, each func(ext.Event) (bool, error)) error {
	timedOut := false
	var mu sync.Mutex
	t := time.AfterFunc(timeout, func() { mu.Lock(); timedOut = true; mu.Unlock(); e.nc.Close() })
	defer t.Stop()
	for {
		// segments left from the last pump come first
		for {
			s, ok, err := e.d.Next()
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			if e.onSeg != nil {
				e.onSeg(s)
			}
			o := e.c.Receive(s)
			e.send(o)
			for _, ev := range o.Events {
				done, err := each(ev)
				if done || err != nil {
					return err
				}
			}
		}
		n, err := e.nc.Read(e.d.Free())
		if err != nil {
			mu.Lock()
			defer mu.Unlock()
			if timedOut {
				return errTimeout
			}
			return err
		}
		e.d.Commit(n)
	}
}

func (e *extConn) close() { e.nc.Close() }
