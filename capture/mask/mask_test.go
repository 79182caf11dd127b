package mask

import (
	"bytes"
	"testing"

	"github.com/bomber-game/bomber/segment"
)

func seg(t segment.Type, p string) []byte {
	s, err := segment.Raw(t, []byte(p))
	if err != nil {
		panic(err)
	}
	return s.AppendTo(nil)
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// maskSplit masks stream fed in pieces of the given size.
func maskSplit(stream []byte, piece int) []byte {
	var m Masker
	var out []byte
	for len(stream) > 0 {
		n := min(piece, len(stream))
		out = m.Mask(out, stream[:n])
		stream = stream[n:]
	}
	return out
}

func TestMaskerHidesOnlyPasswords(t *testing.T) {
	tests := []struct {
		name     string
		in, want []byte
	}{
		{"login", cat(seg(segment.Info, "Beth"), seg(segment.Passwd, "s3cret")),
			cat(seg(segment.Info, "Beth"), seg(segment.Passwd, "******"))},
		{"empty password", cat(seg(segment.Passwd, ""), seg(segment.Info, "x")),
			cat(seg(segment.Passwd, ""), seg(segment.Info, "x"))},
		{"zero-length segments around", cat(seg(segment.GameOver, ""), seg(segment.Passwd, "ab"), seg(segment.SyncEnd, "")),
			cat(seg(segment.GameOver, ""), seg(segment.Passwd, "**"), seg(segment.SyncEnd, ""))},
		{"password-like bytes elsewhere are kept", cat(seg(segment.SendInvit, "\x02\x00\x01x")),
			cat(seg(segment.SendInvit, "\x02\x00\x01x"))},
		// after a framing error the daemon decodes nothing more, so nothing
		// more is interpreted as a password either
		{"after an unknown descriptor", cat([]byte{0x05, 0, 0}, seg(segment.Passwd, "123")),
			cat([]byte{0x05, 0, 0}, seg(segment.Passwd, "123"))},
		{"after an impossible length", cat([]byte{0x01, 0, 2, 1, 1}, seg(segment.Passwd, "123")),
			cat([]byte{0x01, 0, 2, 1, 1}, seg(segment.Passwd, "123"))},
		{"password cut short", []byte{0x02, 0, 5, 'a', 'b'}, []byte{0x02, 0, 5, '*', '*'}},
		// an extended-protocol client says Hello first, then logs in as usual
		{"after Hello", cat(seg(segment.Hello, "\x01\x00\x00\x00\x03"), seg(segment.Info, "Beth"), seg(segment.Passwd, "s3cret"), seg(segment.Chat, "\x00hi"), seg(segment.Passwd, "again")),
			cat(seg(segment.Hello, "\x01\x00\x00\x00\x03"), seg(segment.Info, "Beth"), seg(segment.Passwd, "******"), seg(segment.Chat, "\x00hi"), seg(segment.Passwd, "*****"))},
		// SignUp's password is masked, its name kept, across fragments
		{"SignUp", cat(seg(segment.Hello, "\x01\x00\x00\x01\x00"), seg(segment.SignUp, "\x03Ada\x0asecret-pw1"), seg(segment.SignUp|segment.More, "\x14Adalongername_abcdef\x0bsecret-"), seg(segment.SignUp, "pw1x")),
			cat(seg(segment.Hello, "\x01\x00\x00\x01\x00"), seg(segment.SignUp, "\x03Ada***********"), seg(segment.SignUp|segment.More, "\x14Adalongername_abcdef********"), seg(segment.SignUp, "****"))},
		// an Account message's passwords are masked, what is kept; a SignUp after it keeps its name
		{"Account", cat(seg(segment.Hello, "\x01\x00\x00\x01\x00"), seg(segment.Account, "\x01\x0asecret-pw1\x0asecret-pw2"), seg(segment.SignUp, "\x03Ada\x02pw")),
			cat(seg(segment.Hello, "\x01\x00\x00\x01\x00"), seg(segment.Account, "\x01**********************"), seg(segment.SignUp, "\x03Ada***"))},
		{"Hello not first is a framing error", cat(seg(segment.Info, "Beth"), seg(segment.Hello, "\x01\x00\x00\x00\x03"), seg(segment.Passwd, "123")),
			cat(seg(segment.Info, "Beth"), seg(segment.Hello, "\x01\x00\x00\x00\x03"), seg(segment.Passwd, "123"))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for piece := 1; piece <= len(tc.in); piece++ {
				if got := maskSplit(tc.in, piece); !bytes.Equal(got, tc.want) {
					t.Fatalf("in pieces of %d: got % x, want % x", piece, got, tc.want)
				}
			}
		})
	}
}

// FuzzMasker checks on any stream that masking keeps the length and the
// framing, changes only Passwd payloads, and does not depend on the split.
func FuzzMasker(f *testing.F) {
	f.Add(cat(seg(segment.Info, "Beth"), seg(segment.Passwd, "123")), uint8(1))
	f.Add([]byte{0x02, 0x00, 0x1d}, uint8(2))
	f.Add([]byte{0x05, 0x02, 0x00, 0x01, 0x41}, uint8(3))
	f.Fuzz(func(t *testing.T, stream []byte, piece uint8) {
		whole := maskSplit(stream, len(stream)+1)
		split := maskSplit(stream, int(piece%16)+1)
		if !bytes.Equal(whole, split) {
			t.Fatalf("split changes the result: % x vs % x", whole, split)
		}
		if len(whole) != len(stream) {
			t.Fatalf("length %d, want %d", len(whole), len(stream))
		}
		var a, b segment.Decoder
		a.Write(stream[:min(len(stream), segment.RingSize)])
		b.Write(whole[:min(len(whole), segment.RingSize)])
		for {
			sa, oka, erra := a.Next()
			sb, okb, errb := b.Next()
			if oka != okb || (erra == nil) != (errb == nil) {
				t.Fatalf("framing differs: %v %v / %v %v", oka, erra, okb, errb)
			}
			if !oka {
				break
			}
			if sa.Type != segment.Passwd && !bytes.Equal(sa.AppendTo(nil), sb.AppendTo(nil)) {
				t.Fatalf("non-password segment changed: %v -> %v", sa, sb)
			}
			if sa.Type == segment.Passwd && !bytes.Equal(sb.Payload(), bytes.Repeat([]byte{MaskByte}, sa.Len())) {
				t.Fatalf("password not masked: %v", sb.Describe(true))
			}
		}
	})
}
