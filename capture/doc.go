// Package capture records bomberd's traffic in the transcript text format of
// docs/protocol.md (section 7), so a tester can replay what real clients did
// with cmd/bomber-replay or add it to testdata/transcripts as a golden test.
//
// A Capture implements server.Tap. All connections go into one file, in the
// order the daemon's engine saw things happen, because that order (who logged
// in before whom, who invited whom) is what a replay needs to reproduce the
// server's answers; one file per connection would lose it. Each line carries
// a time stamp (t=SECONDS since the file began) and the connection's name,
// "c" followed by the engine's connection id:
//
//	t=0.000000 c1 open  # from 127.0.0.1:50432
//	t=0.001250 c1 > 00 00 06 4e 6f 76 61 74 65  # Info "Novate"
//	t=0.003000 c1 < 01 00 01 01  # InfoResp 1 (OK)
//	t=9.000000 c1 close
//
// '>' lines hold the bytes exactly as one read delivered them; '<' lines hold
// one segment each, as the state machine queued it. "close" means the client
// hung up, "closed" that the server ended the connection.
//
// "in" lines hold every input the hub got (Tap.Input), in statemachine's
// wire form with the daemon's time, and a comment saying what it is:
//
//	t=0.001300 in 02 c0 d8 9e 01 01 00 00 06 4e 6f 76 61 74 65  # receive c1: Info "Novate"
//	t=0.002900 in 04 c0 80 e2 02 01 00  # answer check 1: found
//
// Connections opened and closed, client segments (a password as the
// daemon's stand-in), account answers, computer players' moves, ticks,
// settings, the hub's seed and the shutdown are all inputs, so a capture
// replays exactly in process from its "in" lines alone (statemachine/replay,
// cmd/bomber-replay), with no accounts, bots or clock; the daemon writes the
// '<' and "closed" lines the hub made of an input right after it. A
// computer player's move is also written as a "bot TABLE SEAT SEQ MOVE"
// line, for replays against a running daemon (replay.BotOracle).
//
// Passwords are masked unless Config.ShowPasswords is set: every byte of a
// Passwd payload is written as '*' (0x2a), keeping the length so the framing
// of the recorded stream stays valid, and the comment reads "Passwd (masked)".
// A SignUp keeps its name; every byte after it (the password and its
// length) is written as '*'. An Account message keeps its first byte (what
// it asks); both passwords and their lengths are written as '*'.
//
// Files are named capture-<UTC time>-<sequence>.txt and rotated when the next
// line would take one past Config.MaxFileBytes; beyond Config.MaxFiles the
// oldest capture files in the directory are deleted. A file after the first
// names the file it continues, and the connections open when it began, in
// narration lines: its inputs change a hub whose state the earlier files
// built, so the files of one run replay together, concatenated in name
// order.
//
// The Tap methods run on the engine goroutine and never block on the disk:
// they format a line and append it to a bounded in-memory queue that a
// background goroutine writes out. When the disk falls behind by more than
// Config.MaxPending bytes, lines are dropped and the file says how many.
package capture
