package paisho

import (
	"fmt"
	"slices"

	"github.com/bomber-game/bomber/rules"
)

// Name is the game's short name in its Spec.
const Name = "paisho"

// OptMoveLimit is the option key for a draw after that many board moves
// (deploys and tile moves, both players counted); 0, the default, means none.
const OptMoveLimit = "move-limit"

// Spec describes Vagabond Pai Sho for two players: no chance and no
// secrets, so a move can be taken back; the players may agree a draw.
func Spec() rules.Spec {
	return rules.Spec{
		Name:       Name,
		Title:      "Pai Sho",
		MinPlayers: 2,
		MaxPlayers: 2,
		Takeback:   true,
		Draws:      true,
		NewBot:     func(seed uint64) rules.Bot { return NewBot(rules.BotRand(seed)) },
		Options: []rules.OptionSpec{{
			Key: OptMoveLimit, Doc: "draw after this many board moves of both players (0: no limit)",
			Kind: rules.OptionInt, Default: "0", Min: 0, Max: maxMoveLimit,
		}},
		New: newGame,
	}
}

// maxMoveLimit is the largest move-limit option accepted.
const maxMoveLimit = 100000

func newGame(players int, opts rules.Options, _ rules.Rand) (rules.Game, error) {
	g, err := New(players, opts)
	if err != nil {
		return nil, err
	}
	return g, nil
}

// New starts a game; Pai Sho draws nothing at random, so it needs no Rand.
func New(players int, opts rules.Options) (*Game, error) {
	if players != 2 {
		return nil, fmt.Errorf("%w: Pai Sho is for 2 players, not %d", rules.ErrPlayers, players)
	}
	if err := opts.Check(OptMoveLimit); err != nil {
		return nil, err
	}
	limit, err := opts.Int(OptMoveLimit, 0, 0, maxMoveLimit)
	if err != nil {
		return nil, err
	}
	return &Game{pos: newPosition(), moveLimit: limit}, nil
}

// Record is one action of a game as it is written down.
type Record struct {
	Player rules.Player
	Move   rules.Move
}

// Game is one match of Vagabond Pai Sho; seat 0 is the host, who moves
// first, seat 1 the guest.
type Game struct {
	pos       position
	moveLimit int
	history   []Record
	out       rules.Outcome
}

var _ rules.Game = (*Game)(nil)

// Name is "paisho".
func (g *Game) Name() string { return Name }

// Players is always 2.
func (g *Game) Players() int { return 2 }

// ToMove lists the player whose turn it is, or nobody once the game is over.
func (g *Game) ToMove(buf []rules.Player) []rules.Player {
	if g.out.Status != rules.Running {
		return buf
	}
	return append(buf, g.pos.turn)
}

// Legal lists p's deploys and tile moves, then the draw and resign actions
// open to p.
func (g *Game) Legal(p rules.Player, buf []rules.Move) []rules.Move {
	if g.out.Status != rules.Running || p != g.pos.turn {
		return buf
	}
	buf = g.pos.appendBoardMoves(p, buf)
	if g.pos.offer == noOne {
		buf = append(buf, OfferDraw())
	} else if rules.Player(g.pos.offer) != p {
		buf = append(buf, AcceptDraw(), DeclineDraw())
	}
	return append(buf, Resign())
}

// Play applies m for p. Either seat may resign at any time; every other
// action is for the seat to move.
func (g *Game) Play(p rules.Player, m rules.Move, steps []rules.Step) ([]rules.Step, error) {
	if g.out.Status != rules.Running {
		return steps, fmt.Errorf("%w: %s", rules.ErrGameOver, g.out.Reason)
	}
	if m.Kind == rules.KindResign && (p == host || p == guest) {
		if m.Len != 0 {
			return steps, fmt.Errorf("%w: %s", rules.ErrIllegal, MoveText(m))
		}
		steps = append(steps, rules.Step{Kind: StepResigned, Player: p})
		g.end(rules.Won, reasonResigned, 1-p)
		g.history = append(g.history, Record{p, m})
		return steps, nil
	}
	if p != g.pos.turn {
		return steps, fmt.Errorf("%w: it is seat %d's turn", rules.ErrNotYourTurn, g.pos.turn)
	}
	ps := &g.pos
	switch m.Kind {
	case KindDeploy, KindMove:
		if !ps.boardMoveLegal(p, m) {
			return steps, fmt.Errorf("%w: %s", rules.ErrIllegal, MoveText(m))
		}
		if ps.offer != noOne && rules.Player(ps.offer) != p {
			ps.offer = noOne
			steps = append(steps, rules.Step{Kind: StepDrawDeclined, Player: p})
		}
		var captured Tile
		steps, captured = ps.applyBoard(m, steps)
		g.history = append(g.history, Record{p, m})
		switch {
		case captured == Lotus:
			g.end(rules.Won, reasonLotus, p)
		case g.moveLimit > 0 && int(ps.plies) >= g.moveLimit:
			g.end(rules.Drawn, reasonMoveLimit)
		case !ps.hasBoardMove(ps.turn):
			g.end(rules.Drawn, reasonNoMove)
		}
		return steps, nil
	case rules.KindOfferDraw:
		if m.Len != 0 || ps.offer != noOne {
			return steps, fmt.Errorf("%w: a draw offer is already pending", rules.ErrIllegal)
		}
		ps.offer = int8(p)
		steps = append(steps, rules.Step{Kind: StepDrawOffered, Player: p})
	case rules.KindAcceptDraw, rules.KindDeclineDraw:
		if m.Len != 0 || ps.offer == noOne || rules.Player(ps.offer) == p {
			return steps, fmt.Errorf("%w: no draw offer to answer", rules.ErrIllegal)
		}
		ps.offer = noOne
		if m.Kind == rules.KindDeclineDraw {
			steps = append(steps, rules.Step{Kind: StepDrawDeclined, Player: p})
			break
		}
		steps = append(steps, rules.Step{Kind: StepDrawAccepted, Player: p})
		g.end(rules.Drawn, reasonDrawAgreed)
	default:
		return steps, fmt.Errorf("%w: unknown move kind %d", rules.ErrIllegal, m.Kind)
	}
	g.history = append(g.history, Record{p, m})
	return steps, nil
}

// Reasons a game ends, in the order of the view layout's end codes 1..5.
const (
	reasonLotus      = "White Lotus captured"
	reasonResigned   = "resignation"
	reasonDrawAgreed = "draw agreed"
	reasonMoveLimit  = "move limit reached"
	reasonNoMove     = "no legal move"
)

func (g *Game) end(s rules.Status, reason string, winners ...rules.Player) {
	g.out = rules.Outcome{Status: s, Reason: reason, Winners: winners}
}

// DrawByAgreement is true: either player may offer a draw (docs/games/paisho.md).
func (g *Game) DrawByAgreement() bool { return true }

// Outcome reports the result so far.
func (g *Game) Outcome() rules.Outcome {
	o := g.out
	o.Winners = slices.Clone(o.Winners)
	return o
}

// Scores are the numbers of tiles each player has captured.
func (g *Game) Scores(buf []int) []int {
	return append(buf, int(g.pos.captured[host]), int(g.pos.captured[guest]))
}

// FormatMove writes m in move notation without a line prefix.
func (g *Game) FormatMove(m rules.Move) string { return MoveText(m) }

// ParseMove reads a move as p would write it now: bare ("S(0,8)") or as a
// whole notation line ("3H.S(0,8)"), whose number must be this turn's and
// whose seat must be p, and the seat to move unless the move is "resign".
func (g *Game) ParseMove(p rules.Player, text string) (rules.Move, error) {
	num, seat, m, hasPrefix, err := parseAny(text)
	if err != nil {
		return rules.Move{}, err
	}
	if hasPrefix {
		if seat != p || (seat != g.pos.turn && m.Kind != rules.KindResign) || num != g.TurnNumber() {
			return rules.Move{}, fmt.Errorf("%w: %q is not turn %d%c", rules.ErrNotation, text, g.TurnNumber(), seatLetter(p))
		}
	}
	return m, nil
}

// TurnNumber is the number written before the current turn's notation
// lines: host and guest share it, and it grows after the guest's move.
func (g *Game) TurnNumber() int { return int(g.pos.plies)/2 + 1 }

// History lists every action played so far.
func (g *Game) History() []Record { return slices.Clone(g.history) }

// Notation is the game so far as notation text, one line per action.
func (g *Game) Notation() string { return FormatGame(g.history) }

// Redact returns a clone: Pai Sho hides nothing (both libraries are
// public) and draws nothing at random.
func (g *Game) Redact(rules.Player) rules.Game { return g.Clone() }

// Clone returns an independent copy.
func (g *Game) Clone() rules.Game {
	c := *g
	c.history = slices.Clone(g.history)
	c.out.Winners = slices.Clone(g.out.Winners)
	return &c
}

// TileAt reports the tile on p and its owner (NoTile on an empty point).
func (g *Game) TileAt(p Point) (Tile, rules.Player) {
	if !p.OnBoard() {
		return NoTile, rules.Spectator
	}
	c := g.pos.board[p.index()]
	if c == 0 {
		return NoTile, rules.Spectator
	}
	return tileOf(c), ownerOf(c)
}

// Library reports how many tiles of kind t player p has still to deploy.
func (g *Game) Library(p rules.Player, t Tile) int {
	if p != host && p != guest || t >= tileKinds {
		return 0
	}
	return int(g.pos.lib[p][t])
}

// DrawOffered reports the seat whose draw offer is pending, if any.
func (g *Game) DrawOffered() (rules.Player, bool) {
	if g.pos.offer == noOne {
		return rules.Spectator, false
	}
	return rules.Player(g.pos.offer), true
}
