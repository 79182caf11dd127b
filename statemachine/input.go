package statemachine

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/segment"
)

// InputKind says what an Input is.
type InputKind uint8

// The hub's inputs: everything that can change its state. Their numbers are
// the wire form's kind byte and never change meaning (logs and captures on
// disk hold them).
const (
	// InOpen: connection Conn opened from source address Text.
	InOpen InputKind = 1
	// InReceive: connection Conn sent the whole segment Seg.
	InReceive InputKind = 2
	// InClosed: connection Conn is gone (the peer or the shell closed it).
	InClosed InputKind = 3
	// InAnswer: account check Check was answered Answer.
	InAnswer InputKind = 4
	// InTick: time passed; the world's deadlines due at the input's time
	// fall (and, in a world before generation 2, the tables' too).
	InTick InputKind = 5
	// InBot: a computer player chose Bot.
	InBot InputKind = 6
	// InKick: an operator disconnects user Text.
	InKick InputKind = 7
	// InGone: every connection of node Node is gone (a cluster node died,
	// left, or a daemon restarted: its connections from before are gone).
	InGone InputKind = 8
	// InConfig: the settings Text (JSON of Config without Games) apply from
	// now on; the hub keeps its game catalogue.
	InConfig InputKind = 9
	// InSeed: Seed reseeds the hub's random generator (table seeds, join
	// codes, resume tokens). The shell draws it from crypto/rand.
	InSeed InputKind = 10
	// InShutdown: the daemon stops; every game ends as aborted and every
	// connection closes.
	InShutdown InputKind = 11
	// InReply: query Check (a CheckKind that is a Query, Asked) was
	// answered Answer, with the store's data Text.
	InReply InputKind = 12
	// InTableTick: time passed at table Table; its own deadlines due at
	// the input's time fall (generation 2 on; TickInputs).
	InTableTick InputKind = 13
)

var inputNames = [...]string{InOpen: "open", InReceive: "receive", InClosed: "closed", InAnswer: "answer",
	InTick: "tick", InBot: "bot", InKick: "kick", InGone: "gone", InConfig: "config", InSeed: "seed", InShutdown: "shutdown", InReply: "reply", InTableTick: "table tick"}

func (k InputKind) String() string {
	if int(k) < len(inputNames) && inputNames[k] != "" {
		return inputNames[k]
	}
	return fmt.Sprintf("InputKind(%d)", k)
}

// Input is one thing that happens to the hub, given to Hub.Step. Which
// fields count depends on Kind (see the kinds); the rest are zero.
type Input struct {
	Kind   InputKind
	Answer Answer          // InAnswer, InReply
	Asked  CheckKind       // InReply: the query's kind
	Node   uint32          // InGone: a node's incarnation, the upper 32 bits of its connections' ids
	Table  uint32          // InTableTick
	Conn   ConnID          // InOpen, InReceive, InClosed
	Check  uint64          // InAnswer, InReply: the Check's ID
	Text   string          // InOpen: source address; InKick: user name; InConfig: settings as JSON; InReply: the data
	Bot    BotAnswer       // InBot
	Seg    segment.Segment // InReceive
	Seed   [32]byte        // InSeed
}

// NodeOf is the node incarnation connection id c carries (its upper 32
// bits; 0 on a shell that numbers connections from 1).
func NodeOf(c ConnID) uint32 { return uint32(c >> 32) }

// ErrInput is an input (or a batch of them) this build cannot read.
var ErrInput = errors.New("statemachine: unreadable input")

// The wire form of one input, as logs, captures and fuzz corpora hold it:
//
//	kind      1 byte (InputKind)
//	time      varint: ns after the base the container gives (a batch's base)
//	then by kind:
//	  open     uvarint conn, uvarint length, source address
//	  receive  uvarint conn, the segment's wire bytes (header and payload)
//	  closed   uvarint conn
//	  answer   uvarint check id, answer byte
//	  tick     nothing
//	  bot      uvarint table, seat byte, uvarint seq, uvarint length, move
//	  kick     uvarint length, user name
//	  gone     uvarint node incarnation
//	  config   uvarint length, settings (JSON)
//	  seed     32 bytes
//	  shutdown nothing
//	  reply    uvarint check id, answer byte, kind byte, uvarint length, data
//	  table tick uvarint table
//
// Examples (the words after the bytes begin with the kind; the docs test
// decodes each line and encodes it back):
//
//	01 00 01 09 31 32 37 2e 30 2e 30 2e 31   open: conn 1 from "127.0.0.1", at the base time
//	02 00 01 00 00 06 4e 6f 76 61 74 65      receive: conn 1 sent Info "Novate"
//	03 00 01                                 closed: conn 1
//	04 00 05 02                              answer: check 5 is WrongPassword
//	05 0a                                    tick: 5 ns after the base (varint 0a is 5)
//	06 00 03 01 07 02 65 33                  bot: table 3, seat 1, update 7 plays "e3"
//	07 00 04 42 65 74 68                     kick: user "Beth"
//	08 00 07                                 gone: node 7
//	09 00 02 7b 7d                           config: {}
//	0a 00 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f   seed: the 32 bytes 00 to 1f
//	0b 00                                    shutdown
//	0c 00 05 00 03 02 68 69                  reply: check 5 (a Ratings query) is Found with data "hi"
//	0d 00 03                                 table tick: table 3's deadlines at the base time
//
// A batch, the unit a log entry or a capture file holds, is a header and
// then inputs until its end:
//
//	version   1 byte (BatchVersion)
//	origin    uvarint: the node incarnation that wrote it (for people reading it)
//	base      varint: the time of its first input, ns since 1970 (or since the start of a replay)
//
// Example: a batch from node 7 at base time 2 ns, holding one tick at the
// base time: 02 07 04 05 00. Version 1 batches (the cluster log's first
// form) have a 32-byte seed after the origin; they read as an InSeed first.
const BatchVersion = 2

// batchVersionSeeded is the older batch form with a seed in its header.
const batchVersionSeeded = 1

// AppendInput appends the wire form of in, dt nanoseconds after its
// container's base, to b.
func AppendInput(b []byte, dt int64, in *Input) []byte {
	b = append(b, byte(in.Kind))
	b = binary.AppendVarint(b, dt)
	switch in.Kind {
	case InOpen:
		b = binary.AppendUvarint(b, uint64(in.Conn))
		b = appendString(b, in.Text)
	case InReceive:
		b = binary.AppendUvarint(b, uint64(in.Conn))
		b = in.Seg.AppendTo(b)
	case InClosed:
		b = binary.AppendUvarint(b, uint64(in.Conn))
	case InAnswer:
		b = binary.AppendUvarint(b, in.Check)
		b = append(b, byte(in.Answer))
	case InReply:
		b = binary.AppendUvarint(b, in.Check)
		b = append(b, byte(in.Answer), byte(in.Asked))
		b = appendString(b, in.Text)
	case InBot:
		b = binary.AppendUvarint(b, uint64(in.Bot.Table))
		b = append(b, byte(in.Bot.Seat))
		b = binary.AppendUvarint(b, uint64(in.Bot.Seq))
		b = appendString(b, in.Bot.Move)
	case InKick, InConfig:
		b = appendString(b, in.Text)
	case InGone:
		b = binary.AppendUvarint(b, uint64(in.Node))
	case InTableTick:
		b = binary.AppendUvarint(b, uint64(in.Table))
	case InSeed:
		b = append(b, in.Seed[:]...)
	}
	return b
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// maxInputText bounds a string an input carries (settings are the longest).
const maxInputText = 1 << 16

// ReadInput reads one input from the front of b into in, returning its time
// after the container's base and the bytes after it.
func ReadInput(b []byte, in *Input) (dt int64, rest []byte, err error) {
	r := inputReader{b: b}
	*in = Input{Kind: InputKind(r.byte())}
	dt = r.varint()
	switch in.Kind {
	case InOpen:
		in.Conn = ConnID(r.uvarint())
		in.Text = r.str()
	case InReceive:
		in.Conn = ConnID(r.uvarint())
		hdr := r.bytes(segment.HeaderLen)
		if r.err == nil {
			p := r.bytes(int(hdr[1])<<8 | int(hdr[2]))
			if r.err == nil {
				seg, err := segment.Raw(segment.Type(hdr[0]), p)
				if err != nil {
					r.fail("segment: " + err.Error())
				}
				in.Seg = seg
			}
		}
	case InClosed:
		in.Conn = ConnID(r.uvarint())
	case InAnswer:
		in.Check = r.uvarint()
		in.Answer = Answer(r.byte())
	case InReply:
		in.Check = r.uvarint()
		in.Answer = Answer(r.byte())
		in.Asked = CheckKind(r.byte())
		in.Text = r.str()
	case InTick, InShutdown:
	case InBot:
		in.Bot.Table = uint32(r.uvarint())
		in.Bot.Seat = rules.Player(int8(r.byte()))
		in.Bot.Seq = uint32(r.uvarint())
		in.Bot.Move = r.str()
	case InKick, InConfig:
		in.Text = r.str()
	case InGone:
		in.Node = uint32(r.uvarint())
	case InTableTick:
		in.Table = uint32(r.uvarint())
	case InSeed:
		copy(in.Seed[:], r.bytes(32))
	default:
		r.fail(fmt.Sprintf("input kind %d", in.Kind))
	}
	if r.err != nil {
		return 0, nil, r.err
	}
	return dt, r.b, nil
}

// AppendBatchHeader starts a batch from node origin whose inputs' times
// count from base.
func AppendBatchHeader(b []byte, origin uint32, base int64) []byte {
	b = append(b, BatchVersion)
	b = binary.AppendUvarint(b, uint64(origin))
	return binary.AppendVarint(b, base)
}

// BatchOrigin is the node incarnation that built batch b, from its header.
func BatchOrigin(b []byte) (uint32, error) {
	r := inputReader{b: b}
	if v := r.byte(); r.err == nil && v != BatchVersion && v != batchVersionSeeded {
		return 0, fmt.Errorf("%w: batch version %d", ErrInput, v)
	}
	origin := r.uvarint()
	return uint32(origin), r.err
}

// ReadBatch calls f with each input of batch b and its time, in order,
// each read into in (the caller's, so reading allocates nothing: f copies
// what it keeps). It stops at the first input it cannot read and returns
// ErrInput (the inputs before it were given to f); a batch that ends
// cleanly returns nil.
func ReadBatch(b []byte, in *Input, f func(at int64, in *Input)) error {
	r := inputReader{b: b}
	version := r.byte()
	r.uvarint() // origin
	*in = Input{}
	switch version {
	case BatchVersion:
	case batchVersionSeeded:
		in.Kind = InSeed
		copy(in.Seed[:], r.bytes(32))
	default:
		return fmt.Errorf("%w: batch version %d", ErrInput, version)
	}
	base := r.varint()
	if r.err != nil {
		return r.err
	}
	if in.Kind == InSeed {
		f(base, in)
	}
	for rest := r.b; len(rest) > 0; {
		dt, next, err := ReadInput(rest, in)
		if err != nil {
			return err
		}
		f(base+dt, in)
		rest = next
	}
	return nil
}

// inputReader reads the wire form; the first failure sticks.
type inputReader struct {
	b   []byte
	err error
}

func (r *inputReader) byte() byte {
	if len(r.b) == 0 {
		r.fail("end of input")
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *inputReader) uvarint() uint64 {
	v, k := binary.Uvarint(r.b)
	if k <= 0 {
		r.fail("number")
		return 0
	}
	r.b = r.b[k:]
	return v
}

func (r *inputReader) varint() int64 {
	v, k := binary.Varint(r.b)
	if k <= 0 {
		r.fail("number")
		return 0
	}
	r.b = r.b[k:]
	return v
}

func (r *inputReader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		r.fail("bytes")
		return nil
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p
}

func (r *inputReader) str() string {
	n := r.uvarint()
	if n > maxInputText {
		r.fail("string length")
		return ""
	}
	return string(r.bytes(int(n)))
}

func (r *inputReader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s", ErrInput, what)
	}
	r.b = nil
}
