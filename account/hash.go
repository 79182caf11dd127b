package account

import (
	"context"
	"crypto/md5"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"sync"

	"golang.org/x/crypto/argon2"
)

// Params are argon2id's cost parameters and output sizes.
type Params struct {
	Memory  uint32 // KiB
	Time    uint32 // passes
	Threads uint8  // lanes
	SaltLen uint32 // bytes
	KeyLen  uint32 // bytes
}

// OWASPParams returns the OWASP Password Storage Cheat Sheet's first
// argon2id configuration: 19 MiB of memory, 2 passes, 1 lane; 16-byte salt
// and 32-byte key.
func OWASPParams() Params {
	return Params{Memory: 19 * 1024, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}
}

// Deriver computes an argon2id key. The daemon's runs it in a child
// process (account/hashproc), so that each hash's Params.Memory KiB of
// scratch is garbage in that process's heap, not in the engine's.
type Deriver interface {
	Derive(ctx context.Context, password, salt []byte, p Params) ([]byte, error)
}

// LocalDeriver computes keys in this process with x/crypto's argon2id.
type LocalDeriver struct{}

// Derive returns argon2id(password, salt) under p.
func (LocalDeriver) Derive(_ context.Context, password, salt []byte, p Params) ([]byte, error) {
	return argon2.IDKey(password, salt, p.Time, p.Memory, p.Threads, p.KeyLen), nil
}

// Hasher hashes and verifies passwords with at most maxConcurrent argon2id
// computations in flight, because each one holds Params.Memory KiB.
type Hasher struct {
	p   Params
	sem chan struct{}
	d   Deriver

	mu       sync.Mutex
	inFlight int
	peak     int
}

// NewHasher returns a Hasher for p that runs at most maxConcurrent hashes at
// once (at least 1), in this process. It panics on parameters argon2id
// cannot use, a programming error.
func NewHasher(p Params, maxConcurrent int) *Hasher {
	return NewHasherWith(p, maxConcurrent, LocalDeriver{})
}

// NewHasherWith is NewHasher with the keys computed by d.
func NewHasherWith(p Params, maxConcurrent int, d Deriver) *Hasher {
	if err := p.check(); err != nil {
		panic("account: NewHasher: " + err.Error())
	}
	if maxConcurrent < 1 {
		maxConcurrent = 1
	}
	return &Hasher{p: p, sem: make(chan struct{}, maxConcurrent), d: d}
}

// Params returns the parameters new hashes are made with.
func (h *Hasher) Params() Params { return h.p }

// Peak returns the largest number of hashes that were ever in flight at once.
func (h *Hasher) Peak() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.peak
}

// Hash returns the PHC string of argon2id(password) with a fresh salt.
// It waits for a free slot, or fails with ctx's error.
func (h *Hasher) Hash(ctx context.Context, password string) (string, error) {
	salt := make([]byte, h.p.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("account: salt: %w", err)
	}
	key, err := h.derive(ctx, []byte(password), salt, h.p)
	if err != nil {
		return "", err
	}
	return phc{id: idArgon2id, p: h.p, salt: salt, key: key}.String(), nil
}

// WrapLegacy returns the stored form of a reference-server MD5 hash:
// argon2id over its lowercase hex digits, under the legacy prefix.
func (h *Hasher) WrapLegacy(ctx context.Context, md5Hex string) (string, error) {
	digits, err := normalizeMD5(md5Hex)
	if err != nil {
		return "", err
	}
	salt := make([]byte, h.p.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("account: salt: %w", err)
	}
	key, err := h.derive(ctx, []byte(digits), salt, h.p)
	if err != nil {
		return "", err
	}
	return phc{id: idLegacyMD5, p: h.p, salt: salt, key: key}.String(), nil
}

// Verify reports whether password matches the stored PHC string encoded,
// comparing keys in constant time. rehash is true when the match should be
// replaced by a fresh Hash: the stored form is a legacy MD5 wrap or was made
// with other parameters. err is ErrBadHash for an unparsable string or
// ctx's error while waiting for a slot.
func (h *Hasher) Verify(ctx context.Context, encoded, password string) (ok, rehash bool, err error) {
	ph, err := parsePHC(encoded)
	if err != nil {
		return false, false, err
	}
	input := []byte(password)
	if ph.id == idLegacyMD5 {
		sum := md5.Sum(input)
		input = []byte(hex.EncodeToString(sum[:]))
	}
	key, err := h.derive(ctx, input, ph.salt, ph.p)
	if err != nil {
		return false, false, err
	}
	if subtle.ConstantTimeCompare(key, ph.key) != 1 {
		return false, false, nil
	}
	return true, ph.id == idLegacyMD5 || ph.p != h.p, nil
}

// derive runs argon2id, by the Hasher's Deriver, inside the semaphore.
func (h *Hasher) derive(ctx context.Context, password, salt []byte, p Params) ([]byte, error) {
	select {
	case h.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("account: waiting to hash: %w", ctx.Err())
	}
	h.mu.Lock()
	h.inFlight++
	h.peak = max(h.peak, h.inFlight)
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.inFlight--
		h.mu.Unlock()
		<-h.sem
	}()
	return h.d.Derive(ctx, password, salt, p)
}

// MD5Hex returns the lowercase hex MD5 of password, the reference server's
// stored form; tools use it to build legacy test data.
func MD5Hex(password string) string {
	sum := md5.Sum([]byte(password))
	return hex.EncodeToString(sum[:])
}

func normalizeMD5(s string) (string, error) {
	if len(s) != 2*md5.Size {
		return "", fmt.Errorf("%w: MD5 hex must have %d digits, got %d", ErrBadHash, 2*md5.Size, len(s))
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return "", fmt.Errorf("%w: MD5 hex: %v", ErrBadHash, err)
	}
	return hex.EncodeToString(b), nil
}
