package ext

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/segment/transcript"
)

// golden is the entries of a golden transcript.
func golden(t *testing.T, file string) []transcript.Entry {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "transcripts", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	entries, err := transcript.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// session feeds a Client what connection conn of a golden transcript
// received, and records every event.
func session(t *testing.T, file, conn, user string) (*Client, []Event) {
	t.Helper()
	entries := golden(t, file)
	c := New()
	c.Login(user, "123")
	var evs []Event
	for _, e := range entries {
		if e.Conn != conn {
			continue
		}
		switch e.Op {
		case transcript.Open:
			evs = append(evs, c.Connected().Events...)
		case transcript.Recv:
			evs = append(evs, c.Receive(lineSegment(t, file, e)).Events...)
		}
	}
	for _, e := range evs {
		if e.Kind == EvProtocol || e.Kind == EvBadBody {
			t.Fatalf("%s %s: %s", file, conn, e.Text)
		}
	}
	return c, evs
}

// lineSegment is the one segment a line of a golden transcript holds.
func lineSegment(t *testing.T, file string, e transcript.Entry) segment.Segment {
	t.Helper()
	var d segment.Decoder
	d.SetDialect(segment.DialectExtended)
	copy(d.Free(), e.Data)
	d.Commit(len(e.Data))
	s, ok, err := d.Next()
	if err != nil || !ok {
		t.Fatalf("%s line %d: %v", file, e.Line, err)
	}
	return s
}

// received is what conn received in a golden transcript, a segment a line.
func received(t *testing.T, file, conn string) []segment.Segment {
	t.Helper()
	entries := golden(t, file)
	var segs []segment.Segment
	for _, e := range entries {
		if e.Conn != conn || e.Op != transcript.Recv {
			continue
		}
		segs = append(segs, lineSegment(t, file, e))
	}
	return segs
}

// TestCatalogTranscript: the catalogue of the golden session, read whole.
func TestCatalogTranscript(t *testing.T) {
	c, evs := session(t, "20_ext_hello.txt", "a", "Albert")
	var names []string
	for _, g := range c.Catalog() {
		names = append(names, fmt.Sprintf("%s %d-%d %d options", g.Name, g.Min, g.Max, len(g.Options)))
	}
	if fmt.Sprint(names) != "[bomber 2-2 1 options checkers 2-2 6 options dots 2-4 2 options aeroplane 2-4 5 options paisho 2-2 1 options]" {
		t.Fatalf("catalogue %q", names)
	}
	if len(kinds(evs, EvCatalog)) != 1 || c.State() != Lobby {
		t.Fatalf("state %v", c.State())
	}
}

// TestCatalogFacts: what the client says of each game (title, offers
// allowed) is what the server's catalogue said when it said it (Novate
// asked for the game facts in the golden session), and, from a catalogue
// without them (Albert did not ask), the same from the rules it knows.
func TestCatalogFacts(t *testing.T) {
	want := map[string]segment.GameFacts{
		"bomber":    {Title: "Bomber"},
		"checkers":  {Title: "Checkers", Flags: segment.GameTakeback | segment.GameDraws},
		"dots":      {Title: "Dots and Boxes", Flags: segment.GameTakeback},
		"aeroplane": {Title: "Aeroplane Chess"},
		"paisho":    {Title: "Pai Sho", Flags: segment.GameTakeback | segment.GameDraws},
		"chess":     {Title: "chess"}, // not in the catalogue, nor known here
	}
	withFacts, _ := session(t, "20_ext_hello.txt", "e", "Novate")
	without, _ := session(t, "20_ext_hello.txt", "a", "Albert")
	for game, w := range want {
		if got := withFacts.Facts(game); got != w {
			t.Errorf("%s, as the server said: %+v, want %+v", game, got, w)
		}
		if got := without.Facts(game); got != w {
			t.Errorf("%s, from the rules: %+v, want %+v", game, got, w)
		}
	}
	// the server's word wins over the rules this client knows
	c := New()
	for _, m := range []segment.Message{
		segment.GameInfoBody{Name: "dots", Min: 2, Max: 2, Facts: &segment.GameFacts{Title: "Boxes"}},
		segment.AckBody{Req: segment.CatalogReq},
	} {
		for _, s := range segment.AppendMessage(nil, m.Type(), m.Append(nil)) {
			c.Receive(s)
		}
	}
	if got := c.Facts("dots"); got != (segment.GameFacts{Title: "Boxes"}) {
		t.Errorf("dots from a server that says otherwise: %+v", got)
	}
}

// TestCheckersOffersTranscript reads Albert's side of the checkers golden
// session: moves, refused moves, a declined takeback, a draw, a rematch, an
// agreed takeback that undoes 11-15, and a resignation.
func TestCheckersOffersTranscript(t *testing.T) {
	c, evs := session(t, "22_checkers_offers.txt", "a", "Albert")
	if n := len(kinds(evs, EvStarted)); n != 2 {
		t.Fatalf("%d games started, want 2", n)
	}
	var ends []string
	for _, e := range kinds(evs, EvGameEnd) {
		ends = append(ends, e.Text)
	}
	if len(ends) != 2 || ends[0] != "game drawn: draw agreed" || ends[1] != "game over: Beth won (Black resigned)" {
		t.Fatalf("game ends %q", ends)
	}
	var offers []string
	for _, e := range kinds(evs, EvOffer) {
		offers = append(offers, e.Text)
	}
	if len(offers) < 6 || offers[0] != "Beth offers a takeback" || offers[1] != "Albert declined the takeback" {
		t.Fatalf("offers %q", offers)
	}
	var codes []uint8
	for _, e := range kinds(evs, EvError) {
		codes = append(codes, e.Err.Code)
	}
	if fmt.Sprint(codes) != "[7 6 18 8]" { // the last: Resign after the game ended
		t.Fatalf("error codes %v", codes)
	}
	if c.Table() != nil || c.Seat() != NoSeat {
		t.Fatalf("after Leave: table %+v seat %d", c.Table(), c.Seat())
	}
	g := c.Game()
	if g == nil || !g.Over() || g.End.Reason != "Black resigned" {
		t.Fatalf("last game %+v", g)
	}
}

// TestTakebackRebuildsReplica stops Albert's session right after the
// agreed takeback: the move is gone from the list and the replica matches
// the server's View.
func TestTakebackRebuildsReplica(t *testing.T) {
	_, evs := session(t, "22_checkers_offers.txt", "a", "Albert")
	started, moves := 0, 0
	for _, e := range evs {
		switch e.Kind {
		case EvStarted:
			started++
			moves = 0
		case EvMoved:
			moves++
		case EvOffer:
			if started == 2 && e.Offer.What == segment.OfferTakeback && e.Offer.State == segment.OfferAgreed && moves != 1 {
				t.Fatalf("takeback after %d moves", moves)
			}
		}
	}
	// replay to just after the takeback View
	c2 := New()
	c2.Login("Albert", "123")
	agreed, views := false, 0
	for _, s := range received(t, "22_checkers_offers.txt", "a") {
		for _, ev := range c2.Receive(s).Events {
			if ev.Kind == EvOffer && ev.Offer.What == segment.OfferTakeback && ev.Offer.State == segment.OfferAgreed {
				agreed = true
			}
			if ev.Kind == EvView && agreed {
				views++
			}
		}
		if views == 1 {
			break
		}
	}
	g := c2.Game()
	if views != 1 || g == nil || len(g.Moves) != 0 || g.Replica() == nil || !g.Replica().Matches(g.View) {
		t.Fatalf("after the takeback: views %d game %+v", views, g)
	}
	legal := 0 // the replica's own: this transcript's client did not ask for Legal
	for _, m := range g.Replica().Game().Legal(0, nil) {
		if m.Kind < rules.KindOfferDraw {
			legal++
		}
	}
	if legal != 7 {
		t.Fatalf("the replica has Black with %d moves in the opening, want 7", legal)
	}
}

// TestChatTranscript: Albert's lobby line and the table room's lines (the
// players' and the watcher's: one room) land in their own logs, in order,
// and the refused lines are errors.
func TestChatTranscript(t *testing.T) {
	c, _ := session(t, "25_chat.txt", "a", "Albert")
	if fmt.Sprint(c.LobbyChat) != "[{0 Albert hello everyone}]" {
		t.Fatalf("lobby chat %v", c.LobbyChat)
	}
	var table []string
	for _, l := range c.TableChat {
		table = append(table, l.From+": "+l.Text)
	}
	if fmt.Sprint(table) != "[Albert: first! Beth: hi Albert Cindy: who wins? Cindy: I am not playing Albert: I am not watching Beth: one Beth: two Beth: three Beth: four Beth: six]" {
		t.Fatalf("table chat %q", table)
	}
	if len(c.Errors) != 4 { // the four bad lines; Albert's scope 2 line reached the one room
		t.Fatalf("errors %+v", c.Errors)
	}
}

// TestAbandonedGameEnd reads Cindy's side of the endings golden session: she
// watches a game of two whose players both dropped; its GameEnd has no
// result and says so, naming no winner.
func TestAbandonedGameEnd(t *testing.T) {
	_, evs := session(t, "50_endings.txt", "c2", "Cindy")
	var ends []string
	for _, e := range kinds(evs, EvGameEnd) {
		ends = append(ends, e.Text)
	}
	if len(ends) != 1 || ends[0] != "game over, no result: abandoned" {
		t.Fatalf("game ends %q", ends)
	}
}
