package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/segment/transcript"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/statemachine"
)

// replayFlag names the capture a tester's daemon replays (bomberd
// --replay-inputs FILE): see server.ReplayLog.
const replayFlag = "replay-inputs"

// replayLog reads a capture's input log ("in" lines) for a daemon that
// serves the recorded world to bomber-replay's clients. It is refused on a
// daemon reachable from elsewhere: every answer of such a daemon is the
// capture's, whoever logs in.
func replayLog(file string, exposed []string, clustered bool, log *zap.Logger) (*server.ReplayLog, error) {
	if len(exposed) > 0 {
		return nil, fmt.Errorf("--%s is for testers on loopback; this daemon listens on %v", replayFlag, exposed)
	}
	if clustered {
		return nil, fmt.Errorf("--%s replays the world of one daemon, not in a cluster (cluster.nats_url is set)", replayFlag)
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("--%s: %w", replayFlag, err)
	}
	entries, err := transcript.Parse(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("--%s: %s: %w", replayFlag, file, err)
	}
	inputs, err := replayInputs(entries)
	if err != nil {
		return nil, fmt.Errorf("--%s: %s: %w", replayFlag, file, err)
	}
	l, err := server.NewReplayLog(inputs, log)
	if err != nil {
		return nil, fmt.Errorf("--%s: %s: %w", replayFlag, file, err)
	}
	log.Warn("replaying a capture: the world served is the recorded one (tests only)", zap.String("file", file), zap.Int("inputs", len(inputs)))
	return l, nil
}

// noStore answers every account check of a replaying daemon as
// unavailable without asking the store: the hub never gets the answer
// (the capture's is the input), so asking would only register accounts
// or count failures in a store the replay has nothing to do with.
func noStore(context.Context, statemachine.Check) statemachine.Answer {
	return statemachine.Unavailable
}

// replayInputs are a capture's "in" lines, each with the connections the
// shell let go of just before it: the "close" lines, and the "closed"
// lines of connections the hub was told of as closed (the shell closed
// them, where a "closed" line alone is the hub's doing).
func replayInputs(entries []transcript.Entry) ([]server.ReplayInput, error) {
	shell := map[string]bool{}
	var in statemachine.Input
	for _, e := range entries {
		if e.Op == transcript.Input {
			if _, _, err := statemachine.ReadInput(e.Data, &in); err == nil && in.Kind == statemachine.InClosed {
				shell[fmt.Sprintf("c%d", in.Conn)] = true
			}
		}
	}
	var out []server.ReplayInput
	var letGo []statemachine.ConnID
	for _, e := range entries {
		switch {
		case e.Op == transcript.Input:
			out = append(out, server.ReplayInput{Data: e.Data, LetGo: letGo})
			letGo = nil
		case e.Op == transcript.Close || e.Op == transcript.Closed && shell[e.Conn]:
			id, err := strconv.ParseUint(strings.TrimPrefix(e.Conn, "c"), 10, 64)
			if err != nil || !strings.HasPrefix(e.Conn, "c") {
				return nil, fmt.Errorf("line %d: connection %q is not named as a capture names them", e.Line, e.Conn)
			}
			letGo = append(letGo, statemachine.ConnID(id))
		}
	}
	return out, nil
}
