package segment

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
)

// Body errors. Unlike framing errors they do not close the connection: the
// server answers a malformed body with Error code BadRequest.
var (
	// ErrBody: a body has too few bytes for its layout, bytes left over, or
	// a count or length its layout does not allow.
	ErrBody = errors.New("malformed message body")
	// ErrTooLong: a value cannot be encoded: a str over MaxStr bytes, a
	// list over 255 items, a bytes16 over 65535 bytes, or a body over its
	// type's cap.
	ErrTooLong = errors.New("value too long to encode")
)

// Reader reads the primitives of a body in order. It never panics: once the
// body runs short it records ErrBody, and every later read returns a zero
// value. Check Err (or Done, which also wants the body used up) at the end.
type Reader struct {
	b   []byte
	err error
}

// NewReader reads body (it is not copied; byte slices returned alias it).
func NewReader(body []byte) Reader { return Reader{b: body} }

// take returns the next n bytes, or nil after recording ErrBody.
func (r *Reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n > len(r.b) {
		r.err = fmt.Errorf("%w: %d bytes short", ErrBody, n-len(r.b))
		r.b = nil
		return nil
	}
	p := r.b[:n:n]
	r.b = r.b[n:]
	return p
}

// U8 reads a u8.
func (r *Reader) U8() uint8 {
	if p := r.take(1); p != nil {
		return p[0]
	}
	return 0
}

// U16 reads a big-endian u16.
func (r *Reader) U16() uint16 {
	if p := r.take(2); p != nil {
		return binary.BigEndian.Uint16(p)
	}
	return 0
}

// U32 reads a big-endian u32.
func (r *Reader) U32() uint32 {
	if p := r.take(4); p != nil {
		return binary.BigEndian.Uint32(p)
	}
	return 0
}

// U64 reads a big-endian u64.
func (r *Reader) U64() uint64 {
	if p := r.take(8); p != nil {
		return binary.BigEndian.Uint64(p)
	}
	return 0
}

// I8 reads an i8 (two's complement).
func (r *Reader) I8() int8 { return int8(r.U8()) }

// I16 reads a big-endian i16.
func (r *Reader) I16() int16 { return int16(r.U16()) }

// I32 reads a big-endian i32.
func (r *Reader) I32() int32 { return int32(r.U32()) }

// Str reads a str: a u8 length and that many bytes. It does not check UTF-8
// (where that matters, as for chat, the server does).
func (r *Reader) Str() string { return string(r.take(int(r.U8()))) }

// Bytes16 reads a bytes16: a u16 length and that many bytes, aliasing the body.
func (r *Reader) Bytes16() []byte { return r.take(int(r.U16())) }

// H32 reads 32 raw bytes (a SHA-256 hash or a seed).
func (r *Reader) H32() (h [32]byte) {
	copy(h[:], r.take(32))
	return h
}

// Rest returns the bytes not read yet (a body's trailing text), aliasing
// the body, and leaves the reader empty.
func (r *Reader) Rest() []byte {
	p := r.take(len(r.b))
	return p
}

// Count reads a u8 item count and fails the read when fewer than per bytes
// per item remain, so a forged count cannot make a decoder allocate more
// than the body could hold.
func (r *Reader) Count(per int) int {
	n := int(r.U8())
	if r.err == nil && n*per > len(r.b) {
		r.err = fmt.Errorf("%w: %d items cannot fit in %d bytes", ErrBody, n, len(r.b))
		return 0
	}
	return n
}

// Fail records a layout error found by the caller (a value out of range).
func (r *Reader) Fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: "+format, append([]any{ErrBody}, args...)...)
	}
}

// Err is the first error, or nil.
func (r *Reader) Err() error { return r.err }

// Len is the number of bytes not read yet.
func (r *Reader) Len() int { return len(r.b) }

// Done returns Err, or ErrBody when bytes are left over.
func (r *Reader) Done() error {
	if r.err == nil && len(r.b) > 0 {
		r.err = fmt.Errorf("%w: %d bytes left over", ErrBody, len(r.b))
	}
	return r.err
}

// AppendU8 appends a u8.
func AppendU8(dst []byte, v uint8) []byte { return append(dst, v) }

// AppendU16 appends a big-endian u16.
func AppendU16(dst []byte, v uint16) []byte { return binary.BigEndian.AppendUint16(dst, v) }

// AppendU32 appends a big-endian u32.
func AppendU32(dst []byte, v uint32) []byte { return binary.BigEndian.AppendUint32(dst, v) }

// AppendU64 appends a big-endian u64.
func AppendU64(dst []byte, v uint64) []byte { return binary.BigEndian.AppendUint64(dst, v) }

// AppendI8 appends an i8.
func AppendI8(dst []byte, v int8) []byte { return append(dst, byte(v)) }

// AppendI16 appends a big-endian i16.
func AppendI16(dst []byte, v int16) []byte { return AppendU16(dst, uint16(v)) }

// AppendI32 appends a big-endian i32.
func AppendI32(dst []byte, v int32) []byte { return AppendU32(dst, uint32(v)) }

// AppendStr appends a str. A string over MaxStr bytes is never cut: it
// returns dst unchanged and an error wrapping ErrTooLong.
func AppendStr(dst []byte, s string) ([]byte, error) {
	if len(s) > MaxStr {
		return dst, fmt.Errorf("%w: str of %d bytes (max %d)", ErrTooLong, len(s), MaxStr)
	}
	return append(append(dst, byte(len(s))), s...), nil
}

// AppendBytes16 appends a bytes16; over 65535 bytes it returns dst unchanged
// and an error wrapping ErrTooLong.
func AppendBytes16(dst []byte, p []byte) ([]byte, error) {
	if len(p) > 0xFFFF {
		return dst, fmt.Errorf("%w: bytes16 of %d bytes", ErrTooLong, len(p))
	}
	return append(AppendU16(dst, uint16(len(p))), p...), nil
}

// AppendH32 appends 32 raw bytes.
func AppendH32(dst []byte, h [32]byte) []byte { return append(dst, h[:]...) }

// writer builds one message body after start, remembering the first
// encoding error so a message's Encode reads as a list of fields.
type writer struct {
	b     []byte
	start int
	t     Type
	err   error
}

func newWriter(dst []byte, t Type) writer { return writer{b: dst, start: len(dst), t: t} }

func (w *writer) u8(v uint8)   { w.b = append(w.b, v) }
func (w *writer) u16(v uint16) { w.b = AppendU16(w.b, v) }
func (w *writer) u32(v uint32) { w.b = AppendU32(w.b, v) }
func (w *writer) i8(v int8)    { w.b = append(w.b, byte(v)) }
func (w *writer) i16(v int16)  { w.b = AppendI16(w.b, v) }
func (w *writer) i32(v int32)  { w.b = AppendI32(w.b, v) }
func (w *writer) h32(h [32]byte) {
	w.b = append(w.b, h[:]...)
}
func (w *writer) raw(p []byte)   { w.b = append(w.b, p...) }
func (w *writer) text(s string)  { w.b = append(w.b, s...) }
func (w *writer) fail(err error) { w.err = cmp.Or(w.err, err) }

func (w *writer) str(s string) {
	var err error
	if w.b, err = AppendStr(w.b, s); err != nil {
		w.fail(fmt.Errorf("%v: %w", w.t, err))
	}
}

func (w *writer) bytes16(p []byte) {
	var err error
	if w.b, err = AppendBytes16(w.b, p); err != nil {
		w.fail(fmt.Errorf("%v: %w", w.t, err))
	}
}

// count writes a list length as a u8.
func (w *writer) count(n int) {
	if n > 0xFF {
		w.fail(fmt.Errorf("%w: %v list of %d items (max 255)", ErrTooLong, w.t, n))
		return
	}
	w.u8(uint8(n))
}

// done returns the body appended, or dst unchanged and the error when a
// field could not be encoded or the body passes the cap.
func (w *writer) done() ([]byte, error) {
	if c := MessageCap(w.t); w.err == nil && len(w.b)-w.start > c {
		w.err = fmt.Errorf("%w: %v body of %d bytes (cap %d)", ErrTooLong, w.t, len(w.b)-w.start, c)
	}
	if w.err != nil {
		return w.b[:w.start], w.err
	}
	return w.b, nil
}
