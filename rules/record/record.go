// Package record holds a finished game as it is stored: enough to list it,
// export it in the game's notation, and replay it through the rules to check
// that it reproduces the stored outcome.
package record

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/bomber-game/bomber/rules"
)

// DeletedPlayer is the name a record's seat shows once its player deleted
// their account: the game stays (their opponents' history and ratings
// rest on it) but no longer names them. No account can have this name
// (sign-up names start with a letter; operators' are refused it), so the
// name a deleted account had is free to be taken again and its new owner
// inherits no games.
const DeletedPlayer = "(deleted)"

// Seat is one seat of a recorded game.
type Seat struct {
	Name string // the user who sat there ("" for a seat that stayed empty)
	Bot  bool   // a computer player held the seat at some point
}

// Move is one accepted move.
type Move struct {
	Seat rules.Player
	Text string // the move in the game's notation
	At   int64  // shell time it was accepted (nanoseconds)
}

// Game is a finished (or abandoned) game.
type Game struct {
	ID      uint64 // the store's id; 0 before it is stored
	Game    string // the game's Spec name
	Options rules.Options
	Seats   []Seat
	Seed    Seed // the table's random seed, revealed once the game is over
	Moves   []Move
	// MoveCount is the number of moves: len(Moves) when they are loaded,
	// and set by stores that list games without their moves.
	MoveCount int
	Outcome   rules.Outcome
	Scores    []int
	Reason    Reason // why it ended
	// Leaver is the seat that left when Reason is Abandoned, else rules.Spectator.
	Leaver rules.Player
	Start  int64 // shell time the game started (nanoseconds since the Unix epoch)
	End    int64
}

// Reason is why a game ended, as records store it, GameEnd and exports
// show it and the games-finished metric counts it. Stores keep it as its
// text, so records written before a reason existed still read back.
type Reason string

// End reasons.
const (
	Won       Reason = "won"       // the rules ended it with a winner, by a move on the board
	Drawn     Reason = "drawn"     // the rules ended it drawn
	Resigned  Reason = "resigned"  // a player resigned or left, and the rules gave the others the game
	Agreed    Reason = "agreed"    // the players agreed a draw
	Timeout   Reason = "timeout"   // a clock ran out and its player lost
	Abandoned Reason = "abandoned" // no person was left to play it on (Leaver is who left last); no result
	Aborted   Reason = "aborted"   // the server stopped it (shutdown, its node lost); no result
)

// Reasons lists every Reason in a fixed order (metrics index their counters by it).
var Reasons = [...]Reason{Won, Drawn, Resigned, Agreed, Timeout, Abandoned, Aborted}

// String is the reason as stored and exported.
func (r Reason) String() string { return string(r) }

// Index is r's position in Reasons, or -1 for a reason this build does not know.
func (r Reason) Index() int { return slices.Index(Reasons[:], r) }

// HasResult reports whether a game that ended for r has the rules' (or the
// players') result; an abandoned or aborted game has none.
func (r Reason) HasResult() bool { return r != Abandoned && r != Aborted }

// RatedOption is the table option ("true" or "false", default false) that
// makes a table's games rated: the store updates its players' ratings when
// it records them. The hub takes it out before the game's rules see the
// options and the record keeps it, so the store knows.
const RatedOption = "rated"

// Rated reports whether g was played at a rated table.
func (g *Game) Rated() bool { return g.Options[RatedOption] == "true" }

// Seed is a table's random seed; it is written as 64 hex digits in JSON.
type Seed [32]byte

// MarshalText writes the seed as hex.
func (s Seed) MarshalText() ([]byte, error) { return []byte(hex.EncodeToString(s[:])), nil }

// UnmarshalText reads 64 hex digits.
func (s *Seed) UnmarshalText(b []byte) error {
	if hex.DecodedLen(len(b)) != len(s) {
		return fmt.Errorf("record: seed must be %d hex digits", 2*len(s))
	}
	_, err := hex.Decode(s[:], b)
	return err
}

// ChatOption and StartOption are table options of the hub's rooms (whether
// watchers chat apart, who starts the game): the record keeps them, the
// game's rules never see them.
const (
	ChatOption  = "chat"
	StartOption = "start"
)

// GameOptions are a table's options without the hub's own keys (the
// "clock." time control, RatedOption, ChatOption and StartOption), as the
// game's New takes them.
func GameOptions(o rules.Options) rules.Options {
	out := make(rules.Options, len(o))
	for k, v := range o {
		if !strings.HasPrefix(k, "clock.") && k != RatedOption && k != ChatOption && k != StartOption {
			out[k] = v
		}
	}
	return out
}

// Rand is the generator a table with seed uses for every chance draw.
func Rand(seed [32]byte) *rand.Rand { return rand.New(rand.NewChaCha8(seed)) }

// Commit is the commitment to seed a table publishes when its game starts.
func Commit(seed [32]byte) [32]byte { return sha256.Sum256(seed[:]) }

// ErrMismatch: a replayed record does not reproduce its stored outcome.
var ErrMismatch = errors.New("record does not replay to its outcome")

// Replay plays rec's moves through spec from its seed and returns the game.
// It fails when a move does not parse or is refused, or, for a game the
// rules ended (its stored outcome is not Running, and it was not drawn by
// agreement, which the rules do not know), when the outcome differs.
func Replay(spec rules.Spec, rec *Game) (rules.Game, error) {
	if spec.Name != rec.Game {
		return nil, fmt.Errorf("record of %q replayed as %q", rec.Game, spec.Name)
	}
	g, err := spec.New(len(rec.Seats), GameOptions(rec.Options), Rand(rec.Seed))
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", rec.Game, err)
	}
	for i, m := range rec.Moves {
		mv, err := g.ParseMove(m.Seat, m.Text)
		if err != nil {
			return g, fmt.Errorf("move %d %q: %w", i+1, m.Text, err)
		}
		if _, err := g.Play(m.Seat, mv, nil); err != nil {
			return g, fmt.Errorf("move %d %q by seat %d: %w", i+1, m.Text, m.Seat, err)
		}
	}
	if rec.Outcome.Status != rules.Running && rec.Reason != Agreed {
		got := g.Outcome()
		if got.Status != rec.Outcome.Status || !slices.Equal(got.Winners, rec.Outcome.Winners) {
			return g, fmt.Errorf("%w: replay gives %s %v, stored %s %v", ErrMismatch, got.Status, got.Winners, rec.Outcome.Status, rec.Outcome.Winners)
		}
	}
	return g, nil
}
