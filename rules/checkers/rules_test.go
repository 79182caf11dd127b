package checkers

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

// boardOnly turns off the moves that are not on the board, so Legal lists
// just the board moves.
var (
	boardOnly       = rules.Options{OptDrawAgreement: "off", OptResign: "off"}
	optionalCapture = rules.Options{OptDrawAgreement: "off", OptResign: "off", OptCompulsoryCapture: "off"}
)

func withFEN(opts rules.Options, fen string) rules.Options {
	o := rules.Options{OptFEN: fen}
	for k, v := range opts {
		o[k] = v
	}
	return o
}

func TestLegalMoves(t *testing.T) {
	tests := []struct {
		name string
		opts rules.Options
		fen  string
		want []string
	}{
		{"opening", boardOnly, StartFEN, []string{"10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"}},
		{"white replies", boardOnly, "W:W21-32:B1-8,10-12,14", []string{"21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"}},
		{"capture is compulsory", boardOnly, "B:W18:B14,12", []string{"14x23"}},
		{"capture optional by option", withFEN(optionalCapture, "B:W18:B14,12"), "", []string{"12-16", "14x23", "14-17"}},
		{"any capture may be chosen, not only the longest", boardOnly, "B:W14,15,23:B10,11", []string{"10x17", "10x19x26", "11x18x27"}},
		{"men jump forward only", boardOnly, "B:W6:B10", []string{"10-14", "10-15"}},
		{"kings jump backward", boardOnly, "B:W6:BK10", []string{"10x1"}},
		{"crowning ends the move", boardOnly, "B:W26,27:B22", []string{"22x31"}},
		{"a king may circle back to its start square", boardOnly, "B:W14,15,22,23:BK10", []string{"10x17x26x19x10", "10x19x26x17x10"}},
		{"a jump continues to the end", boardOnly, "B:W15,23:B11", []string{"11x18x27"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			if tt.fen != "" {
				opts = withFEN(opts, tt.fen)
			}
			g := mustNew(t, opts)
			got := sortedText(g, rules.Player(g.pos.side))
			want := slices.Sorted(slices.Values(tt.want))
			if !slices.Equal(got, want) {
				t.Errorf("legal moves in %s = %v, want %v", g.FEN(), got, want)
			}
		})
	}
}

func TestPlayRefusals(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		p    rules.Player
		move string
		want error
	}{
		{"a simple move while a capture is open", "B:W18:B14,12", 0, "12-16", rules.ErrIllegal},
		{"half of a multi-jump", "B:W15,23:B11", 0, "11x18", rules.ErrIllegal},
		{"a man moving backward", "B:W30:B10", 0, "10-6", rules.ErrIllegal},
		{"moving the opponent's piece", StartFEN, 0, "22-18", rules.ErrIllegal},
		{"out of turn", StartFEN, 1, "22-18", rules.ErrNotYourTurn},
		{"answering an offer nobody made", StartFEN, 0, "draw-accept", rules.ErrIllegal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustNew(t, rules.Options{OptFEN: tt.fen})
			before := g.View(rules.Spectator)
			m, err := g.ParseMove(tt.p, tt.move)
			if err != nil {
				t.Fatalf("parse %q: %v", tt.move, err)
			}
			if _, err := g.Play(tt.p, m, nil); !errors.Is(err, tt.want) {
				t.Errorf("play %s: err %v, want %v", tt.move, err, tt.want)
			}
			if g.View(rules.Spectator) != before {
				t.Errorf("a refused move changed the game")
			}
		})
	}
}

func TestStepsAndScores(t *testing.T) {
	g := mustNew(t, rules.Options{OptFEN: "B:W15,23,26:B11,1"})
	steps := playText(t, g, "11x18x27")
	want := []rules.Step{
		{Kind: StepJump, Player: 0, A: 11, B: 18, C: 15},
		{Kind: StepJump, Player: 0, A: 18, B: 27, C: 23},
	}
	if g.FEN() != "W:W26:B1,27" {
		t.Errorf("after 11x18x27: FEN %s", g.FEN())
	}
	if !slices.Equal(steps, want) {
		t.Errorf("steps %+v, want %+v", steps, want)
	}
	if got := g.Scores(nil); !slices.Equal(got, []int{2, 0}) {
		t.Errorf("scores after a double jump %v, want [2 0]", got)
	}
	steps = playText(t, g, "26-22", "27-31")
	if want := (rules.Step{Kind: StepCrown, Player: 0, A: 31}); steps[len(steps)-1] != want {
		t.Errorf("last step of a crowning move %+v, want %+v", steps[len(steps)-1], want)
	}
	if !strings.Contains(g.FEN(), "K31") {
		t.Errorf("after 27-31 the man is not a king: %s", g.FEN())
	}
}

func TestCrowningEndsTheMove(t *testing.T) {
	g := mustNew(t, rules.Options{OptFEN: "B:W26,27:B22"})
	steps := playText(t, g, "22x31")
	if got, want := g.FEN(), "W:W27:BK31"; got != want {
		t.Errorf("after 22x31: %s, want %s (crowned, and 27 not taken)", got, want)
	}
	if steps[len(steps)-1].Kind != StepCrown {
		t.Errorf("no crown step: %+v", steps)
	}
	if g.ToMove(nil)[0] != 1 {
		t.Errorf("after crowning it is not White's turn")
	}
}

func TestGameEnds(t *testing.T) {
	tests := []struct {
		name   string
		fen    string
		moves  []string
		status rules.Status
		winner rules.Player
		reason string
	}{
		{"last piece taken", "B:W14:B10", []string{"10x17"}, rules.Won, 0, "no pieces left"},
		{"blocked after a move", "B:W5:B1,10", []string{"10-14"}, rules.Won, 0, "no legal move"},
		{"blocked from the start", "W:W5:B1", nil, rules.Won, 0, "no legal move"},
		{"no pieces from the start", "B:W5", nil, rules.Won, 1, "no pieces left"},
		{"threefold repetition", "B:WK32:BK1", []string{"1-5", "32-28", "5-1", "28-32", "1-5", "32-28", "5-1", "28-32"}, rules.Drawn, 0, "threefold repetition"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustNew(t, rules.Options{OptFEN: tt.fen})
			playText(t, g, tt.moves...)
			out := g.Outcome()
			if out.Status != tt.status || out.Reason != tt.reason {
				t.Fatalf("outcome %+v, want %v (%s)", out, tt.status, tt.reason)
			}
			if tt.status == rules.Won && !slices.Equal(out.Winners, []rules.Player{tt.winner}) {
				t.Errorf("winners %v, want %d", out.Winners, tt.winner)
			}
			if n := len(g.ToMove(nil)); n != 0 {
				t.Errorf("%d players to move after the end", n)
			}
		})
	}
}

func TestRepetitionNeedsThirdOccurrence(t *testing.T) {
	shuffle := []string{"1-5", "32-28", "5-1", "28-32", "1-5", "32-28", "5-1"}
	for _, on := range []string{"on", "off"} {
		g := mustNew(t, rules.Options{OptFEN: "B:WK32:BK1", OptDrawRepetition: on})
		playText(t, g, shuffle...)
		if g.Outcome().Status != rules.Running {
			t.Fatalf("repetition %s: ended after the start position came back once", on)
		}
		playText(t, g, "28-32")
		if got, want := g.Outcome().Status == rules.Drawn, on == "on"; got != want {
			t.Errorf("repetition %s: drawn after the third occurrence = %v, want %v", on, got, want)
		}
	}
}

// kingShuffle returns n plies of the kings on 1 and 32 each walking a
// four-move circuit; after every eight plies both are home again.
func kingShuffle(n int) []string {
	black := []string{"1-6", "6-9", "9-5", "5-1"}
	white := []string{"32-27", "27-24", "24-28", "28-32"}
	var out []string
	for i := range n {
		if i%2 == 0 {
			out = append(out, black[(i/2)%len(black)])
		} else {
			out = append(out, white[(i/2)%len(white)])
		}
	}
	return out
}

func TestFortyMoveRule(t *testing.T) {
	opts := func(forty string) rules.Options {
		return rules.Options{OptFEN: "B:WK32,21:BK1,12", OptDrawRepetition: "off", OptDraw40Moves: forty}
	}
	g := mustNew(t, opts("on"))
	playText(t, g, kingShuffle(79)...)
	if g.Outcome().Status != rules.Running {
		t.Fatalf("ended after 79 quiet plies: %+v", g.Outcome())
	}
	playText(t, g, kingShuffle(80)[79])
	if out := g.Outcome(); out.Status != rules.Drawn || !strings.Contains(out.Reason, "40 moves") {
		t.Errorf("after 40 quiet moves each: %+v, want a 40-move draw", out)
	}

	// Men's moves start the count again: 40 quiet plies, two man moves,
	// then the draw comes 80 quiet plies later, not 40.
	g = mustNew(t, opts("on"))
	playText(t, g, kingShuffle(40)...)
	playText(t, g, "12-16", "21-17")
	playText(t, g, kingShuffle(79)...)
	if out := g.Outcome(); out.Status != rules.Running {
		t.Fatalf("drawn though men moved: %+v", out)
	}
	playText(t, g, kingShuffle(80)[79])
	if out := g.Outcome(); out.Status != rules.Drawn {
		t.Errorf("not drawn 80 quiet plies after the last man move: %+v", out)
	}

	g = mustNew(t, opts("off"))
	playText(t, g, kingShuffle(120)...)
	if out := g.Outcome(); out.Status != rules.Running {
		t.Errorf("with the 40-move rule off: %+v", out)
	}
}

func TestDrawAgreement(t *testing.T) {
	g := mustNew(t, nil)
	steps := playText(t, g, "11-15", "draw-offer")
	if steps[len(steps)-1] != (rules.Step{Kind: StepDrawOffer, Player: 1}) {
		t.Errorf("offer step %+v", steps[len(steps)-1])
	}
	if got := g.ToMove(nil); !slices.Equal(got, []rules.Player{0}) {
		t.Fatalf("after White's offer %v to move, want Black to answer", got)
	}
	if got := legalText(g, 0); !slices.Equal(got, []string{"draw-accept", "draw-decline"}) {
		t.Errorf("answers %v", got)
	}
	if _, err := g.Play(0, SimpleMove(9, 13), nil); !errors.Is(err, rules.ErrIllegal) {
		t.Errorf("a board move instead of an answer: err %v", err)
	}
	playText(t, g, "draw-decline")
	if got := g.ToMove(nil); !slices.Equal(got, []rules.Player{1}) {
		t.Fatalf("after the decline %v to move, want White", got)
	}
	if slices.Contains(legalText(g, 1), "draw-offer") {
		t.Errorf("White may offer again straight after a decline")
	}
	if _, err := g.Play(1, rules.Move{Kind: rules.KindOfferDraw}, nil); !errors.Is(err, rules.ErrIllegal) {
		t.Errorf("a second offer in one turn: err %v", err)
	}
	playText(t, g, "23-19", "draw-offer", "draw-accept")
	if out := g.Outcome(); out.Status != rules.Drawn || out.Reason != "draw agreed" {
		t.Errorf("after acceptance %+v", out)
	}

	g = mustNew(t, rules.Options{OptDrawAgreement: "off"})
	if slices.Contains(legalText(g, 0), "draw-offer") {
		t.Errorf("draw offers listed with draw_agreement off")
	}
	if _, err := g.Play(0, rules.Move{Kind: rules.KindOfferDraw}, nil); !errors.Is(err, rules.ErrIllegal) {
		t.Errorf("offer with draw_agreement off: err %v", err)
	}
}

func TestResign(t *testing.T) {
	g := mustNew(t, nil)
	playText(t, g, "11-15", "resign")
	if out := g.Outcome(); out.Status != rules.Won || !slices.Equal(out.Winners, []rules.Player{0}) {
		t.Errorf("after White resigns %+v", out)
	}
	// Off turn, and while an offer waits for an answer: the server resigns
	// a player who leaves whenever that happens.
	g = mustNew(t, nil)
	playText(t, g, "11-15", "draw-offer")
	m, err := g.ParseMove(0, "resign")
	if err != nil || g.FormatMove(m) != "resign" {
		t.Fatalf("resign parsed off turn as %+v, %v", m, err)
	}
	if _, err := g.Play(0, m, nil); err != nil {
		t.Fatalf("Black resigning off turn: %v", err)
	}
	if out := g.Outcome(); out.Status != rules.Won || !slices.Equal(out.Winners, []rules.Player{1}) || len(g.ToMove(nil)) != 0 {
		t.Errorf("after Black resigns off turn %+v, to move %v", out, g.ToMove(nil))
	}
	// With resign off, Legal does not list it, but a leaving player still resigns.
	g = mustNew(t, rules.Options{OptResign: "off"})
	if slices.Contains(legalText(g, 0), "resign") {
		t.Errorf("resign listed with resign off")
	}
	if _, err := g.Play(0, rules.Move{Kind: rules.KindResign}, nil); err != nil || g.Outcome().Winners[0] != 1 {
		t.Errorf("resign with resign off: err %v, outcome %+v", err, g.Outcome())
	}
}

func TestObserveLayout(t *testing.T) {
	g := mustNew(t, rules.Options{OptFEN: "W:WK26,K27,30:B5,K8,9"})
	want := make([]byte, 32)
	want[5-1], want[8-1], want[9-1] = CellBlackMan, CellBlackKing, CellBlackMan
	want[26-1], want[27-1], want[30-1] = CellWhiteKing, CellWhiteKing, CellWhiteMan
	for _, viewer := range []rules.Player{rules.Spectator, 0, 1} {
		v := g.Observe(viewer)
		if !slices.Equal(v.Cells, want) || !slices.Equal(v.Extra, []byte{1, NoOffer}) || !slices.Equal(v.ToMove, []rules.Player{1}) || v.Viewer != viewer {
			t.Errorf("Observe(%d) = %+v, want cells %v, extra [1 255]", viewer, v, want)
		}
	}
	playText(t, g, "draw-offer")
	if v := g.Observe(0); !slices.Equal(v.Extra, []byte{1, 1}) || !slices.Equal(v.ToMove, []rules.Player{0}) {
		t.Errorf("with White's offer pending: extra %v, to move %v; want [1 1], [0]", v.Extra, v.ToMove)
	}
}

func TestOptions(t *testing.T) {
	tests := []rules.Options{
		{OptCompulsoryCapture: "maybe"},
		{OptDraw40Moves: "2"},
		{OptFEN: "B:W33"},
		{"draw_50_moves": "on"},
	}
	for _, o := range tests {
		if _, err := New(o); !errors.Is(err, rules.ErrOption) {
			t.Errorf("New(%v): err %v, want ErrOption", o, err)
		}
	}
}

func TestView(t *testing.T) {
	g := mustNew(t, nil)
	playText(t, g, "11-15")
	v := g.View(0)
	for _, want := range []string{"FEN W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15", "White to move", "b   .   b   9-12"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	if g.View(1) != v || g.View(rules.Spectator) != v {
		t.Errorf("views differ between seats, though nothing is hidden")
	}
}
