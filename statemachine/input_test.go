package statemachine_test

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/statemachine"
)

// TestInputDocExamples: every example line of the input wire form in
// input.go's documentation decodes to the kind it names and encodes back
// to the same bytes, so the documentation cannot drift from the codec.
func TestInputDocExamples(t *testing.T) {
	f, err := os.Open("input.go")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	checked := map[statemachine.InputKind]bool{}
	in := false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "// Examples (the words after"):
			in = true
			continue
		case !strings.HasPrefix(line, "//"), strings.HasPrefix(line, "// A batch"):
			in = false
		}
		body, ok := strings.CutPrefix(line, "//\t")
		if !in || !ok {
			continue
		}
		hexPart, desc, ok := strings.Cut(body, "   ")
		if !ok {
			t.Errorf("no description: %q", line)
			continue
		}
		raw, err := hex.DecodeString(strings.ReplaceAll(hexPart, " ", ""))
		if err != nil {
			t.Errorf("%q: %v", line, err)
			continue
		}
		var got statemachine.Input
		dt, rest, err := statemachine.ReadInput(raw, &got)
		if err != nil || len(rest) != 0 {
			t.Errorf("%q: %v, %d bytes left", line, err, len(rest))
			continue
		}
		if name, desc := got.Kind.String(), strings.TrimSpace(desc); desc != name && !strings.HasPrefix(desc, name+":") {
			t.Errorf("%q reads as %s, the line says otherwise", line, got.Kind)
		}
		if again := statemachine.AppendInput(nil, dt, &got); !bytes.Equal(again, raw) {
			t.Errorf("%q encodes back as % x", line, again)
		}
		checked[got.Kind] = true
	}
	for k := statemachine.InOpen; k <= statemachine.InTableTick; k++ {
		if !checked[k] {
			t.Errorf("no example of %s", k)
		}
	}
}

// TestBatchRoundTrip: a batch of one input of every kind reads back as
// the same inputs at the same times, and a batch cut short anywhere is
// refused at the input it cuts, never misread.
func TestBatchRoundTrip(t *testing.T) {
	var ins []statemachine.Input
	for k := statemachine.InOpen; k <= statemachine.InTableTick; k++ {
		in := statemachine.Input{Kind: k, Conn: 1<<32 | 5, Check: 9, Answer: statemachine.WrongPassword, Node: 3,
			Bot: statemachine.BotAnswer{Table: 4, Seat: 2, Seq: 11, Move: "roll"}}
		switch k {
		case statemachine.InOpen:
			in.Text = "192.0.2.1"
		case statemachine.InKick:
			in.Text = "Beth"
		case statemachine.InConfig:
			in = statemachine.ConfigInput(statemachine.Config{LoginTimeout: 7})
		case statemachine.InSeed:
			in = statemachine.SeedInput(77)
		}
		ins = append(ins, in)
	}
	b := statemachine.AppendBatchHeader(nil, 3, 1_000)
	for i := range ins {
		b = statemachine.AppendInput(b, int64(i)*10, &ins[i])
	}
	if o, err := statemachine.BatchOrigin(b); o != 3 || err != nil {
		t.Fatalf("the batch's origin read as %d (%v), built by 3", o, err)
	}
	if _, err := statemachine.BatchOrigin([]byte{0xEE, 3}); err == nil {
		t.Fatal("a batch of an unknown version had an origin")
	}
	var got []statemachine.Input
	var at []int64
	if err := statemachine.ReadBatch(b, new(statemachine.Input), func(t int64, in *statemachine.Input) { got, at = append(got, *in), append(at, t) }); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(ins) {
		t.Fatalf("read %d inputs, wrote %d", len(got), len(ins))
	}
	for i := range ins {
		w := ins[i]
		if w.Kind == statemachine.InReceive || w.Kind == statemachine.InOpen || w.Kind == statemachine.InClosed {
			w = statemachine.Input{Kind: w.Kind, Conn: w.Conn, Text: w.Text, Seg: w.Seg}
		}
		g := got[i]
		if at[i] != 1_000+int64(i)*10 || !sameFields(g, w) {
			t.Errorf("input %d read as %+v at %d, wrote %+v at %d", i, g, at[i], w, 1_000+i*10)
		}
	}
	for cut := 1; cut < len(b); cut++ {
		n := 0
		err := statemachine.ReadBatch(b[:cut], new(statemachine.Input), func(int64, *statemachine.Input) { n++ })
		if err == nil && n == len(ins) {
			t.Fatalf("a batch cut to %d of %d bytes read whole", cut, len(b))
		}
	}
}

// sameFields compares the fields an input of its kind carries.
func sameFields(a, b statemachine.Input) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case statemachine.InOpen:
		return a.Conn == b.Conn && a.Text == b.Text
	case statemachine.InReceive:
		return a.Conn == b.Conn && a.Seg == b.Seg
	case statemachine.InClosed:
		return a.Conn == b.Conn
	case statemachine.InAnswer:
		return a.Check == b.Check && a.Answer == b.Answer
	case statemachine.InBot:
		return a.Bot == b.Bot
	case statemachine.InKick, statemachine.InConfig:
		return a.Text == b.Text
	case statemachine.InGone:
		return a.Node == b.Node
	case statemachine.InSeed:
		return a.Seed == b.Seed
	}
	return true
}

// TestUnseededHubDrawsDistinctCodes: a hub that was never given a seed
// still draws from its generator (whose seed is all zeros), so private
// tables get distinct join codes; a source of all-zero bytes made the
// second private table's join-code draw loop forever.
func TestUnseededHubDrawsDistinctCodes(t *testing.T) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		x := &harness{tb: t, h: statemachine.New(statemachine.Config{Games: statemachine.Catalogue()}), asm: map[statemachine.ConnID]*segment.Assembler{},
			inbox: map[statemachine.ConnID][]msg{}, all: map[statemachine.ConnID][]msg{}, closed: map[statemachine.ConnID]bool{}}
		for _, name := range []string{"Albert", "Beth", "Cindy"} {
			c := x.login(name)
			x.send(c, segment.Create, segment.CreateMsg{Game: "checkers", Seats: 2, Flags: segment.FlagPrivate}.Append(nil))
			x.expect(c, segment.Joined)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a private table's join code was never drawn")
	}
}
