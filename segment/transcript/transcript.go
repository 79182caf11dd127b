// Package transcript reads and writes segment streams as text: the golden
// transcripts under testdata/ and the captures testers record and replay.
//
// One line per event:
//
//	[t=SECONDS] CONN open                  client connects
//	[t=SECONDS] CONN > HEX... [# comment]  bytes from client to server
//	[t=SECONDS] CONN < HEX... [# comment]  one whole segment from server to client
//	[t=SECONDS] CONN close                 client closes its end
//	[t=SECONDS] CONN closed                server closed the connection
//	clock +DURATION                        time passes (Go duration: 90s, 5m)
//	store down | store up                  the account store fails / recovers
//	[t=SECONDS] bot TABLE SEAT SEQ MOVE    a computer player's move
//	[t=SECONDS] in HEX...                  one of the hub's inputs (captures)
//	# comment                              narration (kept when rewritten)
//
// CONN is a name made of letters, digits, '-', '_' and '.'. HEX is bytes as
// two hex digits each, separated by spaces. A '>' line may hold any bytes (a
// partial segment, several segments, garbage); a '<' line holds exactly one
// segment. The optional time stamp is seconds since the start of the capture.
package transcript

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/bomber-game/bomber/segment"
)

// Op is what a line records.
type Op uint8

// Line operations.
const (
	Open      Op = iota // CONN open
	Send                // CONN > bytes (client to server)
	Recv                // CONN < segment (server to client)
	Close               // CONN close (client closes)
	Closed              // CONN closed (server closed)
	Clock               // clock +DURATION
	StoreDown           // store down
	StoreUp             // store up
	Note                // a comment line, kept for people reading the file
	Bot                 // bot TABLE SEAT SEQ MOVE: a computer player's move (an input, like a client's bytes)
	Input               // in BYTES: one of the hub's inputs as the hub got it (statemachine's wire form, its time the daemon engine's, in ns)
)

// Entry is one line.
type Entry struct {
	At      time.Duration // time stamp; -1 when the line has none
	Conn    string
	Op      Op
	Data    []byte        // Send: raw bytes; Recv: one whole segment; Input: the input's wire form
	Advance time.Duration // Clock
	Comment string
	Line    int     // 1-based line number when parsed
	Bot     BotMove // Bot
}

// BotMove is the computer player's move in a seat: the hub's BotAnswer.
type BotMove struct {
	Table uint32
	Seat  int8
	Seq   uint32
	Move  string // in the game's notation
}

// ErrSyntax: a line does not follow the format.
var ErrSyntax = errors.New("transcript syntax error")

// Parse reads a whole transcript.
func Parse(r io.Reader) ([]Entry, error) {
	var out []Entry
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		e, ok, err := ParseLine(sc.Text())
		if err != nil {
			return out, fmt.Errorf("line %d: %w", n, err)
		}
		if ok {
			e.Line = n
			out = append(out, e)
		}
	}
	return out, sc.Err()
}

// ParseLine reads one line; ok is false for a blank line. A trailing
// comment on a segment line is taken as the decoded description and is
// regenerated when written.
func ParseLine(line string) (e Entry, ok bool, err error) {
	e.At = -1
	if t := strings.TrimSpace(line); strings.HasPrefix(t, "#") {
		e.Op, e.Comment = Note, strings.TrimSpace(t[1:])
		return e, true, nil
	}
	body, comment, _ := strings.Cut(line, "#")
	e.Comment = strings.TrimSpace(comment)
	f := strings.Fields(body)
	if len(f) == 0 {
		return e, false, nil
	}
	if ts, found := strings.CutPrefix(f[0], "t="); found {
		sec, err := strconv.ParseFloat(ts, 64)
		if err != nil || sec < 0 {
			return e, false, fmt.Errorf("%w: bad time stamp %q", ErrSyntax, f[0])
		}
		e.At = time.Duration(sec * float64(time.Second))
		f = f[1:]
		if len(f) == 0 {
			return e, false, fmt.Errorf("%w: time stamp alone", ErrSyntax)
		}
	}
	switch {
	case f[0] == "clock":
		if len(f) != 2 || !strings.HasPrefix(f[1], "+") {
			return e, false, fmt.Errorf("%w: want 'clock +DURATION'", ErrSyntax)
		}
		d, err := time.ParseDuration(f[1][1:])
		if err != nil || d < 0 {
			return e, false, fmt.Errorf("%w: bad duration %q", ErrSyntax, f[1])
		}
		e.Op, e.Advance = Clock, d
		return e, true, nil
	case f[0] == "bot" && len(f) >= 5 && f[1] != ">" && f[1] != "<":
		tb, err1 := strconv.ParseUint(f[1], 10, 32)
		seat, err2 := strconv.ParseInt(f[2], 10, 8)
		seq, err3 := strconv.ParseUint(f[3], 10, 32)
		if err1 != nil || err2 != nil || err3 != nil {
			return e, false, fmt.Errorf("%w: want 'bot TABLE SEAT SEQ MOVE'", ErrSyntax)
		}
		e.Op, e.Comment = Bot, ""
		e.Bot = BotMove{Table: uint32(tb), Seat: int8(seat), Seq: uint32(seq), Move: strings.Join(f[4:], " ")}
		return e, true, nil
	case f[0] == "in" && len(f) >= 2 && f[1] != ">" && f[1] != "<":
		b, err := hexBytes(f[1:])
		if err != nil {
			return e, false, err
		}
		e.Op, e.Data = Input, b
		return e, true, nil
	case f[0] == "store":
		if len(f) != 2 || (f[1] != "down" && f[1] != "up") {
			return e, false, fmt.Errorf("%w: want 'store down' or 'store up'", ErrSyntax)
		}
		e.Op = StoreUp
		if f[1] == "down" {
			e.Op = StoreDown
		}
		return e, true, nil
	}
	if len(f) < 2 || !validConn(f[0]) {
		return e, false, fmt.Errorf("%w: want CONN and an operation", ErrSyntax)
	}
	e.Conn = f[0]
	switch f[1] {
	case "open", "close", "closed":
		if len(f) != 2 {
			return e, false, fmt.Errorf("%w: %s takes no bytes", ErrSyntax, f[1])
		}
		e.Op = map[string]Op{"open": Open, "close": Close, "closed": Closed}[f[1]]
		return e, true, nil
	case ">", "<":
		if len(f) < 3 {
			return e, false, fmt.Errorf("%w: %s without bytes", ErrSyntax, f[1])
		}
		if e.Data, err = hexBytes(f[2:]); err != nil {
			return e, false, err
		}
		e.Op, e.Comment = Send, ""
		if f[1] == "<" {
			e.Op = Recv
			if _, err := segment.Parse(e.Data); err != nil {
				return e, false, fmt.Errorf("%w: '<' line is not one segment: %w", ErrSyntax, err)
			}
		}
		return e, true, nil
	}
	return e, false, fmt.Errorf("%w: unknown operation %q", ErrSyntax, f[1])
}

// hexBytes reads fields of one hex byte each.
func hexBytes(f []string) ([]byte, error) {
	out := make([]byte, 0, len(f))
	for _, h := range f {
		b, err := hex.DecodeString(h)
		if err != nil || len(b) != 1 {
			return nil, fmt.Errorf("%w: %q is not one hex byte", ErrSyntax, h)
		}
		out = append(out, b[0])
	}
	return out, nil
}

func validConn(s string) bool {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return s != "" && s != "clock" && s != "store" && s != "in"
}

// String writes e as one line, with a decoded comment for segment lines
// (passwords masked unless showPasswords) when e has no comment of its own.
func (e Entry) String() string { return e.Format(false) }

// Format is String with control over password masking in generated comments.
func (e Entry) Format(showPasswords bool) string {
	var b strings.Builder
	if e.At >= 0 {
		fmt.Fprintf(&b, "t=%.6f ", e.At.Seconds())
	}
	switch e.Op {
	case Note:
		return "# " + e.Comment
	case Clock:
		b.WriteString("clock +" + e.Advance.String())
	case StoreDown:
		b.WriteString("store down")
	case StoreUp:
		b.WriteString("store up")
	case Bot:
		fmt.Fprintf(&b, "bot %d %d %d %s", e.Bot.Table, e.Bot.Seat, e.Bot.Seq, e.Bot.Move)
	case Input:
		b.WriteString("in")
		for _, x := range e.Data {
			fmt.Fprintf(&b, " %02x", x)
		}
	case Open, Close, Closed:
		b.WriteString(e.Conn + " " + [...]string{Open: "open", Close: "close", Closed: "closed"}[e.Op])
	case Send, Recv:
		dir := ">"
		if e.Op == Recv {
			dir = "<"
		}
		b.WriteString(e.Conn + " " + dir)
		for _, x := range e.Data {
			fmt.Fprintf(&b, " %02x", x)
		}
	}
	c := e.Comment
	if e.Op == Send || e.Op == Recv {
		c = Describe(e.Data, showPasswords)
	}
	if c != "" {
		b.WriteString("  # " + c)
	}
	return b.String()
}

// Describe decodes raw bytes on their own for a comment: the segments they
// hold (reference and extended), and what is left over or malformed.
func Describe(data []byte, showPasswords bool) string {
	var d segment.Decoder
	d.SetDialect(segment.DialectExtended)
	return describe(&d, nil, data, showPasswords)
}

// DescribeStream decodes data as the continuation of the client stream d
// has seen (a segment split over several lines is described where it
// completes), for the comment of a '>' line. Each segment is described on
// its own; Stream also joins the fragments of extended messages.
func DescribeStream(d *segment.Decoder, data []byte, showPasswords bool) string {
	return describe(d, nil, data, showPasswords)
}

// Stream is one direction of one connection as comments describe it: the
// decoder carries a segment split over lines, the assembler the fragments
// of an extended message, so the segment that completes a message is
// described with the whole message. The zero value reads a client stream
// (extended once it starts with Hello); set Dec's dialect to
// segment.DialectExtended for a server stream.
type Stream struct {
	Dec segment.Decoder
	Asm segment.Assembler
}

// Describe describes data as the continuation of the stream.
func (st *Stream) Describe(data []byte, showPasswords bool) string {
	return describe(&st.Dec, &st.Asm, data, showPasswords)
}

func describe(d *segment.Decoder, a *segment.Assembler, data []byte, showPasswords bool) string {
	if d.Err() != nil || a != nil && a.Err() != nil {
		return "after a protocol error"
	}
	var parts []string
	carried := d.Buffered()
	var aerr error
	if _, err := d.Feed(data, func(s segment.Segment) bool {
		desc := s.Describe(showPasswords)
		if a != nil {
			t, body, done, err := a.Add(s)
			if err != nil {
				aerr = err
				return false
			}
			if done && t.Extended() && len(body) > segment.MaxPayload {
				desc = segment.DescribeMessage(t, body) + fmt.Sprintf(" (%d bytes in %d segments)",
					len(body), (len(body)+segment.MaxPayload-1)/segment.MaxPayload)
			}
		}
		if carried > 0 {
			desc += " (completed)"
			carried = 0
		}
		parts = append(parts, desc)
		return true
	}); err != nil || aerr != nil {
		return strings.Join(append(parts, "protocol error: "+errors.Join(err, aerr).Error()), "; ")
	}
	if d.Buffered() > 0 {
		parts = append(parts, fmt.Sprintf("%d bytes of an incomplete segment so far", d.Buffered()))
	}
	return strings.Join(parts, "; ")
}

// Write writes entries, one line each. Comments on '>' and '<' lines
// describe the bytes as a continuation of that connection's stream in that
// direction, so a segment split over several lines is described where it
// completes, and a fragmented extended message where its last segment is.
func Write(w io.Writer, entries []Entry, showPasswords bool) error {
	bw := bufio.NewWriter(w)
	type conn struct{ in, out Stream }
	conns := make(map[string]*conn)
	for _, e := range entries {
		line := e.Format(showPasswords)
		switch e.Op {
		case Open:
			delete(conns, e.Conn)
		case Send, Recv:
			c := conns[e.Conn]
			if c == nil {
				c = new(conn)
				c.out.Dec.SetDialect(segment.DialectExtended)
				conns[e.Conn] = c
			}
			st := &c.in
			if e.Op == Recv {
				st = &c.out
			}
			body, _, _ := strings.Cut(line, "  #")
			line = body + "  # " + st.Describe(e.Data, showPasswords)
		}
		if _, err := bw.WriteString(line + "\n"); err != nil {
			return err
		}
	}
	return bw.Flush()
}
