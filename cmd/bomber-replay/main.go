// Command bomber-replay replays recorded transcripts (golden files, bomberd
// captures, converted pcaps) and reports every difference between the
// server's actual answers and the recorded ones.
//
//	bomber-replay [flags] FILE|DIR ...
//
// A directory stands for every *.txt in it. With --addr the client side of
// each transcript drives a running bomberd over TCP and each connection's
// answers are compared in order (netreplay); without it, the transcript runs
// through the state machine in-process, with no sockets, clock or database,
// and the whole transcript is compared in order across connections. A
// bomberd capture is replayed in process from its "in" lines (every input
// its hub got: account answers, computer players' moves, ticks and seed
// included), so it needs none of the options below to replay exactly. Over
// TCP a capture replays byte for byte against a daemon started with
// "bomberd --replay-inputs FILE" on it, which takes those inputs from the
// capture (docs/testing.md); its "in" lines are not steps here.
//
// Flags:
//
//	--addr HOST:PORT   drive a running server
//	--inprocess        run the state machine in-process (the default without --addr)
//	--timing fast|recorded
//	                   fast (default): as fast as the answers come; recorded:
//	                   keep the recorded time stamps (t=): over TCP by sleeping,
//	                   in-process by advancing the hub's clock to each stamp so
//	                   timeouts fire as they did
//	--ignore NAME      do not report a kind of difference (repeatable):
//	                     types:0x06,0x07  '<' segments of these descriptors
//	                     closed           'closed' lines (server hang-ups)
//	                     order            order across connections (in-process;
//	                                      over TCP only per-connection order is
//	                                      ever compared)
//	                     unopened         connections with no 'open' line
//	                                      (a capture file that began mid-session)
//	--accounts FILE    in-process accounts, "user password" per line (default:
//	                   the demo accounts Novate, Twofyw, Larry, Albert, Beth,
//	                   Cindy with password 123)
//	--masked           the transcripts' passwords are masked ('*' per byte):
//	                   compare them with the accounts' passwords masked alike
//	--timeout D        over TCP, how long to wait for one step's answers (2s)
//
// Game records (package rules/record, as bomberd stores them) are replayed
// through the game's rules instead, each checked to reproduce its stored
// outcome and scores (a changed move, winner or score fails):
//
//	bomber-replay --record FILE.json ...
//	bomber-replay --store sqlite:PATH|mysql:DSN [--id ID]...
//
//	--record FILE      a record as "bomberctl games export ID --json" writes
//	                   it, or a JSON array of them (repeatable)
//	--store S          records from an account store (opened, and migrated,
//	                   as bomberd opens it); --id picks records (repeatable),
//	                   by default the newest 1000
//
// It prints a diff per failing transcript ("-" recorded, "+" actual), or
// why a record failed, and a summary line "N passed, M failed". Exit status: 0 when every transcript
// or record replays as recorded, 1 on any difference, 2 on a usage, file
// or connection error (or a record of a game this build does not know).
package main

import (
	"errors"
	"io"
	"os"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// Exit statuses.
const (
	exitOK    = 0
	exitDiff  = 1
	exitUsage = 2
)

// run is the whole command, testable: it parses args, replays and reports.
func run(args []string, stdout, stderr io.Writer) int {
	opt, files, err := parseArgs(args, stdout, stderr)
	if errors.Is(err, errDone) {
		return exitOK
	}
	if err != nil {
		return exitUsage
	}
	if opt.recordMode() {
		return replayRecords(opt, stdout, stderr)
	}
	return replayAll(opt, files, stdout, stderr)
}
