// Package mask hides the passwords in a client-to-server byte stream, for
// captures and pcap conversion: a package of its own so the offline
// converter needs neither the capture writer nor the server.
package mask

import "github.com/bomber-game/bomber/segment"

// MaskByte replaces every byte of a Passwd payload in a masked stream.
const MaskByte = '*'

// Masker follows one client-to-server byte stream, in any split, and hides
// the payload of every Passwd segment, the password of every SignUp (the
// bytes after its name, across its fragments: the name is kept) and both
// passwords of every Account message (every byte after its first, what). It reads headers the way
// segment.Decoder does, so it stops masking exactly where the daemon stops
// decoding: after a framing error nothing more is interpreted.
type Masker struct {
	hdr    [segment.HeaderLen]byte
	n      int  // header bytes seen of the current segment
	remain int  // payload bytes still to come
	passwd bool // the current payload is a password
	broken bool // a framing error was seen
	seen   bool // a segment header was read (Hello counts only as the first)
	ext    bool // the stream began with Hello: extended descriptors follow
	signUp bool // the current payload is part of a SignUp or an Account message
	acct   bool // ... of an Account message
	sCont  bool // the SignUp's last segment has not come yet
	sPos   int  // body bytes of the SignUp seen
	sName  int  // its name's length (the body's first byte)
}

// accepts mirrors segment.Decoder's negotiation: reference descriptors, and
// extended ones once the stream's first segment was Hello, so a Passwd
// after a Hello is masked like any other.
func (m *Masker) accepts(t segment.Type) bool {
	return t.Known() || m.ext && t.KnownExtended() || !m.seen && t == segment.Hello
}

// Mask appends src to dst with password bytes replaced by MaskByte.
func (m *Masker) Mask(dst, src []byte) []byte {
	for _, b := range src {
		switch {
		case m.broken:
		case m.remain > 0:
			m.remain--
			switch {
			case m.passwd:
				b = MaskByte
			case m.signUp:
				if m.sPos == 0 {
					if !m.acct {
						m.sName = int(b)
					}
				} else if m.sPos > m.sName {
					b = MaskByte
				}
				m.sPos++
			}
		default:
			m.hdr[m.n] = b
			m.n++
			if m.n == 1 && !m.accepts(segment.Type(b)) {
				m.broken = true
				break
			}
			if m.n < segment.HeaderLen {
				break
			}
			t, l := segment.Type(m.hdr[0]), int(m.hdr[1])<<8|int(m.hdr[2])
			m.n = 0
			if segment.CheckHeader(t, l) != nil {
				m.broken = true
				break
			}
			if !m.seen && t == segment.Hello {
				m.ext = true
			}
			m.seen = true
			m.remain, m.passwd = l, t == segment.Passwd
			if m.signUp = m.ext && (t.Base() == segment.SignUp || t.Base() == segment.Account); m.signUp {
				if !m.sCont {
					m.sPos, m.sName, m.acct = 0, 0, t.Base() == segment.Account
				}
				m.sCont = t.Fragment()
			}
		}
		dst = append(dst, b)
	}
	return dst
}
