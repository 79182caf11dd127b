package paisho

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

// playBotVsRandom plays one game between the bot (in seat botSeat) and a
// player choosing uniformly among deploys and tile moves; it returns the
// outcome and the number of actions played.
func playBotVsRandom(t testing.TB, seed uint64, botSeat rules.Player, maxPlies int) (rules.Outcome, int) {
	t.Helper()
	g, err := New(2, nil)
	if err != nil {
		t.Fatal(err)
	}
	bot := NewBot(rand.New(rand.NewPCG(seed, 1)))
	rnd := rand.New(rand.NewPCG(seed, 2))
	var buf []rules.Move
	n := 0
	for ; n < maxPlies && g.Outcome().Status == rules.Running; n++ {
		p := g.ToMove(nil)[0]
		var m rules.Move
		if p == botSeat {
			if m, err = bot.Choose(rules.SeatOf(g, p)); err != nil {
				t.Fatal(err)
			}
		} else {
			buf = g.pos.appendBoardMoves(p, buf[:0])
			m = buf[rnd.IntN(len(buf))]
		}
		if _, err := g.Play(p, m, nil); err != nil {
			t.Fatalf("seed %d: %s by seat %d: %v", seed, MoveText(m), p, err)
		}
	}
	return g.Outcome(), n
}

func botWins(t testing.TB, games int) (wins, plies int) {
	for i := range games {
		seat := rules.Player(i % 2)
		out, n := playBotVsRandom(t, uint64(i), seat, 600)
		plies += n
		if out.Status == rules.Won && out.Winners[0] == seat {
			wins++
		}
	}
	return wins, plies
}

func TestBotBeatsRandom(t *testing.T) {
	games := 100
	if testing.Short() {
		games = 20
	}
	wins, plies := botWins(t, games)
	t.Logf("bot won %d of %d games against a random mover (%d actions)", wins, games, plies)
	if wins*10 < games*9 {
		t.Errorf("bot won %d of %d games against a random mover, want at least 90%%", wins, games)
	}
}

// BenchmarkBotVsRandom plays 100 games per iteration against a random mover
// and reports the bot's wins out of 100 and the time per bot decision.
func BenchmarkBotVsRandom(b *testing.B) {
	wins := 0
	for b.Loop() {
		wins, _ = botWins(b, 100)
	}
	b.ReportMetric(float64(wins), "wins/100")
}

// BenchmarkChoose measures one bot decision in a mid-game position.
func BenchmarkChoose(b *testing.B) {
	g, _ := New(2, nil)
	r := rand.New(rand.NewPCG(5, 5))
	for range 40 {
		ms := g.pos.appendBoardMoves(g.pos.turn, nil)
		if _, err := g.Play(g.pos.turn, ms[r.IntN(len(ms))], nil); err != nil || g.Outcome().Status != rules.Running {
			b.Fatal("position setup failed")
		}
	}
	bot := NewBot(rand.New(rand.NewPCG(1, 1)))
	for b.Loop() {
		if _, err := bot.Choose(rules.SeatOf(g, g.pos.turn)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLegal measures full legal-move generation in the same kind of
// mid-game position.
func BenchmarkLegal(b *testing.B) {
	g, _ := New(2, nil)
	r := rand.New(rand.NewPCG(5, 5))
	for range 40 {
		ms := g.pos.appendBoardMoves(g.pos.turn, nil)
		g.Play(g.pos.turn, ms[r.IntN(len(ms))], nil)
	}
	var buf []rules.Move
	for b.Loop() {
		buf = g.Legal(g.pos.turn, buf[:0])
	}
	b.ReportMetric(float64(len(buf)), "moves")
}

func TestBotIsDeterministicForASeed(t *testing.T) {
	game := func(seed uint64) string {
		g, _ := New(2, nil)
		bots := [2]*Bot{NewBot(rand.New(rand.NewPCG(seed, 1))), NewBot(rand.New(rand.NewPCG(seed, 2)))}
		for range 40 {
			if g.Outcome().Status != rules.Running {
				break
			}
			p := g.ToMove(nil)[0]
			m, err := bots[p].Choose(rules.SeatOf(g, p))
			if err != nil {
				t.Fatal(err)
			}
			mustPlay(t, g, p, m)
		}
		return g.Notation()
	}
	if a, b := game(9), game(9); a != b {
		t.Errorf("two bot games from seed 9 differ:\n%s\n---\n%s", a, b)
	}
}

func TestBotRefusesWhenNotToMove(t *testing.T) {
	g, _ := New(2, nil)
	bot := NewBot(rand.New(rand.NewPCG(1, 1)))
	if _, err := bot.Choose(rules.SeatOf(g, guest)); !errors.Is(err, rules.ErrNotYourTurn) {
		t.Errorf("Choose for the guest on the host's turn: err %v, want ErrNotYourTurn", err)
	}
}

func TestBotTakesTheLotusAndGuardsItsOwn(t *testing.T) {
	// The host Wheel can take the guest Lotus on (3,3).
	g := build(t, host, H(Wheel, 0, 0), H(Lotus, -5, 0), G(Lotus, 3, 3), G(Wheel, 5, 5))
	bot := NewBot(rand.New(rand.NewPCG(1, 1)))
	if m, _ := bot.Choose(rules.SeatOf(g, host)); m != MoveTile(Point{0, 0}, Point{3, 3}) {
		t.Errorf("bot plays %s, not the Lotus capture", MoveText(m))
	}
	// The guest Wheel on (4,-1) already eyes the host Lotus on (0,-5) along
	// a diagonal: whatever the bot does, the Lotus must not stay capturable.
	g = build(t, host, H(Lotus, 0, -5), H(Wheel, 6, 0), G(Lotus, 3, 3), G(Wheel, 4, -1))
	m, _ := bot.Choose(rules.SeatOf(g, host))
	mustPlay(t, g, host, m)
	for _, mv := range g.Legal(guest, nil) {
		if _, to, ok := MoveOf(mv); ok {
			if tile, owner := g.TileAt(to); tile == Lotus && owner == host {
				t.Errorf("after %s the guest can take the host Lotus with %s", MoveText(m), MoveText(mv))
			}
		}
	}
}
