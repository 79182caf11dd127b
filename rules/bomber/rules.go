package bomber

import (
	"fmt"
	"strings"
	"sync"

	"github.com/bomber-game/bomber/rules"
)

// Move kinds (rules.Move.Kind) and their arguments (digit values 0..9).
const (
	KindBoard  uint8 = 1 // Arg: h1x h1y t1x t1y h2x h2y t2x t2y h3x h3y t3x t3y; Len 12
	KindSingle uint8 = 2 // Arg: x y; Len 2
	KindDouble uint8 = 3 // Arg: head x y, tail x y; Len 4
	KindMiss   uint8 = 4 // a guess that could not be read; no Arg
)

// Step kinds (rules.Step.Kind) a move reports.
const (
	StepBoard  uint8 = 1 // Player placed a board
	StepSingle uint8 = 2 // Player guessed cell A; B is the Result
	StepDouble uint8 = 3 // Player guessed plane head A, tail B; C is 1 when right
	StepMiss   uint8 = 4 // Player's guess could not be read; nothing revealed
	StepWon    uint8 = 5 // Player found all three enemy planes
	StepResign uint8 = 6 // Player resigned; the other seat wins
)

// KindResign is rules.KindResign: a seat gives the game up, in any phase,
// on turn or not; notation "resign".
const KindResign = rules.KindResign

// Spec describes Bomber for the hub and tools. Option "first": the seat
// that guesses first, 0 (the inviter, as the reference client plays) or 1.
// A board is a secret move, so no move is taken back; no draw offers. The
// computer player is in package bot, which builds on this one: bot.Spec is
// this Spec with NewBot set, and is the one rules/games lists.
func Spec() rules.Spec {
	return rules.Spec{Name: "bomber", Title: "Bomber", MinPlayers: 2, MaxPlayers: 2, New: newGame, Options: []rules.OptionSpec{{
		Key: "first", Kind: rules.OptionInt, Default: "0", Min: 0, Max: 1,
		Doc: "the seat that guesses first: 0 (the inviter) or 1",
	}}}
}

func newGame(players int, opts rules.Options, _ rules.Rand) (rules.Game, error) {
	if players != 2 {
		return nil, fmt.Errorf("%w: bomber is played by 2, not %d", rules.ErrPlayers, players)
	}
	if err := opts.Check("first"); err != nil {
		return nil, err
	}
	first, err := opts.Int("first", 0, 0, 1)
	if err != nil {
		return nil, err
	}
	return New(rules.Player(first)), nil
}

// BoardMove encodes a board as a move.
func BoardMove(b Board) rules.Move {
	m := rules.Move{Kind: KindBoard, Len: 12}
	for i, p := range b {
		m.Arg[4*i], m.Arg[4*i+1] = uint8(p.Head.X()), uint8(p.Head.Y())
		m.Arg[4*i+2], m.Arg[4*i+3] = uint8(p.Tail.X()), uint8(p.Tail.Y())
	}
	return m
}

// SingleMove encodes a single guess.
func SingleMove(c Cell) rules.Move {
	return rules.Move{Kind: KindSingle, Len: 2, Arg: [rules.MoveArgs]uint8{uint8(c.X()), uint8(c.Y())}}
}

// DoubleMove encodes a double guess.
func DoubleMove(p Plane) rules.Move {
	return rules.Move{Kind: KindDouble, Len: 4, Arg: [rules.MoveArgs]uint8{uint8(p.Head.X()), uint8(p.Head.Y()), uint8(p.Tail.X()), uint8(p.Tail.Y())}}
}

func argCell(m rules.Move, i int) Cell { return CellAt(int(m.Arg[i]), int(m.Arg[i+1])) }

// Name implements rules.Game.
func (g *Game) Name() string { return "bomber" }

// Players implements rules.Game.
func (g *Game) Players() int { return 2 }

// ToMove implements rules.Game: both seats while drawing (each until it has
// placed), the seat on turn while guessing.
func (g *Game) ToMove(buf []rules.Player) []rules.Player {
	switch g.phase {
	case Drawing:
		for p := rules.Player(0); p < 2; p++ {
			if !g.seats[p].placed {
				buf = append(buf, p)
			}
		}
	case Guessing:
		buf = append(buf, g.turn)
	}
	return buf
}

// boardMoves lists every valid board, planes in placement order: the legal
// moves while drawing. It is built once, on first use, and never changed.
var boardMoves = sync.OnceValue(func() []rules.Move {
	cells := make([]Set, len(placements))
	for i, pl := range placements {
		cells[i], _ = pl.Cells()
	}
	var out []rules.Move
	for i := range placements {
		for j := i + 1; j < len(placements); j++ {
			if !cells[i].Inter(cells[j]).Empty() {
				continue
			}
			ij := cells[i].Union(cells[j])
			for k := j + 1; k < len(placements); k++ {
				if ij.Inter(cells[k]).Empty() {
					out = append(out, BoardMove(Board{placements[i], placements[j], placements[k]}))
				}
			}
		}
	}
	return out
})

// Legal implements rules.Game. While drawing it lists every valid board
// with its planes in placement order (66,816 of them); while guessing, every
// single guess on a cell not guessed before and every double guess not tried
// before (Play also accepts repeats, which reveal nothing new).
func (g *Game) Legal(p rules.Player, buf []rules.Move) []rules.Move {
	if seatOK(p) != nil {
		return buf
	}
	switch {
	case g.phase == Drawing && !g.seats[p].placed:
		buf = append(buf, boardMoves()...)
	case g.phase == Guessing && g.turn == p:
		for c := Cell(0); c < Size*Size; c++ {
			if !g.seats[p].guessed.Has(c) {
				buf = append(buf, SingleMove(c))
			}
		}
		for i, pl := range placements {
			if g.tried[p][i/64]&(1<<(i%64)) == 0 {
				buf = append(buf, DoubleMove(pl))
			}
		}
	}
	return buf
}

// Play implements rules.Game.
func (g *Game) Play(p rules.Player, m rules.Move, steps []rules.Step) ([]rules.Step, error) {
	if g.phase == Over {
		return steps, rules.ErrGameOver
	}
	if err := seatOK(p); err != nil {
		return steps, err
	}
	if m.Kind == KindResign {
		if m != (rules.Move{Kind: KindResign}) {
			return steps, fmt.Errorf("%w: resignation carries no arguments", rules.ErrIllegal)
		}
		g.Resign(p) // cannot fail: the seat is valid and the game running
		return append(steps, rules.Step{Kind: StepResign, Player: p}), nil
	}
	if g.phase == Drawing && m.Kind != KindBoard || g.phase == Guessing && m.Kind == KindBoard {
		return steps, fmt.Errorf("%w: %s move while %s", rules.ErrNotYourTurn, kindName(m.Kind), g.phaseName())
	}
	var err error
	switch m.Kind {
	case KindBoard:
		if m.Len != 12 {
			return steps, fmt.Errorf("%w: board needs 12 digits", rules.ErrIllegal)
		}
		var b Board
		for i := range b {
			b[i] = Plane{argCell(m, 4*i), argCell(m, 4*i+2)}
		}
		if err = g.SetBoard(p, b); err == nil {
			steps = append(steps, rules.Step{Kind: StepBoard, Player: p})
		}
	case KindSingle:
		var r Result
		c := argCell(m, 0)
		if r, err = g.Single(p, c); err == nil {
			steps = append(steps, rules.Step{Kind: StepSingle, Player: p, A: int16(c), B: int16(r)})
		}
	case KindDouble:
		var right bool
		h, t := argCell(m, 0), argCell(m, 2)
		if right, err = g.Double(p, h, t); err == nil {
			c := int16(0)
			if right {
				c = 1
			}
			steps = append(steps, rules.Step{Kind: StepDouble, Player: p, A: int16(h), B: int16(t), C: c})
		}
	case KindMiss:
		if err = g.Miss(p); err == nil {
			steps = append(steps, rules.Step{Kind: StepMiss, Player: p})
		}
	default:
		return steps, fmt.Errorf("%w: unknown move kind %d", rules.ErrIllegal, m.Kind)
	}
	if err == nil && g.phase == Over {
		steps = append(steps, rules.Step{Kind: StepWon, Player: g.winner})
	}
	return steps, err
}

func (g *Game) phaseName() string {
	return [...]string{"drawing", "guessing", "over"}[g.phase]
}

func kindName(k uint8) string {
	switch k {
	case KindBoard:
		return "board"
	case KindSingle:
		return "single"
	case KindDouble:
		return "double"
	case KindMiss:
		return "miss"
	}
	return "unknown"
}

// DrawByAgreement is false: Bomber has no draw offers; someone finds the
// other's planes or resigns.
func (g *Game) DrawByAgreement() bool { return false }

// Outcome implements rules.Game.
func (g *Game) Outcome() rules.Outcome {
	if g.phase != Over {
		return rules.Outcome{Status: rules.Running}
	}
	reason := "all planes found"
	if g.resigned {
		reason = fmt.Sprintf("seat %d resigned", 1-g.winner)
	}
	return rules.Outcome{Status: rules.Won, Winners: []rules.Player{g.winner}, Reason: reason}
}

// Scores implements rules.Game: the enemy plane cells each seat has revealed.
func (g *Game) Scores(buf []int) []int {
	return append(buf, g.seats[1].revealed.Len(), g.seats[0].revealed.Len())
}

// FormatMove implements rules.Game. Notation: a single guess is the cell's
// row and column digits ("34"); a double guess is head-tail ("02-32"); a
// board is three planes ("02-32 05-55 70-73"); a miss is "-"; resigning
// is "resign".
func (g *Game) FormatMove(m rules.Move) string {
	d := func(i int) string { return fmt.Sprintf("%d%d", m.Arg[i], m.Arg[i+1]) }
	switch m.Kind {
	case KindSingle:
		return d(0)
	case KindDouble:
		return d(0) + "-" + d(2)
	case KindBoard:
		return d(0) + "-" + d(2) + " " + d(4) + "-" + d(6) + " " + d(8) + "-" + d(10)
	case KindMiss:
		return "-"
	case KindResign:
		return "resign"
	}
	return fmt.Sprintf("?%d", m.Kind)
}

// ParseMove implements rules.Game.
func (g *Game) ParseMove(_ rules.Player, text string) (rules.Move, error) {
	digits := func(parts ...string) (rules.Move, error) {
		var m rules.Move
		for _, p := range parts {
			if len(p) != 2 || p[0] < '0' || p[0] > '9' || p[1] < '0' || p[1] > '9' {
				return m, fmt.Errorf("%w: %q", rules.ErrNotation, text)
			}
			m.Arg[m.Len], m.Arg[m.Len+1] = p[0]-'0', p[1]-'0'
			m.Len += 2
		}
		return m, nil
	}
	var (
		m   rules.Move
		err error
	)
	fields := strings.Fields(text)
	switch {
	case text == "-":
		return rules.Move{Kind: KindMiss}, nil
	case text == "resign":
		return rules.Move{Kind: KindResign}, nil
	case len(fields) == 3:
		var parts []string
		for _, f := range fields {
			a, b, ok := strings.Cut(f, "-")
			if !ok {
				return m, fmt.Errorf("%w: %q", rules.ErrNotation, text)
			}
			parts = append(parts, a, b)
		}
		m, err = digits(parts...)
		m.Kind = KindBoard
	case strings.Contains(text, "-"):
		a, b, _ := strings.Cut(text, "-")
		m, err = digits(a, b)
		m.Kind = KindDouble
	default:
		m, err = digits(text)
		m.Kind = KindSingle
	}
	return m, err
}

// View implements rules.Game. A seat sees its own planes (P, H for heads,
// x where the enemy has hit them) and the enemy grid with what it has
// revealed (h head, b body, o a miss); a spectator sees both revealed grids.
// Then each seat's double guesses, in placement order, + when right.
func (g *Game) View(viewer rules.Player) string {
	var b strings.Builder
	fmt.Fprintf(&b, "bomber phase=%s turn=%d guesses=%d/%d\n", g.phaseName(), g.turn, g.seats[0].guesses, g.seats[1].guesses)
	grid := func(title string, own bool, s *seat, guesser *seat) {
		b.WriteString(title + "\n")
		for x := range Size {
			for y := range Size {
				c := CellAt(x, y)
				ch := byte('.')
				switch {
				case s.revealed.Has(c) && s.heads.Has(c):
					ch = 'h'
				case s.revealed.Has(c):
					ch = 'b'
				case own && s.heads.Has(c):
					ch = 'H'
				case own && s.cells.Has(c):
					ch = 'P'
				case guesser.guessed.Has(c):
					ch = 'o'
				}
				if own && s.revealed.Has(c) {
					ch = 'x'
				}
				b.WriteByte(ch)
			}
			b.WriteByte('\n')
		}
	}
	for p := rules.Player(0); p < 2; p++ {
		own := viewer == p
		grid(fmt.Sprintf("seat %d planes:", p), own, &g.seats[p], &g.seats[1-p])
	}
	for p := range 2 {
		fmt.Fprintf(&b, "seat %d doubles:", p)
		for i, pl := range placements {
			if g.tried[p][i/64]&(1<<(i%64)) == 0 {
				continue
			}
			mark := byte('-')
			if g.right[p][i/64]&(1<<(i%64)) != 0 {
				mark = '+'
			}
			b.Write([]byte{' ', '0' + byte(pl.Head.X()), '0' + byte(pl.Head.Y()), '-', '0' + byte(pl.Tail.X()), '0' + byte(pl.Tail.Y()), mark})
		}
		b.WriteByte('\n')
	}
	if g.phase == Over {
		fmt.Fprintf(&b, "winner: seat %d\n", g.winner)
	}
	return b.String()
}

// Clone implements rules.Game.
func (g *Game) Clone() rules.Game {
	c := *g
	return &c
}
