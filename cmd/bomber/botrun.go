package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"time"

	"github.com/bomber-game/bomber/client"
	"github.com/bomber-game/bomber/segment"
)

// inviteRetry is how long the bot waits before inviting again after a
// refusal, a busy answer or a finished game (time for a person to read the
// result).
const inviteRetry = 2 * time.Second

func clockSeed() uint64 { return uint64(time.Now().UnixNano()) }

// botEvent is what the bot's connection reader reports.
type botEvent struct {
	seg  segment.Segment
	down error // set when the connection ended
}

// runBot plays as cfg.user until cfg.games games are finished (or forever),
// reconnecting like the reference client. It writes one line per notice.
func runBot(ctx context.Context, cfg config, logw io.Writer) error {
	b := client.NewBot(cfg.user, cfg.password, rand.New(rand.NewPCG(cfg.seed, cfg.seed^0x9e3779b97f4a7c15)))
	b.Invite, b.Games, b.Level = cfg.invite, cfg.games, cfg.level
	fmt.Fprintf(logw, "bot %s: level %s, %v before each guess\n", cfg.user, cfg.level, cfg.think)
	return playBot(ctx, b, cfg.addr, inviteRetry, cfg.think, logw)
}

// isGuess reports whether s is one of the bot's guesses.
func isGuess(s segment.Segment) bool {
	return s.Type == segment.SingleCoord || s.Type == segment.DoubleCoord
}

// playBot runs b over TCP against addr; it waits think before sending each
// guess, so a person can follow the game.
func playBot(ctx context.Context, b *client.Bot, addr string, pause, think time.Duration, logw io.Writer) error {
	logf := func(format string, args ...any) {
		fmt.Fprintf(logw, "bot %s: %s\n", b.User, fmt.Sprintf(format, args...))
	}
	for ctx.Err() == nil && !b.Done() {
		conn, err := (&net.Dialer{Timeout: dialTimeout}).DialContext(ctx, "tcp", addr)
		if err != nil {
			logf("server offline: %v; retrying in %v", err, reconnectDelay)
			if !sleep(ctx, reconnectDelay) {
				break
			}
			continue
		}
		err = botSession(ctx, b, conn, pause, think, logf)
		conn.Close()
		if b.C.State() == client.Kicked {
			return fmt.Errorf("%s logged in elsewhere; the bot stops", b.User)
		}
		if b.Failed() {
			return fmt.Errorf("login as %s refused", b.User)
		}
		if err != nil && ctx.Err() == nil && !b.Done() {
			logf("%v; reconnecting in %v", err, reconnectDelay)
			sleep(ctx, reconnectDelay)
		}
	}
	logf("done: %d games, %d won", b.Played(), b.Won())
	return nil
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// botSession runs one connection until it drops, the bot is done or ctx ends.
func botSession(ctx context.Context, b *client.Bot, conn net.Conn, pause, think time.Duration, logf func(string, ...any)) error {
	events := make(chan botEvent, 64)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		var d segment.Decoder
		for {
			n, err := conn.Read(d.Free())
			d.Commit(n)
			for {
				s, ok, derr := d.Next()
				if derr != nil {
					err = derr
					break
				}
				if !ok {
					break
				}
				select {
				case events <- botEvent{seg: s}:
				case <-stop:
					return
				}
			}
			if err != nil {
				select {
				case events <- botEvent{down: err}:
				case <-stop:
				}
				return
			}
		}
	}()
	write := func(o client.Out) error {
		for _, n := range o.Notices {
			logf("%s", n)
			if n.Kind == client.NoticeGameOver {
				logf("game %d over after %d guesses: %d won so far", b.Played(), b.C.Guesses(), b.Won())
			}
		}
		if len(o.Send) == 0 {
			return nil
		}
		var buf []byte
		for _, s := range o.Send {
			if think > 0 && isGuess(s) {
				// Think before the guess: what came before it goes now.
				if len(buf) > 0 {
					if _, err := conn.Write(buf); err != nil {
						return err
					}
					buf = buf[:0]
				}
				if !sleep(ctx, think) {
					return ctx.Err()
				}
			}
			buf = s.AppendTo(buf)
		}
		_, err := conn.Write(buf)
		return err
	}
	if err := write(b.Connected()); err != nil {
		return err
	}
	var retry <-chan time.Time
	for !b.Done() && !b.Failed() {
		if b.WantsRetry() && retry == nil {
			retry = time.After(pause)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-retry:
			retry = nil
			if err := write(b.Retry()); err != nil {
				return err
			}
		case ev := <-events:
			if ev.down != nil {
				write(b.Disconnected())
				return ev.down
			}
			if err := write(b.Receive(ev.seg)); err != nil {
				return err
			}
			if b.C.State() == client.Kicked {
				return nil
			}
		}
	}
	return nil
}
