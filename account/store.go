package account

import (
	"context"
	"time"

	"github.com/bomber-game/bomber/rules/record"
)

// Store keeps accounts and finished games. Implementations are safe for
// concurrent use; every method honours ctx and fails with an error wrapping
// ErrUnavailable when the database cannot serve it.
type Store interface {
	// Exists reports whether an account has this name (false for invalid names).
	Exists(ctx context.Context, name string) (bool, error)
	// Verify checks name/password: nil, ErrNoUser, ErrWrongPassword, or an
	// error wrapping ErrUnavailable. A legacy (wrapped MD5) hash that
	// verifies is replaced by argon2id(password).
	Verify(ctx context.Context, name, password string) error
	// Add creates an account: ErrExists, ErrBadName, ErrBadPassword.
	Add(ctx context.Context, name, password string) error
	// Register creates an account a person asked for, by the sign-up
	// rules (CheckSignupName, CheckSignupPassword): ErrBadName,
	// ErrBadPassword, and ErrExists when the name or one that looks like
	// it (NameKey) is taken.
	Register(ctx context.Context, name, password string) error
	// Delete removes an account, its ratings and their history:
	// ErrNoUser. Its recorded games stay, anonymised: their seats name
	// record.DeletedPlayer instead, and the name is free again.
	Delete(ctx context.Context, name string) error
	// SetPassword replaces an account's password: ErrNoUser, ErrBadPassword.
	SetPassword(ctx context.Context, name, password string) error
	// List returns all accounts ordered by name.
	List(ctx context.Context) ([]User, error)
	// Count returns the number of accounts.
	Count(ctx context.Context) (int, error)
	// ImportLegacy adds reference-server accounts with their MD5 hashes
	// wrapped in argon2id. Names that already exist are skipped and listed
	// in a *SkippedError (which matches ErrExists); the rest are imported.
	// Invalid input (ErrBadName, ErrBadHash) aborts before anything is written.
	ImportLegacy(ctx context.Context, accounts []LegacyAccount) (imported int, err error)
	// RecordGame stores a finished game of any kind with its seats and
	// moves, in one transaction, and returns its id; ErrBadGame for a record
	// that cannot be stored (see CheckGame). Storing the same seeded record
	// again (a retry after a lost answer) returns the first id and stores
	// nothing; another game with a seed already stored is ErrBadGame.
	//
	// A rated game (record.Game.Rated) that has a result updates, in the
	// same transaction, the Glicko-2 ratings in its game of the players
	// who have accounts (see Rating); a computer seat, an aborted or
	// abandoned game and a record stored again change no rating.
	RecordGame(ctx context.Context, g record.Game) (id uint64, err error)
	// RecordGames is RecordGame for up to MaxBatch games in one
	// transaction (what a busy server's recorder saves is mostly the
	// commits), with their ids in order. When one of them is ErrBadGame
	// nothing is stored and the error says which (RecordGame stores the
	// others); a stored again is recognised as in RecordGame.
	RecordGames(ctx context.Context, gs []record.Game) (ids []uint64, err error)
	// Games returns the recorded games f selects, newest end first, with
	// their seats and MoveCount but without their moves.
	Games(ctx context.Context, f GameFilter) ([]record.Game, error)
	// Ratings returns a player's ratings, one per game they played rated,
	// ordered by game; none for a player without rated games.
	Ratings(ctx context.Context, name string) ([]Rating, error)
	// RatingHistory returns what up to limit (0 or more than MaxHistory:
	// MaxHistory) of a player's rated games did to their rating, in one
	// game or ("") all, newest first.
	RatingHistory(ctx context.Context, name, game string, limit int) ([]RatingChange, error)
	// Leaderboard returns up to limit (0 or more than MaxLeaderboard:
	// MaxLeaderboard) of a game's ratings that are not provisional,
	// highest first.
	Leaderboard(ctx context.Context, game string, limit int) ([]Rating, error)
	// Game returns one recorded game with its moves: ErrNoGame.
	Game(ctx context.Context, id uint64) (record.Game, error)
	// Ping checks that the database answers.
	Ping(ctx context.Context) error
	// Close releases the database; later calls fail with ErrUnavailable.
	Close() error
}

// User is one account as List shows it.
type User struct {
	Name    string
	Legacy  bool      // still holds a wrapped reference-server MD5 hash
	Created time.Time // UTC
}

// LegacyAccount is one row of the reference server's account table.
type LegacyAccount struct {
	Name   string
	MD5Hex string // hex MD5 of the password, unsalted
}

// GameFilter selects recorded games for Games.
type GameFilter struct {
	Game  string // only games of this name; "" for all
	User  string // only games with a seat held by this user; "" for all
	Limit int    // at most this many; 0 (or more than MaxGames) for MaxGames
	Skip  int    // leave out this many of the newest first (paging)
}

// Limits of a stored game record (see CheckGame).
const (
	MaxReasonLen   = 32     // Reason: 1..32 printable ASCII bytes
	MaxDetailLen   = 64     // Outcome.Reason: up to 64 bytes of UTF-8 without control characters
	MaxGameNameLen = 16     // Game: 1..16 printable ASCII bytes
	MaxSeats       = 4      // Seats: 1..4
	MaxMoves       = 10_000 // Moves: at most this many
	MaxNotationLen = 64     // Move.Text: 1..64 bytes of UTF-8 without control characters
	MaxOptionsLen  = 1024   // Options as JSON
	MaxGames       = 1000   // the most Games returns
)

// DefaultOpTimeout bounds each database call whose context has no earlier deadline.
const DefaultOpTimeout = 5 * time.Second
