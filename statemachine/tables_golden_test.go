package statemachine_test

import (
	"bytes"
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/segment/transcript"
	"github.com/bomber-game/bomber/statemachine/replay"
)

var generate = flag.Bool("generate", false, "rewrite the extended-protocol golden transcripts from their scenarios (then review them)")

// TestGenerateTableTranscripts writes the golden transcripts of the
// extended protocol from the scenarios in testdata/scenarios (with
// -generate only). The scenarios say what clients send; the hub's answers
// are recorded once, reviewed, and from then on TestGolden (and the socket
// and daemon tests) hold the hub to them.
func TestGenerateTableTranscripts(t *testing.T) {
	if !*generate {
		t.Skip("run with -generate to rewrite the transcripts from testdata/scenarios")
	}
	files, _ := filepath.Glob("testdata/scenarios/*.txt")
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var notes []transcript.Entry
		for _, l := range strings.Split(string(raw), "\n") {
			if strings.HasPrefix(l, "# config:") {
				notes = append(notes, transcript.Entry{At: -1, Op: transcript.Note, Comment: strings.TrimPrefix(l, "# ")})
			}
		}
		cfg, err := replay.ConfigFromNotes(notes)
		if err != nil {
			t.Fatal(err)
		}
		r := replay.New(cfg, replay.DemoAccounts())
		r.PlayBots = true
		for n, l := range strings.Split(string(raw), "\n") {
			if strings.TrimSpace(l) == "" {
				continue
			}
			for _, e := range scenarioLine(t, r, l) {
				e.Line = n + 1
				r.Feed(e)
			}
		}
		var b bytes.Buffer
		if err := transcript.Write(&b, r.Output(), true); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join("../testdata/transcripts", filepath.Base(file))
		if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// scenarioLine turns one scenario line into transcript entries. Lines are
// transcript lines (comments, open, close, clock, raw "> hex"), or
// "CONN VERB ARGS" for a message; "$code:CONN" stands for the join code in
// the last Table message CONN received.
func scenarioLine(t *testing.T, r *replay.Runner, l string) []transcript.Entry {
	t.Helper()
	f := strings.Fields(l)
	if strings.HasPrefix(l, "#") || len(f) >= 2 && (f[1] == "open" || f[1] == "close" || f[1] == ">") || f[0] == "clock" || f[0] == "store" {
		e, ok, err := transcript.ParseLine(l)
		if err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		if !ok {
			return nil
		}
		return []transcript.Entry{e}
	}
	conn, verb, args := f[0], f[1], f[2:]
	for i, a := range args {
		if from, ok := strings.CutPrefix(a, "$code:"); ok {
			args[i] = lastCode(r, from)
		}
		if from, ok := strings.CutPrefix(a, "$token:"); ok {
			args[i] = lastToken(r, from)
		}
	}
	num := func(i int) uint64 {
		n, err := strconv.ParseUint(args[i], 0, 32)
		if err != nil {
			t.Fatalf("%q: argument %d: %v", l, i, err)
		}
		return n
	}
	str := func(i int) string {
		if i < len(args) {
			return args[i]
		}
		return ""
	}
	rest := func(i int) string {
		_, after, _ := strings.Cut(l, " "+verb+" ")
		parts := strings.SplitN(after, " ", i+1)
		if len(parts) <= i {
			return ""
		}
		return parts[i]
	}
	var t8 segment.Type
	var body []byte
	seg := func(s segment.Segment) []transcript.Entry {
		return []transcript.Entry{{At: -1, Conn: conn, Op: transcript.Send, Data: s.AppendTo(nil)}}
	}
	switch verb {
	case "info":
		return seg(segment.Name(segment.Info, args[0]))
	case "pass":
		return seg(segment.Name(segment.Passwd, args[0]))
	case "invite":
		return seg(segment.Name(segment.SendInvit, args[0]))
	case "accept":
		return seg(segment.Code(segment.InvitResponse, 1))
	case "hello":
		t8, body = segment.Hello, segment.HelloMsg{Version: 1, Features: uint32(num(0))}.Append(nil)
	case "catalog":
		t8 = segment.CatalogReq
	case "list":
		t8 = segment.ListReq
	case "create": // create GAME SEATS FLAGS [key=value...]
		m := segment.CreateMsg{Game: args[0], Seats: uint8(num(1)), Flags: uint8(num(2))}
		for _, kv := range args[3:] {
			k, v, _ := strings.Cut(kv, "=")
			m.Options = append(m.Options, segment.KV{Key: k, Value: v})
		}
		t8, body = segment.Create, m.Append(nil)
	case "join": // join TABLE SEAT [CODE]
		t8, body = segment.Join, segment.JoinMsg{Table: uint32(num(0)), Seat: uint8(num(1)), Code: str(2)}.Append(nil)
	case "watch": // watch TABLE [CODE]
		t8, body = segment.Watch, segment.WatchMsg{Table: uint32(num(0)), Code: str(1)}.Append(nil)
	case "leave":
		t8 = segment.Leave
	case "tinvite":
		t8, body = segment.Invite, segment.InviteMsg{User: args[0]}.Append(nil)
	case "ready":
		t8 = segment.Ready
	case "move": // move KIND HEXARGS
		m := segment.MoveMsg{Kind: uint8(num(0))}
		if len(args) > 1 {
			a, err := hex.DecodeString(args[1])
			if err != nil {
				t.Fatal(err)
			}
			m.Len = uint8(copy(m.Arg[:], a))
		}
		t8, body = segment.Move, m.Append(nil)
	case "text":
		t8, body = segment.MoveText, []byte(rest(0))
	case "view":
		t8 = segment.ViewReq
	case "offer": // offer WHAT ANSWER
		t8, body = segment.Offer, segment.OfferMsg{What: uint8(num(0)), Answer: uint8(num(1))}.Append(nil)
	case "resign":
		t8 = segment.Resign
	case "bot": // bot SEAT
		t8, body = segment.Bot, segment.BotMsg{Seat: uint8(num(0))}.Append(nil)
	case "resume": // resume TABLE SEAT TOKENHEX LASTSEQ
		m := segment.ResumeMsg{Table: uint32(num(0)), Seat: uint8(num(1)), LastSeq: uint32(num(3))}
		tok, _ := hex.DecodeString(args[2])
		copy(m.Token[:], tok)
		t8, body = segment.Resume, m.Append(nil)
	case "bye":
		t8 = segment.Bye
	case "signup": // signup NAME PASSWORD
		t8, body = segment.SignUp, segment.SignUpMsg{Name: args[0], Password: str(1)}.Append(nil)
	case "seek": // seek ACTION [GAME RATED key=value...]
		m := segment.SeekMsg{Action: uint8(num(0)), Game: str(1)}
		if len(args) > 2 {
			m.Rated = uint8(num(2))
			for _, kv := range args[3:] {
				k, v, _ := strings.Cut(kv, "=")
				m.Options = append(m.Options, segment.KV{Key: k, Value: v})
			}
		}
		t8, body = segment.Seek, m.Append(nil)
	case "history": // history WHAT USER|- GAME|- PAGE
		dash := func(i int) string { return strings.TrimPrefix(str(i), "-") }
		t8, body = segment.HistoryReq, segment.HistoryReqMsg{What: uint8(num(0)), User: dash(1), Game: dash(2), Page: uint16(num(3))}.Append(nil)
	case "replay": // replay GAMEID PLY
		t8, body = segment.ReplayReq, segment.ReplayReqMsg{ID: uint64(num(0)), Ply: uint16(num(1))}.Append(nil)
	case "account": // account WHAT PASSWORD [NEW]
		t8, body = segment.Account, segment.AccountMsg{What: uint8(num(0)), Password: str(1), New: str(2)}.Append(nil)
	case "hints": // hints TABLE [HEXCHOSEN...]
		chosen, err := hex.DecodeString(strings.Join(args[1:], ""))
		if err != nil {
			t.Fatal(err)
		}
		t8, body = segment.HintReq, segment.HintReqMsg{Table: uint32(num(0)), Chosen: chosen}.Append(nil)
	case "chat": // chat SCOPE TEXT...
		t8, body = segment.Chat, segment.ChatBody{Scope: uint8(num(0)), Text: rest(1)}.Append(nil)
	default:
		t.Fatalf("bad scenario line %q", l)
	}
	var out []transcript.Entry
	for _, s := range segment.AppendMessage(nil, t8, body) {
		out = append(out, seg(s)...)
	}
	return out
}

// lastToken is the resume token (hex) in the last Seated message conn received.
func lastToken(r *replay.Runner, conn string) string {
	if sb, err := segment.DecodeSeatedBody(lastMessage(r, conn, segment.Seated, nil)); err == nil {
		return hex.EncodeToString(sb.Token[:])
	}
	return "00"
}

// lastCode is the join code in the last Table message conn received that had one.
func lastCode(r *replay.Runner, conn string) string {
	tb, _ := segment.DecodeTableBody(lastMessage(r, conn, segment.TableInfo, func(body []byte) bool {
		tb, err := segment.DecodeTableBody(body)
		return err == nil && tb.Code != ""
	}))
	return tb.Code
}

// lastMessage is the body of the last message of type t (that keep accepts,
// when given) conn received so far.
func lastMessage(r *replay.Runner, conn string, t segment.Type, keep func([]byte) bool) []byte {
	var asm segment.Assembler
	var last []byte
	for _, e := range r.Output() {
		if e.Op != transcript.Recv || e.Conn != conn {
			continue
		}
		s, err := segment.Parse(e.Data)
		if err != nil || !s.Type.Extended() {
			continue
		}
		if mt, body, done, err := asm.Add(s); err == nil && done && mt == t && (keep == nil || keep(body)) {
			last = bytes.Clone(body)
		}
	}
	return last
}
