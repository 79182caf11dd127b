package main

import (
	"errors"
	"net"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/bomber-game/bomber/segment"
)

// Messages from the connection to the UI. gen tells a stale connection's
// messages from the current one's after a reconnect.
type (
	upMsg struct {
		gen int
		l   sender // a *link; tests connect a fake
	}
	downMsg struct {
		gen int
		err error
	}
	segMsg struct {
		gen int
		seg segment.Segment
	}
	retryMsg struct{ gen int }
)

// sender writes segments; the UI model holds one so tests can fake it.
type sender interface {
	Send(segs []segment.Segment) error
	Close() error
}

// link is one TCP connection: a reader goroutine turns its bytes into
// segment messages on msgs, closed after the last one (downMsg).
type link struct {
	gen     int
	conn    net.Conn
	msgs    chan tea.Msg
	dialect segment.Dialect // what the server may send (the zero value: reference)
}

const dialTimeout = 3 * time.Second

// dial connects and starts the reader.
func dial(addr string, gen int, dialect ...segment.Dialect) (*link, error) {
	c, err := net.DialTimeout("tcp", addr, dialTimeout)
	if err != nil {
		return nil, err
	}
	l := &link{gen: gen, conn: c, msgs: make(chan tea.Msg, 64)}
	if len(dialect) > 0 {
		l.dialect = dialect[0]
	}
	go l.read()
	return l, nil
}

// dialCmd dials off the UI goroutine.
func dialCmd(addr string, gen int) tea.Cmd {
	return func() tea.Msg {
		l, err := dial(addr, gen)
		if err != nil {
			return downMsg{gen: gen, err: err}
		}
		return upMsg{gen: gen, l: l}
	}
}

func (l *link) read() {
	defer close(l.msgs)
	var d segment.Decoder
	d.SetDialect(l.dialect)
	for {
		free := d.Free()
		if len(free) == 0 {
			// Cannot happen: a whole segment is at most 32 bytes and every
			// whole segment is taken out below.
			l.msgs <- downMsg{gen: l.gen, err: errors.New("input buffer full")}
			return
		}
		n, err := l.conn.Read(free)
		d.Commit(n)
		if derr := d.Decode(func(s segment.Segment) bool {
			l.msgs <- segMsg{gen: l.gen, seg: s}
			return true
		}); derr != nil {
			l.msgs <- downMsg{gen: l.gen, err: derr}
			l.conn.Close()
			return
		}
		if err != nil {
			l.msgs <- downMsg{gen: l.gen, err: err}
			return
		}
	}
}

// next waits for the connection's next message.
func (l *link) next() tea.Cmd {
	return func() tea.Msg {
		m, ok := <-l.msgs
		if !ok {
			return nil
		}
		return m
	}
}

// Send writes segments whole, in one write, as the reference client's
// reader needs them (it throws when a read ends inside a header).
func (l *link) Send(segs []segment.Segment) error {
	if len(segs) == 0 {
		return nil
	}
	var buf []byte
	for _, s := range segs {
		buf = s.AppendTo(buf)
	}
	_, err := l.conn.Write(buf)
	return err
}

// Close closes the connection; the reader then reports it down.
func (l *link) Close() error { return l.conn.Close() }
