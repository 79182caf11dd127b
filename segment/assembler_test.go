package segment

import (
	"bytes"
	"errors"
	"testing"
)

func body(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + 1)
	}
	return b
}

// TestFragmentBoundaries: bodies at and around the chunk size and the cap
// take ⌈n/29⌉ segments, every fragment exactly 29 bytes with the More bit,
// and come back whole; one byte over the cap is never sent.
func TestFragmentBoundaries(t *testing.T) {
	for _, ty := range []Type{Chat, ViewMsg, Create, Hello, CatalogReq} {
		c := MessageCap(ty)
		for _, n := range []int{0, 1, 28, 29, 30, 57, 58, 59, c - 1, c, c + 1} {
			if n < 0 {
				continue
			}
			b := body(n)
			segs := AppendMessage(nil, ty, b)
			if n > c {
				if len(segs) != 0 {
					t.Errorf("%v body %d over cap %d: %d segments sent", ty, n, c, len(segs))
				}
				continue
			}
			want := max(1, (n+MaxPayload-1)/MaxPayload)
			if len(segs) != want {
				t.Fatalf("%v body %d: %d segments, want %d", ty, n, len(segs), want)
			}
			var a Assembler
			for i, s := range segs {
				last := i == len(segs)-1
				if s.Type.Fragment() == last || s.Type.Base() != ty {
					t.Fatalf("%v body %d: segment %d is %v", ty, n, i, s.Type)
				}
				if !last && s.Len() != MaxPayload || last && (s.Len() == 0) != (n == 0) {
					t.Fatalf("%v body %d: segment %d carries %d bytes", ty, n, i, s.Len())
				}
				if err := CheckHeader(s.Type, s.Len()); err != nil {
					t.Fatalf("%v body %d: segment %d: %v", ty, n, i, err)
				}
				gt, got, done, err := a.Add(s)
				if err != nil || done != last {
					t.Fatalf("%v body %d: Add %d: done %v err %v", ty, n, i, done, err)
				}
				if a.Pending() == last {
					t.Fatalf("%v body %d: pending %v after segment %d", ty, n, a.Pending(), i)
				}
				if last && (gt != ty || !bytes.Equal(got, b)) {
					t.Fatalf("%v body %d: got %v % x", ty, n, gt, got)
				}
			}
		}
	}
}

// frags builds the segments of an n-byte body of ty without AppendMessage's
// cap check, the way a hostile peer would send it.
func frags(ty Type, n int) []Segment {
	var out []Segment
	b := body(n)
	for len(b) > MaxPayload {
		s := Segment{Type: ty | More, n: MaxPayload}
		copy(s.data[:], b)
		out = append(out, s)
		b = b[MaxPayload:]
	}
	s := Segment{Type: ty, n: uint8(len(b))}
	copy(s.data[:], b)
	return append(out, s)
}

func feed(a *Assembler, segs []Segment) (int, error) {
	for i, s := range segs {
		if _, _, _, err := a.Add(s); err != nil {
			return i, err
		}
		if a.Buffered() > MaxMessage {
			panic("buffered past MaxMessage")
		}
	}
	return len(segs), nil
}

func TestAssemblerCap(t *testing.T) {
	// Chat's cap 300 = 10×29 + 10: the 11-byte last segment passes it.
	var a Assembler
	i, err := feed(&a, frags(Chat, 301))
	if !errors.Is(err, ErrFragment) || i != 10 {
		t.Fatalf("chat 301: stopped at %d with %v", i, err)
	}
	// View's cap 1024 = 35×29 + 9: the 36th fragment passes it and is refused
	// before it is buffered.
	a = Assembler{}
	i, err = feed(&a, frags(ViewMsg, 36*29+1))
	if !errors.Is(err, ErrFragment) || i != 35 {
		t.Fatalf("view: stopped at %d with %v", i, err)
	}
	if cap(a.buf) > MaxMessage {
		t.Fatalf("buffer grew to %d", cap(a.buf))
	}
	// the error is sticky
	if _, _, _, err := a.Add(Empty(GameOver)); !errors.Is(err, ErrFragment) {
		t.Fatalf("after the error: %v", err)
	}
	a.Reset()
	if _, err := feed(&a, frags(ViewMsg, MaxMessage)); err != nil {
		t.Fatalf("after Reset: %v", err)
	}
}

func TestAssemblerFramingErrors(t *testing.T) {
	chat := frags(Chat, 40) // Chat|More 29, Chat 11
	short := Segment{Type: Chat | More, n: 28}
	tests := []struct {
		name string
		segs []Segment
		at   int
		err  error
	}{
		{"reference segment between fragments", []Segment{chat[0], Name(Info, "x"), chat[1]}, 1, ErrFragment},
		{"other type's fragment between fragments", []Segment{chat[0], frags(ViewMsg, 40)[0]}, 1, ErrFragment},
		{"other type's last segment after a fragment", []Segment{chat[0], Empty(Leave)}, 1, ErrFragment},
		{"fragment of 28 bytes", []Segment{short}, 0, ErrFragment},
		{"28-byte fragment after a good one", []Segment{chat[0], short}, 1, ErrFragment},
		{"empty last segment after fragments", []Segment{chat[0], {Type: Chat}}, 1, ErrFragment},
		{"fragment of a type capped at 0", []Segment{{Type: Leave | More, n: 29}}, 0, ErrFragment},
		{"unassigned type", []Segment{{Type: 0x51}}, 0, ErrUnknownType},
		{"unknown reference descriptor", []Segment{{Type: 0x05}}, 0, ErrUnknownType},
	}
	for _, tt := range tests {
		var a Assembler
		i, err := feed(&a, tt.segs)
		if !errors.Is(err, tt.err) || i != tt.at {
			t.Errorf("%s: stopped at %d with %v, want %d and %v", tt.name, i, err, tt.at, tt.err)
		}
		if a.Pending() {
			t.Errorf("%s: still pending after an error", tt.name)
		}
	}
	// the decoder refuses a short fragment at its header already
	var d Decoder
	d.SetDialect(DialectExtended)
	d.Write([]byte{byte(Chat | More), 0, 28})
	if _, _, err := d.Next(); !errors.Is(err, ErrLength) {
		t.Errorf("decoder took a 28-byte fragment header: %v", err)
	}
}

func TestAssemblerPassesReferenceSegments(t *testing.T) {
	var a Assembler
	ty, b, done, err := a.Add(Name(Info, "Novate"))
	if err != nil || !done || ty != Info || string(b) != "Novate" {
		t.Fatalf("Info through the assembler: %v %q %v %v", ty, b, done, err)
	}
}

// TestAssemblerSteadyStateAllocs: decoding and assembling extended
// messages from bytes allocates nothing once the buffer has grown.
func TestAssemblerSteadyStateAllocs(t *testing.T) {
	segs := AppendMessage(nil, ChatMsg, body(340))
	segs = AppendMessage(segs, StepMsg, body(12))
	var stream []byte
	for _, s := range segs {
		stream = s.AppendTo(stream)
	}
	var d Decoder
	d.SetDialect(DialectExtended)
	var a Assembler
	feed(&a, segs) // warm up: the buffer grows once
	msgs := 0
	allocs := testing.AllocsPerRun(200, func() {
		for p := stream; len(p) > 0; {
			p = p[d.Write(p):]
			for {
				s, ok, err := d.Next()
				if err != nil {
					panic(err)
				}
				if !ok {
					break
				}
				if _, _, done, err := a.Add(s); err != nil {
					panic(err)
				} else if done {
					msgs++
				}
			}
		}
	})
	if allocs != 0 {
		t.Fatalf("Decoder+Assembler allocate %.1f times per message pair", allocs)
	}
	if msgs != 2*201 {
		t.Fatalf("%d messages assembled, want %d", msgs, 2*201)
	}
}

func TestDecoderDialects(t *testing.T) {
	hello := AppendMessage(nil, Hello, HelloMsg{1, 3}.Append(nil))[0].AppendTo(nil)
	chat := AppendMessage(nil, Chat, []byte{0, 'h', 'i'})[0].AppendTo(nil)
	info := Name(Info, "A").AppendTo(nil)
	run := func(d *Decoder, stream ...[]byte) (n int, err error) {
		for _, p := range stream {
			d.Write(p)
			for {
				_, ok, err := d.Next()
				if err != nil {
					return n, err
				}
				if !ok {
					break
				}
				n++
			}
		}
		return n, nil
	}
	tests := []struct {
		name    string
		dialect Dialect
		stream  [][]byte
		n       int
		err     error
	}{
		{"negotiate: Hello first, then extended", DialectNegotiate, [][]byte{hello, chat, info, chat}, 4, nil},
		{"negotiate: extended without Hello", DialectNegotiate, [][]byte{chat}, 0, ErrUnknownType},
		{"negotiate: Hello after a reference segment", DialectNegotiate, [][]byte{info, hello}, 1, ErrUnknownType},
		{"negotiate: reference client", DialectNegotiate, [][]byte{info, info}, 2, nil},
		{"negotiate: 0x51 stays unknown after Hello", DialectNegotiate, [][]byte{hello, {0x51}}, 1, ErrUnknownType},
		{"reference: Hello is unknown", DialectReference, [][]byte{hello}, 0, ErrUnknownType},
		{"extended: from the first byte", DialectExtended, [][]byte{chat, hello, info}, 3, nil},
	}
	for _, tt := range tests {
		var d Decoder
		d.SetDialect(tt.dialect)
		n, err := run(&d, tt.stream...)
		if n != tt.n || !errors.Is(err, tt.err) {
			t.Errorf("%s: %d segments, err %v; want %d, %v", tt.name, n, err, tt.n, tt.err)
		}
	}
	// a reused negotiating decoder forgets the last connection's Hello
	var d Decoder
	run(&d, hello)
	d.Reset()
	if _, err := run(&d, chat); !errors.Is(err, ErrUnknownType) {
		t.Errorf("after Reset: %v", err)
	}
	d.SetDialect(DialectExtended)
	d.Reset()
	if n, err := run(&d, chat); n != 1 || err != nil {
		t.Errorf("extended after Reset: %d %v", n, err)
	}
}

// BenchmarkAssembler: a 340-byte ChatMsg and a Step, decoded from bytes and
// assembled.
func BenchmarkAssembler(b *testing.B) {
	segs := AppendMessage(nil, ChatMsg, body(340))
	segs = AppendMessage(segs, StepMsg, body(12))
	var stream []byte
	for _, s := range segs {
		stream = s.AppendTo(stream)
	}
	var d Decoder
	d.SetDialect(DialectExtended)
	var a Assembler
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		for p := stream; len(p) > 0; {
			p = p[d.Write(p):]
			for {
				s, ok, _ := d.Next()
				if !ok {
					break
				}
				a.Add(s)
			}
		}
	}
}

// TestAssemblerStateRoundTrip: an assembler restored from another's State
// between any two fragments finishes the message with the same body, and
// changing the state afterwards does not reach the restored one's buffer.
func TestAssemblerStateRoundTrip(t *testing.T) {
	for _, n := range []int{0, 28, 29, 30, 59, 200, MessageCap(Chat)} {
		b := body(n)
		segs := AppendMessage(nil, Chat, b)
		for cut := range segs {
			var a Assembler
			for _, s := range segs[:cut] {
				if _, _, _, err := a.Add(s); err != nil {
					t.Fatal(err)
				}
			}
			st := a.State()
			if st.Pending != (cut > 0) || len(st.Body) != cut*MaxPayload {
				t.Fatalf("body %d cut %d: state %+v", n, cut, st)
			}
			var r Assembler
			if err := r.SetState(st); err != nil {
				t.Fatalf("body %d cut %d: %v", n, cut, err)
			}
			a.Reset() // the restored assembler owns its copy
			var got []byte
			for _, s := range segs[cut:] {
				ty, bd, done, err := r.Add(s)
				if err != nil {
					t.Fatalf("body %d cut %d: %v", n, cut, err)
				}
				if done {
					if ty != Chat {
						t.Fatalf("type %v", ty)
					}
					got = bd
				}
			}
			if !bytes.Equal(got, b) {
				t.Fatalf("body %d cut %d: got %d bytes back", n, cut, len(got))
			}
		}
	}
}

// TestAssemblerSetStateRefuses: states no segments could produce are
// refused and leave the assembler as it was; a failed state keeps failing.
func TestAssemblerSetStateRefuses(t *testing.T) {
	bad := []AssemblerState{
		{Type: Info, Pending: true, Body: body(29)},                                     // a reference type
		{Type: Chat | More, Pending: true, Body: body(29)},                              // a fragment type
		{Type: Chat, Pending: true, Body: body(30)},                                     // not whole fragments
		{Type: Chat, Pending: true},                                                     // pending with nothing
		{Type: Chat, Pending: true, Body: body(MaxPayload * (MessageCap(Chat)/29 + 1))}, // over the cap
		{Type: Chat, Pending: true, Body: body(29), Failed: true},
	}
	for i, st := range bad {
		var a Assembler
		a.Add(AppendMessage(nil, Chat, body(40))[0])
		if err := a.SetState(st); !errors.Is(err, ErrFragment) {
			t.Errorf("state %d: err %v", i, err)
		}
		if !a.Pending() || a.Buffered() != MaxPayload {
			t.Errorf("state %d: a refused state changed the assembler", i)
		}
	}
	var a Assembler
	if err := a.SetState(AssemblerState{Failed: true}); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := a.Add(Name(Info, "x")); !errors.Is(err, ErrFragment) || !a.State().Failed {
		t.Fatalf("a restored failed assembler accepted a segment: %v", err)
	}
}
