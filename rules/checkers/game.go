package checkers

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/bomber-game/bomber/rules"
)

// Name is the game's name in its Spec.
const Name = "checkers"

// quietLimit is the 40-move rule in plies: forty moves by each side.
const quietLimit = 80

// colourName names the seats as PDN does.
var colourName = [2]string{black: "Black", white: "White"}

// Spec describes English draughts for two players: no chance and no
// secrets, so a move can be taken back; the players may agree a draw.
func Spec() rules.Spec {
	return rules.Spec{
		Name:       Name,
		Title:      "Checkers",
		MinPlayers: 2,
		MaxPlayers: 2,
		Takeback:   true,
		Draws:      true,
		NewBot:     func(seed uint64) rules.Bot { return NewBot(seed) },
		Options:    options,
		New: func(players int, opts rules.Options, _ rules.Rand) (rules.Game, error) {
			if players != 2 {
				return nil, fmt.Errorf("%w: %s is for 2 players, not %d", rules.ErrPlayers, Name, players)
			}
			g, err := New(opts)
			if err != nil {
				return nil, err
			}
			return g, nil
		},
	}
}

// Game is one game of English draughts; seat 0 is Black, seat 1 White.
type Game struct {
	cfg      config
	pos      pos
	history  []pos // positions since the last man move or capture, current last
	quiet    int   // plies since a man moved or a piece was taken
	captured [2]int
	moves    []rules.Move // board moves played, for the PDN record
	offer    rules.Player // the seat whose draw offer is pending, or rules.Spectator
	declined bool         // the side to move has had an offer declined this turn
	outcome  rules.Outcome
}

// New starts a game with the given options (see the package doc).
func New(opts rules.Options) (*Game, error) {
	cfg, err := parseOptions(opts)
	if err != nil {
		return nil, err
	}
	g := &Game{cfg: cfg, pos: cfg.start, history: []pos{cfg.start}, offer: rules.Spectator}
	g.settle()
	return g, nil
}

// Name reports "checkers".
func (g *Game) Name() string { return Name }

// Players reports 2.
func (g *Game) Players() int { return 2 }

// FEN returns the current position in PDN FEN.
func (g *Game) FEN() string { return formatFEN(g.pos) }

// ToMove appends the seat to act: the side to move, or the seat answering
// a pending draw offer; nobody once the game is over.
func (g *Game) ToMove(buf []rules.Player) []rules.Player {
	if g.outcome.Status != rules.Running {
		return buf
	}
	return append(buf, g.actor())
}

func (g *Game) actor() rules.Player {
	if g.offer != rules.Spectator {
		return 1 - g.offer
	}
	return rules.Player(g.pos.side)
}

// Legal appends p's moves: accept or decline while answering a draw offer;
// otherwise the board moves, a draw offer and resignation as the options allow.
func (g *Game) Legal(p rules.Player, buf []rules.Move) []rules.Move {
	if g.outcome.Status != rules.Running || p != g.actor() {
		return buf
	}
	if g.offer != rules.Spectator {
		return append(buf, rules.Move{Kind: rules.KindAcceptDraw}, rules.Move{Kind: rules.KindDeclineDraw})
	}
	var store [64]move
	for _, m := range generate(g.pos, g.cfg.compulsory, store[:0]) {
		buf = append(buf, m.m)
	}
	if g.cfg.agreement && !g.declined {
		buf = append(buf, rules.Move{Kind: rules.KindOfferDraw})
	}
	if g.cfg.resign {
		buf = append(buf, rules.Move{Kind: rules.KindResign})
	}
	return buf
}

// Play applies m for p and appends its steps.
func (g *Game) Play(p rules.Player, m rules.Move, steps []rules.Step) ([]rules.Step, error) {
	if g.outcome.Status != rules.Running {
		return steps, fmt.Errorf("%w: %s", rules.ErrGameOver, g.outcome.Reason)
	}
	if m.Kind == rules.KindResign && (p == black || p == white) {
		// Either seat may resign at any time, on turn or not, offer pending
		// or not: the server resigns a player who leaves.
		if m != (rules.Move{Kind: rules.KindResign}) {
			return steps, fmt.Errorf("%w: resignation carries no arguments", rules.ErrIllegal)
		}
		g.offer = rules.Spectator
		g.outcome = rules.Outcome{Status: rules.Won, Winners: []rules.Player{1 - p}, Reason: colourName[p] + " resigned"}
		return append(steps, rules.Step{Kind: StepResign, Player: p}), nil
	}
	if p != g.actor() {
		return steps, fmt.Errorf("%w: %s is to move", rules.ErrNotYourTurn, colourName[g.actor()])
	}
	if g.offer != rules.Spectator {
		return g.answerOffer(p, m, steps)
	}
	switch m.Kind {
	case rules.KindOfferDraw:
		if !g.cfg.agreement || g.declined || m != (rules.Move{Kind: rules.KindOfferDraw}) {
			return steps, fmt.Errorf("%w: no draw offer may be made now", rules.ErrIllegal)
		}
		g.offer = p
		return append(steps, rules.Step{Kind: StepDrawOffer, Player: p}), nil
	}
	var store [64]move
	for _, l := range generate(g.pos, g.cfg.compulsory, store[:0]) {
		if l.m == m {
			return g.playBoard(p, l, steps), nil
		}
	}
	return steps, fmt.Errorf("%w: %s is not a legal move for %s", rules.ErrIllegal, formatMove(m), colourName[p])
}

func (g *Game) answerOffer(p rules.Player, m rules.Move, steps []rules.Step) ([]rules.Step, error) {
	switch m {
	case rules.Move{Kind: rules.KindAcceptDraw}:
		g.offer = rules.Spectator
		g.outcome = rules.Outcome{Status: rules.Drawn, Reason: "draw agreed"}
		return append(steps, rules.Step{Kind: StepDrawAccept, Player: p}), nil
	case rules.Move{Kind: rules.KindDeclineDraw}:
		g.offer = rules.Spectator
		g.declined = true
		return append(steps, rules.Step{Kind: StepDrawDecline, Player: p}), nil
	}
	return steps, fmt.Errorf("%w: %s must accept or decline the draw offer first", rules.ErrIllegal, colourName[p])
}

// playBoard applies the legal board move l and settles the game.
func (g *Game) playBoard(p rules.Player, l move, steps []rules.Step) []rules.Step {
	before := g.pos
	steps = describeMove(before, l, p, steps)
	g.pos = apply(before, l)
	g.captured[p] += bits.OnesCount32(l.capt)
	g.moves = append(g.moves, l.m)
	g.declined = false
	if irreversible(before, l) {
		g.quiet = 0
		g.history = g.history[:0]
	} else {
		g.quiet++
	}
	g.history = append(g.history, g.pos)
	g.settle()
	return steps
}

// describeMove describes l, played by p from position before, as steps.
func describeMove(before pos, l move, p rules.Player, steps []rules.Step) []rules.Step {
	path := l.m.Arg[:l.m.Len]
	if l.m.Kind == KindMove {
		steps = append(steps, rules.Step{Kind: StepMove, Player: p, A: int16(path[0]), B: int16(path[1])})
	} else {
		for i := 1; i < len(path); i++ {
			steps = append(steps, rules.Step{Kind: StepJump, Player: p,
				A: int16(path[i-1]), B: int16(path[i]), C: int16(between(int(path[i-1])-1, int(path[i])-1) + 1)})
		}
	}
	last := int(path[len(path)-1]) - 1
	if before.kings&(1<<(path[0]-1)) == 0 && crownRow[before.side]&(1<<last) != 0 {
		steps = append(steps, rules.Step{Kind: StepCrown, Player: p, A: int16(last + 1)})
	}
	return steps
}

// between returns the square jumped over from a to b, two diagonal steps apart.
func between(a, b int) int {
	ra, ca := coords(a)
	rb, cb := coords(b)
	return squareAt((ra+rb)/2, (ca+cb)/2)
}

// settle ends the game when the side to move cannot move or a draw rule
// applies; a win (no legal move) takes precedence over a draw.
func (g *Game) settle() {
	var store [64]move
	if len(generate(g.pos, g.cfg.compulsory, store[:0])) == 0 {
		reason := "no legal move"
		if g.pos.count(int(g.pos.side)) == 0 {
			reason = "no pieces left"
		}
		g.outcome = rules.Outcome{Status: rules.Won, Winners: []rules.Player{rules.Player(1 - g.pos.side)}, Reason: reason}
		return
	}
	if g.cfg.repetition {
		n := 0
		for _, h := range g.history {
			if h == g.pos {
				n++
			}
		}
		if n >= 3 {
			g.outcome = rules.Outcome{Status: rules.Drawn, Reason: "threefold repetition"}
			return
		}
	}
	if g.cfg.fortyMoves && g.quiet >= quietLimit {
		g.outcome = rules.Outcome{Status: rules.Drawn, Reason: "40 moves each without a man moved or a piece taken"}
	}
}

// DrawByAgreement is the draw_agreement option: with it off neither the
// players' own draw-offer move nor a table's draw offer is allowed.
func (g *Game) DrawByAgreement() bool { return g.cfg.agreement }

// Outcome reports the result so far.
func (g *Game) Outcome() rules.Outcome {
	o := g.outcome
	o.Winners = slices.Clone(o.Winners)
	return o
}

// Scores appends the number of pieces each seat has captured.
func (g *Game) Scores(buf []int) []int { return append(buf, g.captured[0], g.captured[1]) }

// FormatMove writes m in PDN notation.
func (g *Game) FormatMove(m rules.Move) string { return formatMove(m) }

// ParseMove reads PDN move text ("11-15", "22x15", "11x18x25", or the short
// form "11x25" of an unambiguous multi-jump) and the words draw-offer,
// draw-accept, draw-decline and resign.
func (g *Game) ParseMove(p rules.Player, text string) (rules.Move, error) {
	m, err := parseText(text)
	if err != nil {
		return m, err
	}
	var legal []move
	if g.outcome.Status == rules.Running && g.offer == rules.Spectator && p == g.actor() {
		var store [64]move
		legal = generate(g.pos, g.cfg.compulsory, store[:0])
	}
	return resolve(m, text, legal)
}

// Clone returns an independent copy.
func (g *Game) Clone() rules.Game {
	c := *g
	c.history = slices.Clone(g.history)
	c.moves = slices.Clone(g.moves)
	c.outcome.Winners = slices.Clone(g.outcome.Winners)
	return &c
}
