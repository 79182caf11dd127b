package account

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/crypto/argon2"
)

// PHC identifiers: the standard argon2id one and Bomber's legacy wrap of
// the reference server's unsalted MD5 (argon2id over the MD5's hex digits).
const (
	idArgon2id  = "argon2id"
	idLegacyMD5 = "bomber-md5-argon2id"
)

// LegacyPrefix starts every stored hash that still wraps a reference-server
// MD5; such an account is upgraded at its next login.
const LegacyPrefix = "$" + idLegacyMD5 + "$"

// Bounds accepted when parsing, so that a corrupt or hostile stored hash
// cannot make Verify allocate gigabytes or spin for minutes.
const (
	maxMemoryKiB = 1 << 21 // 2 GiB
	maxTime      = 64
	minSaltLen   = 8
	maxSaltLen   = 64
	minKeyLen    = 16
	maxKeyLen    = 64
)

var b64 = base64.RawStdEncoding

// phc is a parsed hash string.
type phc struct {
	id   string
	p    Params
	salt []byte
	key  []byte
}

// PHCInfo describes a parsed hash string.
type PHCInfo struct {
	Legacy bool   // the hash wraps a reference-server MD5
	Params Params // parameters it was made with
}

// ParsePHC parses a stored hash string ("$id$v=19$m=M,t=T,p=P$salt$key") without verifying anything.
func ParsePHC(s string) (PHCInfo, error) {
	ph, err := parsePHC(s)
	if err != nil {
		return PHCInfo{}, err
	}
	return PHCInfo{Legacy: ph.id == idLegacyMD5, Params: ph.p}, nil
}

// parsePHC parses "$id$v=19$m=M,t=T,p=P$salt$key" with id argon2id or the
// legacy id, unpadded standard base64 salt and key, and bounded parameters.
func parsePHC(s string) (phc, error) {
	bad := func(why string) (phc, error) {
		return phc{}, fmt.Errorf("%w: %s", ErrBadHash, why)
	}
	if len(s) > 512 {
		return bad("too long")
	}
	f := strings.Split(s, "$")
	if len(f) != 6 || f[0] != "" {
		return bad("want 5 '$'-separated fields")
	}
	var ph phc
	switch f[1] {
	case idArgon2id, idLegacyMD5:
		ph.id = f[1]
	default:
		return bad("unknown algorithm")
	}
	if f[2] != "v=19" {
		return bad("unsupported version")
	}
	params := strings.Split(f[3], ",")
	if len(params) != 3 {
		return bad("want m=,t=,p=")
	}
	for i, name := range []string{"m=", "t=", "p="} {
		v, ok := strings.CutPrefix(params[i], name)
		if !ok || v == "" || (len(v) > 1 && v[0] == '0') {
			return bad("want m=,t=,p=")
		}
		n, err := strconv.ParseUint(v, 10, 32)
		if err != nil {
			return bad("parameter out of range")
		}
		switch i {
		case 0:
			ph.p.Memory = uint32(n)
		case 1:
			ph.p.Time = uint32(n)
		case 2:
			if n > 255 {
				return bad("parameter out of range")
			}
			ph.p.Threads = uint8(n)
		}
	}
	var ok bool
	if ph.salt, ok = decodeB64(f[4]); !ok {
		return bad("salt is not canonical unpadded base64")
	}
	if ph.key, ok = decodeB64(f[5]); !ok {
		return bad("key is not canonical unpadded base64")
	}
	ph.p.SaltLen, ph.p.KeyLen = uint32(len(ph.salt)), uint32(len(ph.key))
	if err := ph.p.check(); err != nil {
		return bad(err.Error())
	}
	return ph, nil
}

// decodeB64 accepts only the canonical encoding, so that one hash has one
// spelling (the decoder alone would skip newlines).
func decodeB64(s string) ([]byte, bool) {
	b, err := b64.Strict().DecodeString(s)
	if err != nil || b64.EncodeToString(b) != s {
		return nil, false
	}
	return b, true
}

// String formats the hash in PHC form.
func (ph phc) String() string {
	return fmt.Sprintf("$%s$v=%d$m=%d,t=%d,p=%d$%s$%s", ph.id, argon2.Version,
		ph.p.Memory, ph.p.Time, ph.p.Threads, b64.EncodeToString(ph.salt), b64.EncodeToString(ph.key))
}

// check rejects parameters argon2id cannot use or that exceed the bounds.
func (p Params) check() error {
	switch {
	case p.Threads < 1:
		return fmt.Errorf("threads %d < 1", p.Threads)
	case p.Time < 1 || p.Time > maxTime:
		return fmt.Errorf("time %d outside 1..%d", p.Time, maxTime)
	case p.Memory < 8*uint32(p.Threads) || p.Memory > maxMemoryKiB:
		return fmt.Errorf("memory %d KiB outside %d..%d", p.Memory, 8*uint32(p.Threads), maxMemoryKiB)
	case p.SaltLen < minSaltLen || p.SaltLen > maxSaltLen:
		return fmt.Errorf("salt length %d outside %d..%d", p.SaltLen, minSaltLen, maxSaltLen)
	case p.KeyLen < minKeyLen || p.KeyLen > maxKeyLen:
		return fmt.Errorf("key length %d outside %d..%d", p.KeyLen, minKeyLen, maxKeyLen)
	}
	return nil
}

// Check reports whether argon2id can use p; a child process that derives
// keys for the daemon checks each request with it before hashing.
func (p Params) Check() error { return p.check() }
