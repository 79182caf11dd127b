package statemachine_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/segment/transcript"
	"github.com/bomber-game/bomber/statemachine"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// script turns a compact client script into transcript entries; each line
// is "CONN open|close", "CONN TYPE ARG" with TYPE a segment name, or a
// transcript line.
func script(t *testing.T, lines ...string) []transcript.Entry {
	t.Helper()
	var out []transcript.Entry
	for _, l := range lines {
		f := strings.Fields(l)
		var seg segment.Segment
		switch {
		case len(f) >= 2 && (f[1] == "open" || f[1] == "close") || f[0] == "clock" || f[0] == "store":
			e, _, err := transcript.ParseLine(l)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, e)
			continue
		case f[1] == "info":
			seg = segment.Name(segment.Info, f[2])
		case f[1] == "pass":
			seg = segment.Name(segment.Passwd, f[2])
		case f[1] == "invite":
			seg = segment.Name(segment.SendInvit, f[2])
		case f[1] == "accept":
			seg = segment.Code(segment.InvitResponse, 1)
		case f[1] == "board":
			seg, _ = segment.Raw(segment.Board, []byte(strings.ReplaceAll(strings.Join(f[2:], ""), "-", "")))
		case f[1] == "single":
			seg, _ = segment.Raw(segment.SingleCoord, []byte(f[2]))
		case f[1] == "double":
			seg, _ = segment.Raw(segment.DoubleCoord, []byte(strings.ReplaceAll(f[2], "-", "")))
		case f[1] == "gameover":
			seg = segment.Empty(segment.GameOver)
		default:
			t.Fatalf("bad script line %q", l)
		}
		out = append(out, transcript.Entry{At: -1, Conn: f[0], Op: transcript.Send, Data: seg.AppendTo(nil)})
	}
	return out
}

func run(t *testing.T, cfg statemachine.Config, lines ...string) *replay.Runner {
	t.Helper()
	r := replay.New(cfg, replay.DemoAccounts())
	for _, e := range script(t, lines...) {
		r.Feed(e)
		if err := r.Hub().CheckInvariants(); err != nil {
			t.Fatalf("after %q: %v", e.String(), err)
		}
	}
	return r
}

var pairUp = []string{
	"a open", "a info Albert", "a pass 123", "b open", "b info Beth", "b pass 123",
	"a invite Beth", "b accept",
}

func TestRecords(t *testing.T) {
	win := append(append([]string{}, pairUp...),
		"clock +1s", "a board 02-32 07-37 52-82", "b board 02-32 07-37 57-87",
		"a double 02-32", "b single 99", "a double 07-37", "b single 98", "clock +1s", "a double 57-87")
	type want struct {
		reason  record.Reason
		winners []rules.Player
		leaver  rules.Player
		moves   []string
		end     int64
	}
	boards := []string{"02-32 07-37 52-82", "02-32 07-37 57-87"}
	tests := []struct {
		name  string
		lines []string
		want  want
	}{
		{"won", win, want{"won", []rules.Player{0}, rules.Spectator, append(boards, "02-32", "99", "07-37", "98", "57-87"), int64(2 * time.Second)}},
		{"abandoned while drawing", append(append([]string{}, pairUp...), "a board 02-32 07-37 52-82", "b close"),
			want{"abandoned", nil, 1, boards[:1], 0}},
		{"kicked while playing", append(append([]string{}, pairUp...), "a board 02-32 07-37 52-82", "b board 02-32 07-37 57-87", "a single 11", "a2 open", "a2 info Albert", "a2 pass 123"),
			want{"abandoned", nil, 0, append(boards, "11"), 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, statemachine.Config{}, tt.lines...)
			recs := r.Records()
			if len(recs) != 1 {
				t.Fatalf("%d records, want 1", len(recs))
			}
			rec := recs[0]
			var moves []string
			for _, m := range rec.Moves {
				moves = append(moves, m.Text)
			}
			if rec.Game != "bomber" || len(rec.Seats) != 2 || rec.Seats[0].Name != "Albert" || rec.Seats[1].Name != "Beth" ||
				rec.Reason != tt.want.reason || !slices.Equal(rec.Outcome.Winners, tt.want.winners) || rec.Leaver != tt.want.leaver ||
				!slices.Equal(moves, tt.want.moves) || rec.End != tt.want.end {
				t.Fatalf("record %+v, want %+v", rec, tt.want)
			}
			// a record replays through the rules to what it says
			if _, err := record.Replay(bomber.Spec(), &rec); err != nil {
				t.Fatalf("replay: %v", err)
			}
		})
	}
}

func TestShutdownAbortsGamesAndClosesAll(t *testing.T) {
	r := run(t, statemachine.Config{}, append(append([]string{}, pairUp...), "c open")...)
	h := r.Hub()
	h.Advance()
	h.Step(int64(time.Minute), statemachine.Input{Kind: statemachine.InShutdown})
	rd := h.Ready()
	if len(rd.Closes) != 3 || len(rd.Records) != 1 || rd.Records[0].Reason != "aborted" {
		t.Fatalf("closes %v records %+v", rd.Closes, rd.Records)
	}
	if len(rd.Sends) != 0 {
		t.Fatalf("shutdown sent %d segments; clients would take GameOver as a loss", len(rd.Sends))
	}
	if h.Connections() != 0 || h.Online() != 0 {
		t.Fatalf("%d connections, %d online after shutdown", h.Connections(), h.Online())
	}
}

func TestSessionsListing(t *testing.T) {
	r := run(t, statemachine.Config{}, append(append([]string{}, pairUp...), "c open")...)
	got := r.Hub().Sessions(nil)
	if len(got) != 3 || got[0].User != "Albert" || got[0].State != statemachine.Draw || got[0].Opponent != "Beth" || got[2].User != "" || got[2].State != statemachine.Accept {
		t.Fatalf("sessions %+v", got)
	}
}

func TestHideUnknownUsers(t *testing.T) {
	r := run(t, statemachine.Config{HideUnknownUsers: true}, "a open", "a info Nobody", "a pass 123", "a info Albert", "a pass 123")
	var codes []string
	for _, e := range transcript.Events(r.Output()) {
		if e.Op == transcript.Recv {
			codes = append(codes, transcript.Describe(e.Data, false))
		}
	}
	want := []string{"InfoResp 1 (OK)", "PasswdResp 3 (wrong password)", "InfoResp 1 (OK)", "PasswdResp 1 (OK)", "SyncEnd"}
	if strings.Join(codes, "|") != strings.Join(want, "|") {
		t.Fatalf("replies %q, want %q", codes, want)
	}
}
