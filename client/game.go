package client

import (
	"fmt"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/segment"
)

func (c *Client) startDrawing(inviter bool) {
	c.state, c.phase, c.inviter = Game, Drawing, inviter
	c.peerLeft = false
	c.mine, c.mineCells, c.mineHeads = bomber.Board{}, bomber.Set{}, bomber.Set{}
	c.hitOnMine, c.theirTry = bomber.Set{}, bomber.Set{}
	c.theirs, c.theirsCells, c.theirsHeads, c.haveTheirs = bomber.Board{}, bomber.Set{}, bomber.Set{}, false
	c.marks = [bomber.Size * bomber.Size]Mark{}
	c.revealed, c.doubles, c.myTurn, c.guesses = bomber.Set{}, c.doubles[:0], false, 0
	c.outcome = NoOutcome
}

// PlaceBoard sends our three planes. The board is checked first (planes on
// the board, well formed, not overlapping), so an invalid one is never sent.
func (c *Client) PlaceBoard(b bomber.Board) (Out, error) {
	var o Out
	if c.state != Game || c.phase != Drawing {
		return o, fmt.Errorf("place board: %w", ErrState)
	}
	cells, err := b.Cells()
	if err != nil {
		return o, fmt.Errorf("place board: %w: %w", rules.ErrIllegal, err)
	}
	c.mine, c.mineCells = b, cells
	for _, p := range b {
		c.mineHeads = c.mineHeads.Add(p.Head)
	}
	var cs [6]segment.Coord
	for i, p := range b {
		cs[2*i], cs[2*i+1] = toCoord(p.Head), toCoord(p.Tail)
	}
	o.send(segment.NewBoard(cs))
	c.phase = WaitingForBoard
	if c.haveTheirs {
		c.startPlaying(&o)
	}
	return o, nil
}

func (c *Client) onBoard(o *Out, s *segment.Segment) {
	if c.state != Game || c.haveTheirs {
		return
	}
	cs, err := s.Board()
	var b bomber.Board
	for i := range b {
		b[i] = bomber.Plane{Head: toCell(cs[2*i]), Tail: toCell(cs[2*i+1])}
	}
	var cells bomber.Set
	if err == nil {
		cells, err = b.Cells()
	}
	if err != nil {
		o.note(Notice{Kind: NoticeProtocol, Detail: "opponent's board: " + err.Error()})
		return
	}
	c.theirs, c.theirsCells, c.haveTheirs = b, cells, true
	for _, p := range b {
		c.theirsHeads = c.theirsHeads.Add(p.Head)
	}
	// The reference server forwards boards only once both are in; a server
	// that sends it earlier just makes us wait for our own.
	if c.phase == WaitingForBoard {
		c.startPlaying(o)
	}
}

func (c *Client) startPlaying(o *Out) {
	c.phase = Playing
	c.myTurn = c.inviter // the reference client lets the inviter guess first
	o.note(Notice{Kind: NoticeGameStarted, Name: c.peer})
}

func (c *Client) canGuess() error {
	if c.state != Game || c.phase != Playing {
		return fmt.Errorf("guess: %w", ErrState)
	}
	if !c.myTurn {
		return fmt.Errorf("guess: %w", rules.ErrNotYourTurn)
	}
	return nil
}

// CanSingle reports whether x may be guessed: on the board and not known yet.
func (c *Client) CanSingle(x bomber.Cell) error {
	if x >= bomber.Size*bomber.Size {
		return fmt.Errorf("%w: cell off the board", rules.ErrIllegal)
	}
	if c.marks[x] != Unknown {
		return fmt.Errorf("%w: %s is already known", rules.ErrIllegal, cellName(x))
	}
	return nil
}

// CanDouble reports whether p may be guessed as a whole plane: a plane that
// fits the board, not tried before, not already fully revealed.
func (c *Client) CanDouble(p bomber.Plane) error {
	cells, err := p.Cells()
	if err != nil {
		return fmt.Errorf("%w: %s is not a plane: %w", rules.ErrIllegal, planeName(p), err)
	}
	if c.Tried(p) {
		return fmt.Errorf("%w: %s was guessed already", rules.ErrIllegal, planeName(p))
	}
	if cells.Minus(c.revealed).Empty() {
		return fmt.Errorf("%w: %s is already revealed", rules.ErrIllegal, planeName(p))
	}
	return nil
}

// GuessSingle guesses one cell of the opponent's board. The result comes
// back at once as NoticeYourSingle, judged against the opponent's board as
// the reference client judges it.
func (c *Client) GuessSingle(x bomber.Cell) (Out, error) {
	var o Out
	if err := c.canGuess(); err != nil {
		return o, err
	}
	if err := c.CanSingle(x); err != nil {
		return o, err
	}
	o.send(segment.NewSingle(toCoord(x), segment.ASCII))
	r := judge(c.theirsCells, c.theirsHeads, x)
	c.marks[x] = markOf(r)
	if r != bomber.Wrong {
		c.revealed = c.revealed.Add(x)
	}
	o.note(Notice{Kind: NoticeYourSingle, Cell: x, Result: r})
	c.afterMyGuess(&o)
	return o, nil
}

// GuessDouble guesses a whole plane by its head and tail centre. When right,
// all ten cells are revealed.
func (c *Client) GuessDouble(p bomber.Plane) (Out, error) {
	var o Out
	if err := c.canGuess(); err != nil {
		return o, err
	}
	if err := c.CanDouble(p); err != nil {
		return o, err
	}
	o.send(segment.NewDouble(toCoord(p.Head), toCoord(p.Tail), segment.ASCII))
	c.doubles = append(c.doubles, p)
	right := false
	for _, q := range c.theirs {
		if q == p {
			right = true
		}
	}
	if right {
		cells, _ := p.Cells() // checked by CanDouble
		c.revealed = c.revealed.Union(cells)
		for x := bomber.Cell(0); x < bomber.Size*bomber.Size; x++ {
			if cells.Has(x) {
				c.marks[x] = markOf(judge(c.theirsCells, c.theirsHeads, x))
			}
		}
	}
	o.note(Notice{Kind: NoticeYourDouble, Plane: p, Right: right})
	c.afterMyGuess(&o)
	return o, nil
}

func (c *Client) afterMyGuess(o *Out) {
	c.guesses++
	c.myTurn = false
	if c.revealed.Len() == bomber.WinCells {
		// The reference client declares its own victory.
		o.send(segment.Empty(segment.GameOver))
		c.endGame(o, Won)
	}
}

func (c *Client) onSingle(o *Out, s *segment.Segment) {
	if c.state != Game || c.phase != Playing {
		return
	}
	c.myTurn = true
	defer c.checkLost()
	at, err := s.Single()
	x := toCell(at)
	if err != nil || x == bomber.NoCell {
		o.note(Notice{Kind: NoticeTheirMiss, Name: c.peer})
		return
	}
	c.theirTry = c.theirTry.Add(x)
	r := judge(c.mineCells, c.mineHeads, x)
	if r != bomber.Wrong {
		c.hitOnMine = c.hitOnMine.Add(x)
	}
	o.note(Notice{Kind: NoticeTheirSingle, Name: c.peer, Cell: x, Result: r})
}

func (c *Client) onDouble(o *Out, s *segment.Segment) {
	if c.state != Game || c.phase != Playing {
		return
	}
	c.myTurn = true
	defer c.checkLost()
	h, t, err := s.Double()
	if err != nil {
		o.note(Notice{Kind: NoticeTheirMiss, Name: c.peer})
		return
	}
	p := bomber.Plane{Head: toCell(h), Tail: toCell(t)}
	right := false
	for _, q := range c.mine {
		if q == p {
			right = true
			cells, _ := q.Cells() // validated by PlaceBoard
			c.hitOnMine = c.hitOnMine.Union(cells)
		}
	}
	o.note(Notice{Kind: NoticeTheirDouble, Name: c.peer, Plane: p, Right: right})
}

// checkLost stops our guessing once the opponent has revealed all our
// cells: the game is lost, and the server's GameOver is on its way. Guessing
// on would let us "win" a game that is already over.
func (c *Client) checkLost() {
	if c.hitOnMine.Len() == bomber.WinCells {
		c.myTurn = false
	}
}

func (c *Client) onGameOver(o *Out) {
	if c.state != Game {
		return
	}
	// The server sends GameOver both to the loser and to a player whose
	// opponent left; our own board tells which.
	if c.phase == Playing && c.hitOnMine.Len() == bomber.WinCells && !c.peerLeft {
		c.endGame(o, Lost)
		return
	}
	c.endGame(o, OpponentLeft)
}

func (c *Client) endGame(o *Out, out Outcome) {
	c.outcome = out
	c.state, c.myTurn = ClientWaiting, false
	o.note(Notice{Kind: NoticeGameOver, Name: c.peer, Outcome: out})
}

func judge(cells, heads bomber.Set, x bomber.Cell) bomber.Result {
	switch {
	case heads.Has(x):
		return bomber.Head
	case cells.Has(x):
		return bomber.Body
	}
	return bomber.Wrong
}

func markOf(r bomber.Result) Mark {
	switch r {
	case bomber.Body:
		return Hit
	case bomber.Head:
		return HeadHit
	}
	return Miss
}
