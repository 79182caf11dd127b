package account

import "errors"

// Sentinel errors; the store wraps them with %w, test them with errors.Is.
var (
	// ErrNoUser reports that no account has the given name.
	ErrNoUser = errors.New("account: no such user")
	// ErrWrongPassword reports that the password does not match the stored hash.
	ErrWrongPassword = errors.New("account: wrong password")
	// ErrExists reports that an account with the given name already exists.
	ErrExists = errors.New("account: user exists")
	// ErrUnavailable reports that the database could not serve the call
	// (unreachable, timed out, closed, I/O error); retrying later may work.
	ErrUnavailable = errors.New("account: store unavailable")
	// ErrBadName reports a user name outside 1..29 bytes, not UTF-8, or with control characters.
	ErrBadName = errors.New("account: bad user name")
	// ErrBadPassword reports a password outside 1..29 bytes.
	ErrBadPassword = errors.New("account: bad password")
	// ErrBadGame reports a game record that cannot be stored (see CheckGame);
	// storing it again will not help.
	ErrBadGame = errors.New("account: bad game record")
	// ErrNoGame reports that no recorded game has the given id.
	ErrNoGame = errors.New("account: no such game")
	// ErrBadHash reports a stored or legacy hash that cannot be parsed.
	ErrBadHash = errors.New("account: bad password hash")
	// ErrBadLegacy reports a legacy account file that cannot be read.
	ErrBadLegacy = errors.New("account: bad legacy account data")
	// ErrSchema reports a database whose schema version is not the one this build expects.
	ErrSchema = errors.New("account: schema version mismatch")
	// ErrNoStore reports that the embedded store's file does not exist
	// (OpenExisting and OpenExistingDB do not create it).
	ErrNoStore = errors.New("account: no store")
)

// SkippedError is returned by ImportLegacy when some names already existed;
// the other accounts were imported all the same. It matches ErrExists.
type SkippedError struct {
	// Names lists the skipped user names in input order.
	Names []string
}

// Error lists how many names were skipped and the first few of them.
func (e *SkippedError) Error() string {
	const show = 5
	s := "account: skipped existing users:"
	for i, n := range e.Names {
		if i == show {
			return s + " ..."
		}
		s += " " + quoteName(n)
	}
	return s
}

// Is makes errors.Is(err, ErrExists) true for a SkippedError.
func (e *SkippedError) Is(target error) bool { return target == ErrExists }

func isExists(err error) bool { return errors.Is(err, ErrExists) }
