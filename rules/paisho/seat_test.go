package paisho

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
)

// TestObserve: doc.go's example gives the documented bytes to every viewer.
func TestObserve(t *testing.T) {
	g, _ := New(2, nil)
	mustPlay(t, g, host, Deploy(Lotus, Point{0, 0}))
	mustPlay(t, g, guest, Deploy(Wheel, Point{1, -2}))
	wantExtra := []byte{0, 2, 2, 2, 2, 1, 1, 1, 2, 2, 1, 2, 1, 1, 0, 2, 0, 0, 0}
	for _, viewer := range []rules.Player{rules.Spectator, host, guest} {
		v := g.Observe(viewer)
		if v.Viewer != viewer || v.Status != rules.Running || !slices.Equal(v.ToMove, []rules.Player{host}) || !slices.Equal(v.Scores, []int{0, 0}) || !slices.Equal(v.Extra, wantExtra) {
			t.Errorf("viewer %d: %+v, want extra %v", viewer, v, wantExtra)
		}
		if len(v.Cells) != 289 || v.Cells[144] != 1 || v.Cells[159] != 12 || v.Cells[0] != 0xFF {
			t.Fatalf("viewer %d: %d cells, (0,0) %d, (1,-2) %d, (-8,-8) %d", viewer, len(v.Cells), v.Cells[144], v.Cells[159], v.Cells[0])
		}
	}
	v := g.Observe(rules.Spectator)
	off, empty := 0, 0
	for i, c := range v.Cells {
		p := pointOf(i)
		switch {
		case c == 0xFF:
			off++
			if p.OnBoard() {
				t.Errorf("playable point %v marked off the board", p)
			}
		case c == 0:
			empty++
		}
	}
	if off != 40 || empty != 247 {
		t.Errorf("%d points off the disc and %d empty, want 40 and 247", off, empty)
	}
	mustPlay(t, g, host, OfferDraw())
	if v := g.Observe(guest); v.Extra[16] != 1 {
		t.Errorf("draw offered by the host: extra[16] = %d, want 1", v.Extra[16])
	}
	mustPlay(t, g, guest, Resign()) // off turn
	v = g.Observe(rules.Spectator)
	if v.Status != rules.Won || len(v.ToMove) != 0 || !slices.Equal(v.Extra[16:], []byte{1, 2, 1}) {
		t.Errorf("guest resigned: %+v, want extra ending 1 2 1", v)
	}
}

// TestRedact: the redacted copy is the whole game (both libraries are
// public), and playing on it leaves the real game alone.
func TestRedact(t *testing.T) {
	g, _ := New(2, nil)
	mustPlay(t, g, host, Deploy(Lotus, Point{0, 0}))
	before := g.View(rules.Spectator)
	r := g.Redact(guest)
	if r.View(guest) != g.View(guest) || !slices.Equal(r.Observe(guest).Extra, g.Observe(guest).Extra) {
		t.Fatalf("redacted copy differs:\n%s\nreal:\n%s", r.View(guest), before)
	}
	mustPlay(t, r.(*Game), guest, Deploy(Wheel, Point{3, 3}))
	mustPlay(t, r.(*Game), host, Resign())
	if g.View(rules.Spectator) != before || len(g.History()) != 1 || g.Outcome().Status != rules.Running {
		t.Errorf("playing on the redacted copy changed the real game:\n%s", g.View(rules.Spectator))
	}
}

// TestResignOffTurn: the seat not to move may resign; the other wins, and
// the game's notation, with that line, reads back and replays.
func TestResignOffTurn(t *testing.T) {
	g, _ := New(2, nil)
	mustPlay(t, g, host, Deploy(Lotus, Point{0, 0}))
	mustPlay(t, g, guest, Deploy(Lotus, Point{2, 2}))
	mustPlay(t, g, host, Deploy(Wheel, Point{-3, 0}))
	if _, err := g.ParseMove(host, "2H.L(1,1)"); !errors.Is(err, rules.ErrNotation) {
		t.Errorf("a board move by the seat not to move parsed: %v", err)
	}
	m, err := g.ParseMove(host, "2H.resign")
	if err != nil || m != Resign() {
		t.Fatalf("off-turn resign line: %+v, %v", m, err)
	}
	steps := mustPlay(t, g, host, m)
	if !slices.Equal(steps, []rules.Step{{Kind: StepResigned, Player: host}}) {
		t.Errorf("steps %+v", steps)
	}
	if out := g.Outcome(); out.Status != rules.Won || !slices.Equal(out.Winners, []rules.Player{guest}) {
		t.Errorf("outcome %+v, want the guest to win", out)
	}
	text := g.Notation()
	if text != "1H.L(0,0)\n1G.L(2,2)\n2H.W(-3,0)\n2H.resign\n" {
		t.Errorf("notation:\n%s", text)
	}
	back, err := Replay(text, nil)
	if err != nil || back.View(rules.Spectator) != g.View(rules.Spectator) {
		t.Errorf("replay of\n%s: %v", text, err)
	}
	if _, err := g.Play(guest, Resign(), nil); !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("resign after the end: %v", err)
	}
}

// TestNotationEveryKind: every legal action of bot-and-random games
// (deploys, tile moves, captures, draw offers, answers and resignations)
// round-trips through notation, and each game's notation replays through
// rules/record to the same outcome.
func TestNotationEveryKind(t *testing.T) {
	seen, played := map[uint8]bool{}, map[uint8]bool{}
	for i := range 12 {
		g, _ := New(2, nil)
		bot := NewBot(rand.New(rand.NewPCG(uint64(i), 1)))
		pick := rand.New(rand.NewPCG(uint64(i), 2))
		rec := &record.Game{Game: Name, Seats: make([]record.Seat, 2)}
		for n := 0; g.Outcome().Status == rules.Running && n < 300; n++ {
			p := g.pos.turn
			legal := g.Legal(p, nil)
			for _, m := range legal {
				if back, err := g.ParseMove(p, g.FormatMove(m)); err != nil || back != m {
					t.Fatalf("%+v formats as %q, parses back as %+v, %v", m, g.FormatMove(m), back, err)
				}
				seen[m.Kind] = true
			}
			var m rules.Move
			switch r := pick.IntN(100); {
			case r < 8:
				// A draw action: offer, or accept or decline a pending offer.
				var draw []rules.Move
				for _, m := range legal {
					if !isBoardKind(m.Kind) && m.Kind != rules.KindResign {
						draw = append(draw, m)
					}
				}
				m = draw[pick.IntN(len(draw))]
			case n == 20+i*3:
				p, m = rules.Player(pick.IntN(2)), Resign()
			default:
				var err error
				if m, err = bot.Choose(rules.SeatOf(g, p)); err != nil {
					t.Fatal(err)
				}
			}
			text := g.FormatMove(m)
			if back, err := g.ParseMove(p, text); err != nil || back != m {
				t.Fatalf("%+v formats as %q, parses back as %+v, %v", m, text, back, err)
			}
			if _, err := g.Play(p, m, nil); err != nil {
				t.Fatalf("%s by %d: %v", text, p, err)
			}
			played[m.Kind] = true
			rec.Moves = append(rec.Moves, record.Move{Seat: p, Text: text})
		}
		rec.Outcome, rec.Reason = g.Outcome(), "won"
		if rec.Outcome.Status == rules.Drawn {
			rec.Reason = "drawn"
		}
		back, err := record.Replay(Spec(), rec)
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if back.View(rules.Spectator) != g.View(rules.Spectator) {
			t.Fatalf("game %d replays to\n%s\nwant\n%s", i, back.View(rules.Spectator), g.View(rules.Spectator))
		}
		if again, err := Replay(g.Notation(), nil); err != nil || again.View(rules.Spectator) != g.View(rules.Spectator) {
			t.Fatalf("game %d: notation text does not replay: %v\n%s", i, err, g.Notation())
		}
	}
	for _, k := range []uint8{KindDeploy, KindMove, rules.KindOfferDraw, rules.KindAcceptDraw, rules.KindDeclineDraw, rules.KindResign} {
		if !seen[k] || !played[k] {
			t.Errorf("move kind %d: listed %v, played %v; want both", k, seen[k], played[k])
		}
	}
}

// TestOptionSpecs: Spec.Options lists the one key New accepts, with its
// default and range.
func TestOptionSpecs(t *testing.T) {
	opts := Spec().Options
	if len(opts) != 1 || opts[0].Key != OptMoveLimit || opts[0].Kind != rules.OptionInt || opts[0].Default != "0" {
		t.Fatalf("options %+v", opts)
	}
	o := opts[0]
	for v, ok := range map[int]bool{o.Min: true, o.Max: true, o.Min - 1: false, o.Max + 1: false} {
		_, err := New(2, rules.Options{o.Key: itoa(v)})
		if (err == nil) != ok {
			t.Errorf("%s=%d: err %v", o.Key, v, err)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
