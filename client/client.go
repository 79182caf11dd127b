package client

import (
	"errors"
	"slices"

	"github.com/bomber-game/bomber/rules/bomber"
	"github.com/bomber-game/bomber/segment"
)

// ErrState: the request makes no sense in the client's current state (for
// example inviting while a game is on). Nothing was sent.
var ErrState = errors.New("not possible now")

// Out is what one event produced: segments to write, in order, in one write,
// and notices to show.
type Out struct {
	Send    []segment.Segment
	Notices []Notice
}

func (o *Out) send(s segment.Segment) { o.Send = append(o.Send, s) }
func (o *Out) note(n Notice)          { o.Notices = append(o.Notices, n) }

// Mark is what a player knows about one cell of a board.
type Mark uint8

// Cell marks.
const (
	Unknown Mark = iota // not guessed
	Miss                // guessed, no plane there
	Hit                 // a plane cell other than a head
	HeadHit             // a plane's head
)

// Client is one client session's protocol state. The zero value is not
// ready; use New.
type Client struct {
	state State
	phase Phase

	user, password string // as typed for the login in progress
	savedUser      string // credentials of the last successful login,
	savedPassword  string // used to log in again on a new connection

	online []string // other users online, in the order we learnt of them

	peer     string // invitee while inviting, inviter while invited, opponent in a game
	inviter  bool   // we invited the opponent (and so guess first)
	peerLeft bool   // the opponent went offline during the game

	mine      bomber.Board
	mineCells bomber.Set
	mineHeads bomber.Set
	hitOnMine bomber.Set // our cells the opponent has revealed
	theirTry  bomber.Set // cells the opponent has guessed singly

	theirs      bomber.Board // the opponent's board: never exposed
	theirsCells bomber.Set
	theirsHeads bomber.Set
	haveTheirs  bool
	marks       [bomber.Size * bomber.Size]Mark // results of our guesses
	revealed    bomber.Set                      // enemy cells we revealed
	doubles     []bomber.Plane                  // our double guesses so far
	myTurn      bool
	guesses     int

	outcome Outcome
}

// New returns a client in state Init, not connected.
func New() *Client { return &Client{} }

// State is the protocol state.
func (c *Client) State() State { return c.state }

// Phase is the game phase (meaningful in state Game).
func (c *Client) Phase() Phase { return c.phase }

// User is the name of the logged-in user, or the one logging in.
func (c *Client) User() string { return c.user }

// Saved reports whether credentials from an earlier successful login are
// kept, so that a new connection logs in by itself.
func (c *Client) Saved() bool { return c.savedUser != "" }

// Online returns the other users online (a fresh copy).
func (c *Client) Online() []string { return slices.Clone(c.online) }

// Peer is the invitee while inviting, the inviter while invited, and the
// opponent during a game.
func (c *Client) Peer() string { return c.peer }

// Inviter reports whether we invited the current opponent.
func (c *Client) Inviter() bool { return c.inviter }

// MyTurn reports whether we may guess now.
func (c *Client) MyTurn() bool { return c.state == Game && c.phase == Playing && c.myTurn }

// Guesses is how many guesses we have made in the current or last game.
func (c *Client) Guesses() int { return c.guesses }

// MyBoard is our board once it is sent.
func (c *Client) MyBoard() (bomber.Board, bool) {
	return c.mine, c.state == Game && c.phase != Drawing || c.outcome != NoOutcome
}

// TheirBoard is the opponent's board, but only once the game is over (an
// outcome to show): during play it stays hidden, as the bot's fairness and
// a player's trust need.
func (c *Client) TheirBoard() (bomber.Board, bool) {
	return c.theirs, c.haveTheirs && c.outcome != NoOutcome && c.state != Game
}

// MyCells is every cell of our planes and the heads among them.
func (c *Client) MyCells() (cells, heads bomber.Set) { return c.mineCells, c.mineHeads }

// TheirGuesses is the cells the opponent guessed singly and the cells of
// ours the opponent has revealed (by singles and right doubles).
func (c *Client) TheirGuesses() (tried, revealed bomber.Set) { return c.theirTry, c.hitOnMine }

// Mark is what our guesses revealed about cell x of the opponent's board.
func (c *Client) Mark(x bomber.Cell) Mark {
	if x >= bomber.Size*bomber.Size {
		return Unknown
	}
	return c.marks[x]
}

// Revealed is how many enemy plane cells we have revealed (30 wins).
func (c *Client) Revealed() int { return c.revealed.Len() }

// Tried reports whether we already guessed plane p as a double.
func (c *Client) Tried(p bomber.Plane) bool { return slices.Contains(c.doubles, p) }

// Outcome is how the last game ended, until Acknowledge.
func (c *Client) Outcome() Outcome { return c.outcome }

// Acknowledge clears the last outcome once the user has seen it.
func (c *Client) Acknowledge() { c.outcome = NoOutcome }

// Connected starts a session on a new connection. With credentials from an
// earlier successful login it logs in again at once, as the reference client
// does after a reconnect.
func (c *Client) Connected() Out {
	var o Out
	c.resetSession()
	c.state = GatherUserInfo
	if c.savedUser != "" {
		o, _ = c.Login(c.savedUser, c.savedPassword)
	}
	return o
}

// Disconnected records that the connection is gone. A game in progress is
// over for us.
func (c *Client) Disconnected() Out {
	var o Out
	if c.state == Game {
		c.endGame(&o, Disconnected)
	}
	o.note(Notice{Kind: NoticeDisconnected})
	c.resetSession()
	c.state = Init
	return o
}

// Forget drops the saved credentials (the user logs in by hand next time).
func (c *Client) Forget() { c.savedUser, c.savedPassword = "", "" }

func (c *Client) resetSession() {
	c.online = c.online[:0]
	c.peer, c.inviter, c.peerLeft = "", false, false
	c.phase = Drawing
}
