package account

import (
	"fmt"
	"github.com/bomber-game/bomber/rules/record"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// MaxNameLen and MaxPasswordLen are the longest name and password in bytes:
// one wire segment carries at most 29 payload bytes.
const (
	MaxNameLen     = 29
	MaxPasswordLen = 29
)

// ValidName reports whether name may be a user name: 1..29 bytes of valid
// UTF-8 without control characters or bidi formatting characters (which
// would let a name reorder what is shown after it).
func ValidName(name string) bool {
	if len(name) == 0 || len(name) > MaxNameLen || !utf8.ValidString(name) {
		return false
	}
	for _, r := range name {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return false
		}
	}
	return true
}

// ValidPassword reports whether password has 1..29 bytes.
func ValidPassword(password string) bool {
	return len(password) > 0 && len(password) <= MaxPasswordLen
}

func checkName(name string) error {
	if !ValidName(name) || name == record.DeletedPlayer {
		return fmt.Errorf("%w: %s", ErrBadName, quoteName(name))
	}
	return nil
}

func checkPassword(password string) error {
	if !ValidPassword(password) {
		return fmt.Errorf("%w: length %d, want 1..%d bytes", ErrBadPassword, len(password), MaxPasswordLen)
	}
	return nil
}

// quoteName quotes a possibly hostile name for error messages and logs.
func quoteName(name string) string {
	if len(name) > 64 {
		name = name[:64]
	}
	return strconv.Quote(name)
}
