package segment

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func hash(b byte) (h [32]byte) {
	for i := range h {
		h[i] = b + byte(i)
	}
	return h
}

// samples holds at least one message of every extended type; several are
// longer than one segment.
func samples() []Message {
	long := strings.Repeat("x", MaxStr)
	return []Message{
		HelloMsg{Version: ProtocolVersion, Features: FeatureTables | FeatureChat},
		WelcomeBody{Version: 1, Features: FeatureChat, MaxMessage: MaxMessage},
		EmptyMsg{CatalogReq},
		GameInfoBody{Name: "dots", Min: 2, Max: 4, Options: []OptionInfo{
			{Key: "size", Kind: OptInt, Default: "5", Min: 3, Max: 9, Doc: "board size"},
			{Key: "variant", Kind: OptChoice, Default: "classic", Min: -1, Max: 1 << 30, Choices: []string{"classic", "swap", ""}, Doc: long},
		}},
		GameInfoBody{Name: "tiny"},
		GameInfoBody{Name: "tiny", Min: 2, Max: 2, Facts: &GameFacts{Title: "Tiny Game", Flags: GameTakeback | GameDraws}},
		GameInfoBody{Name: "untitled", Facts: &GameFacts{}},
		CreateMsg{Game: "dots", Seats: 2, Flags: FlagPrivate | WatchWithCode<<1, Options: []KV{{"size", "7"}, {"", ""}}},
		EmptyMsg{ListReq},
		JoinMsg{Table: 7, Seat: SeatAny},
		JoinMsg{Table: 0xFFFFFFFF, Seat: 3, Code: "ABCDEF"},
		WatchMsg{Table: 9, Code: "K7M2PQ"},
		EmptyMsg{Leave},
		InviteMsg{User: "Beth"},
		EmptyMsg{Ready},
		MoveMsg{Kind: 1, Len: 2, Arg: [16]uint8{3, 4}},
		MoveMsg{Kind: 255, Len: 16, Arg: [16]uint8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}},
		MoveTextMsg{Notation: "e2-e4"},
		MoveTextMsg{},
		EmptyMsg{ViewReq},
		OfferMsg{What: OfferDraw, Answer: OfferPropose},
		OfferBody{What: OfferTakeback, State: OfferWithdrawn, Seat: 2},
		EmptyMsg{Resign},
		BotMsg{Seat: SeatAny},
		SeatedBody{Table: 1, Seat: 2, Token: [TokenLen]byte{1, 2, 3, 15: 0xff}},
		ResumeMsg{Table: 1, Seat: 2, Token: [TokenLen]byte{9, 15: 1}, LastSeq: 77},
		ClockBody{Table: 3, Seats: []ClockSeat{{Left: 30000, Flags: ClockRunning}, {Left: -1}, {Left: 5, Flags: ClockPaused}}},
		AwayBody{Table: 3, Seat: 1, Grace: 60000},
		HintReqMsg{Table: 2, Chosen: []byte{0, 2, 3, 2}},
		HintsBody{Table: 2, Seq: 1, Seat: 1, Groups: []LegalGroup{{Kind: 1, Len: 4, Prefix: []byte{4, 4}, Suffixes: [][]byte{{7, 4}, {4, 1}}}}},
		LegalBody{Table: 3, Seq: 7, Seat: 1, Flags: LegalMore, Groups: []LegalGroup{{Kind: 1, Len: 2, Prefix: []byte{11}, Suffixes: [][]byte{{15}, {16}}}, {Kind: 1}, {Kind: 2, Len: 3, Prefix: []byte{4}, Suffixes: [][]byte{{0, 1}}}}},
		EmptyMsg{Bye},
		ChatBody{Scope: ScopeTable, Text: "héllo"},
		ChatBody{Scope: ScopeLobby, Text: strings.Repeat("ab", 149) + "c"}, // 300 bytes: the cap
		TableBody{ID: 7, Game: "dots", Flags: FlagPrivate, Phase: PhasePlaying, Watchers: 513, Code: "ABCDEF",
			Seats: []SeatInfo{{"Ali", SeatReady}, {"", 0}, {"bot-1", SeatBot | SeatGone}}, Options: []KV{{"size", "7"}}},
		JoinedBody{Table: 7, Seat: SeatWatcher},
		JoinedBody{},
		StartedBody{Table: 7, Seats: 2, SeedCommit: hash(1)},
		StepBody{Seq: 5, Kind: 2, Player: -1, A: -32768, B: 32767, C: 0},
		MovedBody{Seq: 6, Seat: 1, Kind: 3, Len: 1, Arg: [16]uint8{9}, Notation: "c3"},
		ViewBody{Seq: 8, Viewer: -1, Status: 1, ToMove: []uint8{0, 2}, Scores: []int16{-3, 700}, Cells: bytes.Repeat([]byte{1, 2, 3}, 330), Extra: []byte{0xFF}},
		ViewBody{},
		GameEndBody{Table: 7, Status: EndWon, Winners: []uint8{1}, Scores: []int16{10, -10}, Reason: "resign", Seed: hash(9)},
		ErrorBody{Req: Join, Code: ErrCodeTableFull, Text: "table full"},
		ChatMsgBody{Scope: ScopeWatchers, Table: 7, From: "Beth", Text: strings.Repeat("y", 300)},
		InvitedBody{From: "Ali", Table: 7, Game: "dots", Code: "ABCDEF"},
		CommitBody{Table: 7, Seat: 1, Hash: hash(200)},
		AckBody{Req: CatalogReq},
		PingMsg{Nonce: 7}, PongBody{Nonce: 0xfeedbeef}, SignUpMsg{Name: "Ada", Password: "secret-pw1"},
		SeekMsg{Action: SeekPlay, Game: "dots", Options: []KV{{"clock.total", "180"}}}, SeekMsg{Action: SeekCancel},
		SeekingBody{State: SeekWaiting, Flags: SeekProvisional, Game: "dots", Rated: 1, Rating: 1500, Low: 1200, High: 1800, Options: []KV{{"clock.total", "180"}}},
		HistoryReqMsg{What: HistGames, User: "Ada", Game: "dots", Page: 3},
		RatingRowBody{What: HistRatings, User: "Ada", Game: "checkers", Rating: 1612, Deviation: 80, Flags: RowProvisional, At: 1764201600, GameID: 1 << 40, Before: 1590},
		GameRowBody{ID: 7, Game: "dots", Result: GameWon, Flags: RowRated | RowBot, Change: -12, Ended: 1764201600, Moves: 30, Reason: "resigned", Opponents: []string{"Beth", "", strings.Repeat("z", 20)}},
		ReplayReqMsg{ID: 1<<64 - 1, Ply: 65535},
		ReplayBody{ID: 7, Game: "aeroplane", Ply: 2, Plies: 30, Seat: -1, Notation: "h1", Status: EndWon, Reason: "resigned", Seats: []string{"Ada", "", "Beth", "Cy"}, Options: []KV{{"size", "7"}, {"rated", "true"}}},
		AccountMsg{What: AccountPassword, Password: "secret-pw1", New: "secret-pw2"},
	}
}

// TestMessagesRoundTrip sends every sample through the whole wire layer:
// Encode, AppendMessage, bytes, Decoder (fed a byte at a time), Assembler,
// DecodeMessage, and wants the original back.
func TestMessagesRoundTrip(t *testing.T) {
	seen := map[Type]bool{}
	var stream []byte
	var want []Message
	multi := 0
	for _, m := range samples() {
		body, err := m.Encode([]byte("prefix"))
		if err != nil {
			t.Fatalf("%T: %v", m, err)
		}
		if string(body[:6]) != "prefix" {
			t.Fatalf("%T: Encode overwrote dst", m)
		}
		if app := m.Append([]byte("prefix")); !bytes.Equal(app, body) {
			t.Fatalf("%T: Append and Encode differ", m)
		}
		segs := AppendMessage(nil, m.Type(), body[6:])
		if len(segs) > 1 {
			multi++
		}
		for _, s := range segs {
			stream = s.AppendTo(stream)
		}
		seen[m.Type()] = true
		want = append(want, m)
	}
	for ty := range assigned {
		if !seen[ty] {
			t.Errorf("no sample of %v", ty)
		}
	}
	if multi < 6 {
		t.Errorf("only %d samples take several segments", multi)
	}
	var d Decoder
	d.SetDialect(DialectExtended)
	var a Assembler
	var got []Message
	for _, b := range stream {
		d.Write([]byte{b})
		for {
			s, ok, err := d.Next()
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				break
			}
			ty, body, done, err := a.Add(s)
			if err != nil {
				t.Fatal(err)
			}
			if !done {
				continue
			}
			m, err := DecodeMessage(ty, body)
			if err != nil {
				t.Fatalf("%v: %v", ty, err)
			}
			got = append(got, m)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d messages back, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("message %d:\n got %#v\nwant %#v", i, got[i], want[i])
		}
	}
}

func TestEncodeRefusesWhatDoesNotFit(t *testing.T) {
	long := strings.Repeat("x", MaxStr+1)
	tests := []struct {
		name string
		m    Message
	}{
		{"str over 255", InviteMsg{User: long}},
		{"str over 255 deep inside", GameInfoBody{Name: "g", Options: []OptionInfo{{Key: "k", Choices: []string{"a", long}}}}},
		{"body over cap", ChatBody{Text: strings.Repeat("x", 300)}},
		{"str fits but body over cap", CreateMsg{Game: long[:255]}},
		{"256 options", CreateMsg{Game: "g", Options: make([]KV, 256)}},
		{"move argument over 16", MoveMsg{Len: 17}},
		{"moved argument over 16", MovedBody{Len: 200}},
		{"bytes16 over 65535", ViewBody{Cells: make([]byte, 70000)}},
		{"notation over cap", MoveTextMsg{Notation: strings.Repeat("n", 65)}},
	}
	for _, tt := range tests {
		dst := []byte{1, 2, 3}
		got, err := tt.m.Encode(dst)
		if !errors.Is(err, ErrTooLong) {
			t.Errorf("%s: err %v, want ErrTooLong", tt.name, err)
		}
		if !bytes.Equal(got, dst) {
			t.Errorf("%s: Encode appended % x", tt.name, got[3:])
		}
		if got := tt.m.Append(dst); !bytes.Equal(got, dst) {
			t.Errorf("%s: Append appended % x", tt.name, got[3:])
		}
		if segs, _, err := Segments(nil, nil, tt.m); err == nil || len(segs) != 0 {
			t.Errorf("%s: Segments gave %d segments, err %v", tt.name, len(segs), err)
		}
	}
	// exactly at the limits it works
	if _, err := (InviteMsg{User: long[:29]}).Encode(nil); err != nil {
		t.Errorf("29-byte user: %v", err)
	}
	if b, err := AppendStr(nil, long[:MaxStr]); err != nil || len(b) != 256 || b[0] != 255 {
		t.Errorf("255-byte str: %d bytes, %v", len(b), err)
	}
	if b, err := AppendStr([]byte{7}, long); !errors.Is(err, ErrTooLong) || !bytes.Equal(b, []byte{7}) {
		t.Errorf("256-byte str: % x, %v", b, err)
	}
}

func TestDecodeRejectsMalformed(t *testing.T) {
	tests := []struct {
		name string
		t    Type
		body []byte
	}{
		{"short hello", Hello, []byte{1, 0, 0}},
		{"hello with a byte left over", Hello, []byte{1, 0, 0, 0, 3, 9}},
		{"join str runs past the end", Join, []byte{0, 0, 0, 7, 0xff, 5, 'A', 'B'}},
		{"move len 17", Move, append([]byte{1, 17}, make([]byte, 17)...)},
		{"move arg short", Move, []byte{1, 3, 1, 2}},
		{"forged option count", GameInfo, []byte{1, 'g', 2, 2, 255, 0, 0}},
		{"game facts without flags", GameInfo, []byte{1, 'g', 2, 2, 0, 1, 'G'}},
		{"game facts with a byte left over", GameInfo, []byte{1, 'g', 2, 2, 0, 1, 'G', 1, 0}},
		{"forged seat count", TableInfo, []byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 200}},
		{"bytes16 past the end", ViewMsg, []byte{0, 0, 0, 1, 0, 0, 0, 0, 0xff, 0xff, 1}},
		{"empty body with a byte", Leave, []byte{0}},
		{"offer of 1 byte", Offer, []byte{1}},
		{"chat without scope", Chat, nil},
		{"body over the cap", Chat, make([]byte, 301)},
		{"ack empty", Ack, nil},
	}
	for _, tt := range tests {
		if _, err := DecodeMessage(tt.t, tt.body); !errors.Is(err, ErrBody) {
			t.Errorf("%s: err %v, want ErrBody", tt.name, err)
		}
	}
	if _, err := DecodeMessage(0x51, nil); !errors.Is(err, ErrUnknownType) {
		t.Errorf("0x51: %v", err)
	}
}

func TestReaderNeverPanics(t *testing.T) {
	r := NewReader([]byte{0x12, 0x34})
	if v := r.U16(); v != 0x1234 || r.Err() != nil {
		t.Fatalf("U16 = %#x, %v", v, r.Err())
	}
	if r.U32() != 0 || r.U8() != 0 || r.Str() != "" || r.Bytes16() != nil || r.H32() != ([32]byte{}) || r.Rest() != nil || r.U64() != 0 {
		t.Fatal("reads past the end returned data")
	}
	if !errors.Is(r.Err(), ErrBody) || !errors.Is(r.Done(), ErrBody) {
		t.Fatalf("err %v", r.Err())
	}
	r = NewReader([]byte{0xff, 0xfe, 0x80, 0, 0, 0, 1})
	if r.I8() != -1 || r.I16() != -384 || r.U32() != 1 || r.Done() != nil {
		t.Fatalf("signed reads wrong: %v", r.Err())
	}
	r = NewReader([]byte{1, 2})
	r.U8()
	if !errors.Is(r.Done(), ErrBody) {
		t.Fatal("a byte left over is not an error")
	}
}

func TestErrCodeNames(t *testing.T) {
	if ErrCodeName(ErrCodeBadRequest) != "BadRequest" || ErrCodeName(ErrCodeNotSeated) != "NotSeated" ||
		ErrCodeName(ErrCodeChatFlood) != "ChatFlood" || ErrCodeName(ErrCodeNameTaken) != "NameTaken" || ErrCodeName(ErrCodeWrongPassword) != "WrongPassword" || ErrCodeName(28) != "code28" {
		t.Errorf("names: %s %s %s %s", ErrCodeName(1), ErrCodeName(20), ErrCodeName(14), ErrCodeName(28))
	}
	if WatchPolicy(FlagPrivate|WatchNobody<<1) != WatchNobody {
		t.Error("watch policy bits")
	}
}
