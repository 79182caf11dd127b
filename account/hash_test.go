package account

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
)

func TestOWASPParams(t *testing.T) {
	// OWASP Password Storage Cheat Sheet: argon2id, m=19 MiB, t=2, p=1.
	want := Params{Memory: 19456, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}
	if got := OWASPParams(); got != want {
		t.Errorf("OWASPParams() = %+v, want %+v", got, want)
	}
}

// TestRealHash makes and checks one hash with the production parameters.
func TestRealHash(t *testing.T) {
	h := NewHasher(OWASPParams(), 1)
	ctx := t.Context()
	enc, err := h.Hash(ctx, "123")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(enc, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Errorf("hash %q does not carry the OWASP parameters", enc)
	}
	for _, c := range []struct {
		pw     string
		wantOK bool
	}{{"123", true}, {"124", false}, {"", false}} {
		ok, rehash, err := h.Verify(ctx, enc, c.pw)
		if ok != c.wantOK || rehash || err != nil {
			t.Errorf("Verify(%q) = %v, %v, %v; want %v", c.pw, ok, rehash, err, c.wantOK)
		}
	}
}

func TestHashesAreSalted(t *testing.T) {
	h := cheapHasher()
	a, _ := h.Hash(t.Context(), "same")
	b, _ := h.Hash(t.Context(), "same")
	if a == b {
		t.Error("two hashes of one password are equal")
	}
}

func TestLegacyWrap(t *testing.T) {
	h := cheapHasher()
	ctx := t.Context()
	enc, err := h.WrapLegacy(ctx, "202CB962AC59075B964B07152D234B70") // MD5("123"), upper case
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(enc, LegacyPrefix) {
		t.Fatalf("wrapped hash %q lacks %s", enc, LegacyPrefix)
	}
	cases := []struct {
		pw                 string
		wantOK, wantRehash bool
	}{
		{"123", true, true},
		{"1234", false, false},
		{"202cb962ac59075b964b07152d234b70", false, false},
	}
	for _, c := range cases {
		ok, rehash, err := h.Verify(ctx, enc, c.pw)
		if ok != c.wantOK || rehash != c.wantRehash || err != nil {
			t.Errorf("Verify(%q) = %v, %v, %v; want %v, %v", c.pw, ok, rehash, err, c.wantOK, c.wantRehash)
		}
	}
	for _, bad := range []string{"", "202cb962", strings.Repeat("g", 32)} {
		if _, err := h.WrapLegacy(ctx, bad); !errors.Is(err, ErrBadHash) {
			t.Errorf("WrapLegacy(%q) = %v, want ErrBadHash", bad, err)
		}
	}
}

func TestParsePHC(t *testing.T) {
	good := "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$" + strings.Repeat("A", 42) + "Q"
	if _, err := ParsePHC(good); err != nil {
		t.Fatalf("ParsePHC(good) = %v", err)
	}
	cases := []string{
		"",
		"argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$AAAA",
		"$argon2i$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$" + strings.Repeat("A", 43),
		"$argon2id$v=16$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$" + strings.Repeat("A", 43),
		"$argon2id$v=19$m=19456,t=2$c29tZXNhbHRzb21lc2FsdA$" + strings.Repeat("A", 43),
		"$argon2id$v=19$t=2,m=19456,p=1$c29tZXNhbHRzb21lc2FsdA$" + strings.Repeat("A", 43),
		"$argon2id$v=19$m=019456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$" + strings.Repeat("A", 43),
		"$argon2id$v=19$m=4294967295,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$" + strings.Repeat("A", 43), // 4 TiB
		"$argon2id$v=19$m=19456,t=1000,p=1$c29tZXNhbHRzb21lc2FsdA$" + strings.Repeat("A", 43),
		"$argon2id$v=19$m=19456,t=2,p=0$c29tZXNhbHRzb21lc2FsdA$" + strings.Repeat("A", 43),
		"$argon2id$v=19$m=19456,t=2,p=300$c29tZXNhbHRzb21lc2FsdA$" + strings.Repeat("A", 43),
		"$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA==$" + strings.Repeat("A", 43),
		"$argon2id$v=19$m=19456,t=2,p=1$!!!$" + strings.Repeat("A", 43),
		"$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$" + strings.Repeat("A", 43), // 4-byte salt
		"$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$AAAA",       // 3-byte key
		good + "$extra",
	}
	for _, c := range cases {
		if _, err := ParsePHC(c); !errors.Is(err, ErrBadHash) {
			t.Errorf("ParsePHC(%q) = %v, want ErrBadHash", c, err)
		}
	}
	h := cheapHasher()
	if ok, _, err := h.Verify(t.Context(), "$argon2id$garbage", "pw"); ok || !errors.Is(err, ErrBadHash) {
		t.Errorf("Verify(garbage) = %v, %v; want ErrBadHash", ok, err)
	}
}

func TestPHCRoundTrip(t *testing.T) {
	h := cheapHasher()
	for _, wrap := range []bool{false, true} {
		var enc string
		var err error
		if wrap {
			enc, err = h.WrapLegacy(t.Context(), MD5Hex("x"))
		} else {
			enc, err = h.Hash(t.Context(), "x")
		}
		if err != nil {
			t.Fatal(err)
		}
		ph, err := parsePHC(enc)
		if err != nil || ph.String() != enc || ph.p != cheapParams || (ph.id == idLegacyMD5) != wrap {
			t.Errorf("parse(%q) = %+v, %v", enc, ph, err)
		}
	}
}

func TestHasherBoundsConcurrency(t *testing.T) {
	for _, limit := range []int{1, 3} {
		h := NewHasher(Params{Memory: 512, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}, limit)
		var wg sync.WaitGroup
		for range 24 {
			wg.Go(func() {
				if _, err := h.Hash(t.Context(), "pw"); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if p := h.Peak(); p < 1 || p > limit {
			t.Errorf("limit %d: peak in-flight hashes %d", limit, p)
		}
	}
}

func TestHashWaitHonoursContext(t *testing.T) {
	h := NewHasher(cheapParams, 1)
	h.sem <- struct{}{} // the only slot is taken
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := h.Hash(ctx, "pw"); !errors.Is(err, context.Canceled) {
		t.Errorf("Hash with a full semaphore and a cancelled context = %v", err)
	}
	<-h.sem
	if _, err := h.Hash(t.Context(), "pw"); err != nil {
		t.Errorf("Hash after the slot is freed: %v", err)
	}
}

func TestValidName(t *testing.T) {
	cases := map[string]bool{
		"Novate": true, "a": true, "with space": true, strings.Repeat("z", 29): true, "玩家一": true,
		"": false, strings.Repeat("z", 30): false, "a\x00": false, "\x1b[31m": false, "\xc3": false, "\u0085": false, "Beth\u202e": false, "\u2066x": false,
	}
	for name, want := range cases {
		if got := ValidName(name); got != want {
			t.Errorf("ValidName(%q) = %v, want %v", name, got, want)
		}
	}
}
