package account

import (
	"context"
	"time"
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
	// Delete removes an account: ErrNoUser. Its recorded games stay.
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
	// RecordGame stores a finished game: ErrBadGame for an impossible record.
	RecordGame(ctx context.Context, g Game) error
	// Games returns up to limit (at most MaxGames; none for limit <= 0)
	// finished games, newest end first.
	Games(ctx context.Context, limit int) ([]Game, error)
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

// Game is one finished game. Times are stored in UTC with microsecond
// precision.
type Game struct {
	ID      int64     // assigned by the store; ignored by RecordGame
	Players [2]string // two distinct valid names
	Winner  string    // one of Players, or "" when nobody won
	Reason  string    // why it ended, 1..MaxReasonLen printable ASCII bytes, as bomberd writes it: "won", "aborted", "abandoned by inviter" or "abandoned by invitee"
	Guesses int       // shots fired in the game, >= 0
	Start   time.Time
	End     time.Time // not before Start
}

// MaxReasonLen is the longest Game.Reason; MaxGames the most Games returns.
const (
	MaxReasonLen = 32
	MaxGames     = 1000
)

// DefaultOpTimeout bounds each database call whose context has no earlier deadline.
const DefaultOpTimeout = 5 * time.Second
