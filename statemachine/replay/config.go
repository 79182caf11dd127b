package replay

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/bomber-game/bomber/segment/transcript"
	"github.com/bomber-game/bomber/statemachine"
)

// ConfigFromNotes reads the hub configuration a transcript asks for in
// narration lines of the form "# config: key=value ...". Keys: dialect
// (reference|document), first (inviter|invitee), kick-grace and
// login-timeout (Go durations), hide-unknown-users (true|false),
// login-failures, login-window, login-lockout, segment-rate, segment-burst,
// signups-per-address, signups-per-hour, and seed (read by SeedOf and fed to the hub by the Runner where the note
// stands: the seed of the generator every table's seed, join code and
// resume token come from; a transcript replays only with the seed it was
// recorded with; 0 when absent).
// Every game of statemachine.Catalogue is offered.
func ConfigFromNotes(entries []transcript.Entry) (statemachine.Config, error) {
	cfg := statemachine.Config{Games: statemachine.Catalogue()}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Comment, "config:")
		if e.Op != transcript.Note || !ok {
			continue
		}
		for _, kv := range strings.Fields(rest) {
			k, v, _ := strings.Cut(kv, "=")
			var err error
			switch k {
			case "dialect":
				cfg.Dialect, err = statemachine.ParseDialect(v)
			case "first":
				switch v {
				case "inviter":
					cfg.First = statemachine.Inviter
				case "invitee":
					cfg.First = statemachine.Invitee
				default:
					err = fmt.Errorf("want inviter or invitee")
				}
			case "kick-grace":
				cfg.KickGrace, err = time.ParseDuration(v)
			case "login-timeout":
				cfg.LoginTimeout, err = time.ParseDuration(v)
			case "hide-unknown-users":
				cfg.HideUnknownUsers = v == "true"
			case "login-failures":
				cfg.LoginFailures, err = strconv.Atoi(v)
			case "login-window":
				cfg.LoginWindow, err = time.ParseDuration(v)
			case "login-lockout":
				cfg.LoginLockout, err = time.ParseDuration(v)
			case "segment-rate":
				cfg.SegmentRate, err = strconv.Atoi(v)
			case "segment-burst":
				cfg.SegmentBurst, err = strconv.Atoi(v)
			case "signups-per-address":
				cfg.SignUpsPerAddress, err = strconv.Atoi(v)
			case "signups-per-hour":
				cfg.SignUpsPerHour, err = strconv.Atoi(v)
			case "seed":
				_, err = strconv.ParseUint(v, 10, 64)
			default:
				err = fmt.Errorf("unknown key")
			}
			if err != nil {
				return cfg, fmt.Errorf("line %d: config %s: %w", e.Line, kv, err)
			}
		}
	}
	return cfg, nil
}

// SeedOf is the generator seed a transcript's notes ask for ("# config:
// seed=N"), 0 when none does: a server replaying the transcript over
// sockets starts its hub on it (the in-process Runner feeds it itself).
func SeedOf(entries []transcript.Entry) uint64 {
	var n uint64
	for _, e := range entries {
		if v, ok := seedNote(e); ok {
			n = v
		}
	}
	return n
}

// seedNote reads the seed of a config note.
func seedNote(e transcript.Entry) (uint64, bool) {
	rest, ok := strings.CutPrefix(e.Comment, "config:")
	if e.Op != transcript.Note || !ok {
		return 0, false
	}
	for _, kv := range strings.Fields(rest) {
		if v, ok := strings.CutPrefix(kv, "seed="); ok {
			n, err := strconv.ParseUint(v, 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// BotOracle answers a server's bot requests with the bot lines of a
// transcript, so a transcript with computer players replays exactly
// against a real server (whose own bots could choose otherwise, or run out
// of time on a loaded machine).
func BotOracle(entries []transcript.Entry) func(statemachine.BotRequest) (statemachine.BotAnswer, error) {
	moves := map[[3]uint32]string{}
	for _, e := range entries {
		if e.Op == transcript.Bot {
			moves[[3]uint32{e.Bot.Table, uint32(e.Bot.Seat), e.Bot.Seq}] = e.Bot.Move
		}
	}
	return func(r statemachine.BotRequest) (statemachine.BotAnswer, error) {
		m, ok := moves[[3]uint32{r.Table, uint32(r.Seat), r.Seq}]
		if !ok {
			return statemachine.BotAnswer{}, fmt.Errorf("the transcript has no bot move for table %d seat %d at %d", r.Table, r.Seat, r.Seq)
		}
		return statemachine.BotAnswer{Table: r.Table, Seat: r.Seat, Seq: r.Seq, Move: m}, nil
	}
}

// Seeds is an entropy source for a server (server.Config.Entropy) whose
// hub is to start where a transcript's does: every seed it gives is
// statemachine.SeedInput(n)'s, so a transcript recorded in process with
// "seed=n" replays byte for byte over sockets.
func Seeds(n uint64) io.Reader { return seedReader(statemachine.SeedInput(n).Seed) }

type seedReader [32]byte

func (s seedReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = s[i%len(s)]
	}
	return len(p), nil
}

// InputLog is the inputs of a transcript's "in" lines (a capture's), one
// after another in their wire form: what the hub got, as statemachine's
// fuzz target FuzzInputs and ReadInput take it.
func InputLog(entries []transcript.Entry) []byte {
	var b []byte
	for _, e := range entries {
		if e.Op == transcript.Input {
			b = append(b, e.Data...)
		}
	}
	return b
}
