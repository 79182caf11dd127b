// Package rules defines the interface every game Bomber hosts implements.
//
// A game is pure: it does no I/O, starts no goroutines, reads no clock and
// draws randomness only from the Rand it was given, so the same seed and the
// same moves always give the same game. Moves and the steps they cause are
// small fixed-size values, so hot paths (Bomber's relayed guesses, a bot's
// search) allocate nothing.
//
// The interface serves all five seed games: two to four players (Player is a
// seat index), dice (a roll is a move whose outcome the game draws from its
// Rand), hidden information (View renders what one seat may see), phases in
// which several players act at once (ToMove may list more than one seat), and
// legal-move enumeration for bots and clients.
package rules

import (
	"errors"
	"math/rand/v2"
)

// Player is a seat index from 0 to Players()-1, in joining order.
type Player int8

// Spectator is the viewer that is not seated; it sees public information only.
const Spectator Player = -1

// Sentinel errors callers branch on; games wrap them with %w for detail.
var (
	// ErrNotYourTurn: the player may not act now; the game is unchanged.
	ErrNotYourTurn = errors.New("not your turn")
	// ErrIllegal: the move breaks a rule; the game is unchanged.
	ErrIllegal = errors.New("illegal move")
	// ErrGameOver: the game has ended; the game is unchanged.
	ErrGameOver = errors.New("game over")
	// ErrNotation: move text could not be parsed.
	ErrNotation = errors.New("bad move notation")
	// ErrOption: an option key or value is unknown or out of range.
	ErrOption = errors.New("bad game option")
	// ErrPlayers: the number of players is outside the game's range.
	ErrPlayers = errors.New("unsupported number of players")
)

// MoveArgs is the capacity of Move.Arg: enough for a checkers multi-jump path,
// a Bomber board (12 coordinates) or a Pai Sho tile and two points.
const MoveArgs = 16

// Move is one action in a compact, game-defined encoding. It is comparable,
// so it can key maps and be checked for repetition. Each game package
// documents its kinds and offers typed constructors; FormatMove and ParseMove
// turn it to and from the game's notation.
type Move struct {
	Kind uint8           // game-defined; values from KindOfferDraw up are shared
	Len  uint8           // meaningful bytes in Arg
	Arg  [MoveArgs]uint8 // game-defined arguments
}

// Kinds shared by games that support them (a game that does not answers
// ErrIllegal). They carry no arguments.
const (
	KindOfferDraw   uint8 = 250 // offer the other players a draw
	KindAcceptDraw  uint8 = 251 // accept a pending draw offer
	KindDeclineDraw uint8 = 252 // decline a pending draw offer
	KindResign      uint8 = 253 // give the game up
)

// Step is one visible consequence of a move, in the order it happened
// (a piece moved, jumped, flew or was captured; a die rolled; a cell was
// revealed). Each game package documents its step kinds and what A, B and C
// hold.
//
// A step is public unless Hidden: a hidden step may be shown to seat Player
// alone (and to everyone in the record once the game is over). The hub sends
// each step only to those who may see it, so a game marks every step that
// carries a seat's secret.
type Step struct {
	Kind    uint8
	Player  Player
	Hidden  bool
	A, B, C int16
}

// VisibleTo reports whether viewer (a seat or Spectator) may see s.
func (s Step) VisibleTo(viewer Player) bool { return !s.Hidden || viewer == s.Player }

// Status tells whether a game is still being played and how it ended.
type Status uint8

// Game statuses.
const (
	Running Status = iota // moves are still expected
	Won                   // one or more winners (several on a tie for first)
	Drawn                 // nobody won
)

func (s Status) String() string {
	switch s {
	case Running:
		return "running"
	case Won:
		return "won"
	case Drawn:
		return "drawn"
	}
	return "unknown"
}

// Outcome is how a game ended, or Status Running while it goes on.
type Outcome struct {
	Status  Status
	Winners []Player // with Won: the winner, or every player tied for first
	Reason  string   // short, human-readable: "all planes found", "threefold repetition"
}

// Rand is the injected source of randomness; *math/rand/v2.Rand satisfies it.
type Rand interface {
	// IntN returns a uniform value in [0, n); n > 0.
	IntN(n int) int
}

// Game is the authoritative state of one match.
type Game interface {
	// Name is the game's short name, as in its Spec.
	Name() string
	// Players is the number of seats.
	Players() int
	// ToMove appends the players who may act now to buf: usually one, several
	// in simultaneous phases, none once the game is over.
	ToMove(buf []Player) []Player
	// Legal appends every move p may make now to buf (none when p may not act).
	Legal(p Player, buf []Move) []Move
	// Play applies m for p and appends the steps it caused to steps. On error
	// (wrapping ErrNotYourTurn, ErrIllegal or ErrGameOver) the game is unchanged.
	Play(p Player, m Move, steps []Step) ([]Step, error)
	// Outcome reports the result so far.
	Outcome() Outcome
	// Scores appends each seat's score (captures, boxes, pieces home...) to buf.
	Scores(buf []int) []int
	// FormatMove writes m in the game's notation.
	FormatMove(m Move) string
	// ParseMove reads a move in the game's notation as made by p.
	ParseMove(p Player, text string) (Move, error)
	// View renders the game as seat viewer may see it (Spectator: public
	// information only); hidden information never leaks to another seat.
	View(viewer Player) string
	// Observe is View as data a protocol can carry: the same information,
	// in the game's documented byte layout, and nothing more.
	Observe(viewer Player) View
	// Redact returns an independent copy holding only what seat p may know:
	// every other seat's hidden state is erased and chance draws come from a
	// generator unrelated to the real game's. Games without hidden
	// information return a clone. Bots are given nothing else (see Seat).
	Redact(p Player) Game
	// DrawByAgreement reports whether this game's rules, with its options,
	// let the players agree a draw. It never changes during a game. The
	// server asks it before it lets anyone offer a draw at a table, so a
	// game or option without draws by agreement never ends "agreed".
	DrawByAgreement() bool
	// Clone returns an independent deep copy (for bots and search). A game
	// with chance gives the clone its own generator, derived from the
	// position: playing on a clone neither disturbs nor reveals the real
	// game's future draws.
	Clone() Game
}

// View is what one viewer may see of a game, as structured data. Cells and
// Extra are laid out as the game's package documents (its "view layout"),
// so any client can draw the game from a View alone.
type View struct {
	Viewer Player   // the seat it was made for, or Spectator
	Status Status   // running or how it ended
	ToMove []Player // seats that may act now
	Scores []int    // by seat, as Game.Scores
	Cells  []byte   // the board, one byte per cell or point (game-defined)
	Extra  []byte   // other public or own state: hands, dice, counters (game-defined)
}

// Options are a game's settings as key/value text (from configuration);
// each game documents its keys, and unknown keys are an error.
type Options map[string]string

// OptionKind is the type of an option's value.
type OptionKind uint8

// Option kinds.
const (
	OptionInt    OptionKind = iota // a whole number in [Min, Max]
	OptionBool                     // "true" or "false"
	OptionChoice                   // one of Choices
	OptionText                     // free text the game parses (a starting position); Default is valid
)

// OptionSpec describes one key a game's Options accept, for catalogues and
// clients that build a settings form.
type OptionSpec struct {
	Key      string
	Doc      string // one line, for people
	Kind     OptionKind
	Default  string
	Min, Max int      // OptionInt
	Choices  []string // OptionChoice
}

// Spec describes a game and how to start one. It is the one place each
// fact about a game lives: the hub, the catalogue it sends clients, the
// record tools and the clients all read it from here.
type Spec struct {
	// Name is the short name the protocol, the records and the notation
	// files use ("dots").
	Name string
	// Title is the game's name for people ("Dots and Boxes").
	Title string
	// MinPlayers and MaxPlayers bound the number of seats.
	MinPlayers int
	MaxPlayers int
	// Takeback allows a move to be taken back by agreement. Only a game
	// with neither chance nor secret moves sets it: undoing a move by
	// replaying all but the last from the seed then shows nobody anything
	// new.
	Takeback bool
	// Draws: the game can end drawn by agreement (the table's draw offer),
	// as the catalogue tells clients; an option may still turn them off
	// for one table, which the game's DrawByAgreement answers (the hub
	// asks that).
	Draws bool
	// BotOnTimeout: when a seat's clock runs out, the computer player
	// (NewBot) moves for it this turn; otherwise the seat resigns.
	BotOnTimeout bool
	// NewBot returns the game's computer player, its choices drawn from
	// seed alone (the same seed, the same choices); nil: the game has none.
	NewBot func(seed uint64) Bot
	// Options lists every key New accepts, in display order.
	Options []OptionSpec
	// New starts a game for the given number of players. rng supplies every
	// random draw the game makes (games without chance may ignore it).
	New func(players int, opts Options, rng Rand) (Game, error)
}

// BotRand is the generator a computer player that takes a Rand draws its
// choices from, for NewBot's seed.
func BotRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0xb07)) }

// Seat is a game as one seat may know it: what a bot is given. It holds a
// redacted copy (Game.Redact), so a bot cannot read another seat's hidden
// state or the real game's future chance draws, whatever it does.
type Seat struct {
	game   Game
	player Player
}

// SeatOf returns what seat p of g may know.
func SeatOf(g Game, p Player) Seat { return Seat{game: g.Redact(p), player: p} }

// Player is the seat.
func (s Seat) Player() Player { return s.player }

// Game is the seat's own redacted copy; playing on it changes nothing real.
func (s Seat) Game() Game { return s.game }

// Bot chooses moves for a seat. Bots are deterministic for a given seed and
// see only what their Seat holds.
type Bot interface {
	// Choose returns the move the bot makes for its seat, which must be to move.
	Choose(s Seat) (Move, error)
}

// SecretMoves is implemented by games whose moves can carry a seat's secret
// (a Bomber board). The hub shows such a move, and its notation, to its mover
// only until the game is over; its steps say only what others may know.
type SecretMoves interface {
	// SecretMove reports whether m must be shown to its mover only (until
	// the game is over).
	SecretMove(m Move) bool
}

// Resigning and leaving. KindResign in a two-player game ends it with the
// other seat winning. In a game of three or four, the resigning seat leaves
// and the game goes on without it (its turns are skipped; its pieces leave
// the board or stay, as the game documents); when one seat is left it wins.
// Every game accepts KindResign from any seat still playing, on turn or not.

// PartHints is implemented by games whose move a seat builds in parts (a
// Bomber board, plane by plane): given the parts chosen so far, it lists
// every legal next part, so a client can show where a piece may go when
// the whole moves are too many to list.
type PartHints interface {
	// NextParts lists, appended to buf, every part seat p may add to
	// chosen (the first parts of its move's argument) such that the move
	// can still be completed; each is a Move of the whole move's kind whose
	// Arg holds the part alone. It fails when p is not building such a move
	// now or chosen is not a legal start of one.
	NextParts(p Player, chosen []byte, buf []Move) ([]Move, error)
}
