//go:build linux

package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/bomber-game/bomber/segment"
)

// The fan-out floor: what a table move costs a server that does nothing
// but fan it out. bench/relay's fan-out floor (`bomber-bench fanout`)
// writes each message one member of a group sends to all k members; here
// o.tables groups at once of k connections each (k: the table games' seats
// and watcher) take turns, seat after seat, sending one Moved of a move's
// size and waiting until all k have read it, as the table games' seats
// wait for each Moved, as many moves a group as the table game's round
// before it played a table; the floor's CPU over the play divided by the
// messages is its cost per move with k recipients.

// fanMessage is what a floor's move carries: a Moved as a table game's
// move sends it (a two-byte argument and short notation).
func fanMessage(seq uint32, seat uint8) []byte {
	body := segment.MovedBody{Seq: seq, Seat: seat, Kind: 1, Len: 2, Arg: [segment.MaxMoveArg]uint8{3, 4}, Notation: "c3d4"}.Append(nil)
	var b []byte
	for _, s := range segment.AppendMessage(nil, segment.Moved, body) {
		b = s.AppendTo(b)
	}
	return b
}

// fanGroup is one table's worth of connections on the fan-out floor.
type fanGroup struct {
	addr  string
	key   string // the group's pairing key; its first byte is k
	k     int
	seats int
	conns []net.Conn
	got   chan error // one per member per message read whole (nil), or its failure
}

// join connects the k members and waits for each to be answered.
func (g *fanGroup) join(ctx context.Context) error {
	var dl net.Dialer
	hello := append([]byte{0x00, 0x00, byte(len(g.key))}, g.key...)
	for range g.k {
		c, err := dl.DialContext(ctx, "tcp", g.addr)
		if err != nil {
			return err
		}
		g.conns = append(g.conns, c)
		if _, err := c.Write(hello); err != nil {
			return err
		}
		if _, err := io.ReadFull(c, make([]byte, 4)); err != nil {
			return fmt.Errorf("waiting for the floor's answer: %w", err)
		}
	}
	return nil
}

// play sends moves messages, seat after seat, each once every member has
// read the one before.
func (g *fanGroup) play(ctx context.Context, moves int) error {
	size := len(fanMessage(0, 0))
	g.got = make(chan error, g.k)
	for _, c := range g.conns {
		go func() {
			buf := make([]byte, size)
			for range moves {
				_, err := io.ReadFull(c, buf)
				g.got <- err
				if err != nil {
					return
				}
			}
		}()
	}
	for m := range moves {
		seat := m % g.seats
		if _, err := g.conns[seat].Write(fanMessage(uint32(m), uint8(seat))); err != nil {
			return err
		}
		for range g.k {
			select {
			case err := <-g.got:
				if err != nil {
					return err
				}
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	return nil
}

func (g *fanGroup) close() {
	for _, c := range g.conns {
		c.Close()
	}
}

// playFan joins every group, then plays them all at once, moves messages
// a group, and measures the floor's CPU over the play, as playTables does
// bomberd's.
func playFan(ctx context.Context, d *daemon, groups []*fanGroup, moves int) (tableResult, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	defer func() {
		for _, g := range groups {
			g.close()
		}
	}()
	for _, g := range groups {
		if err := g.join(ctx); err != nil {
			return tableResult{}, err
		}
	}
	k0, err := cpuNanos(d.pid())
	if err != nil {
		return tableResult{}, err
	}
	t0 := time.Now()
	done := make(chan error, len(groups))
	for _, g := range groups {
		go func() { done <- g.play(ctx, moves) }()
	}
	var first error
	for range groups {
		if err := <-done; err != nil && first == nil {
			first = err
			cancel()
		}
	}
	if first != nil {
		return tableResult{}, first
	}
	k1, err := cpuNanos(d.pid())
	if err != nil {
		return tableResult{}, err
	}
	return tableResult{cpu: time.Duration(k1 - k0), took: time.Since(t0), moves: len(groups) * moves}, nil
}
