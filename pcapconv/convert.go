package pcapconv

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"

	"github.com/bomber-game/bomber/capture/mask"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/segment/transcript"
)

// DefaultPort is the port the reference client connects to.
const DefaultPort = 20343

// Options control a conversion.
type Options struct {
	Port          uint16 // the server's TCP port; 0: DefaultPort
	ShowPasswords bool   // keep Passwd payloads as captured instead of masking them
}

// Stats count what a conversion saw.
type Stats struct {
	Packets     int // packets read
	TCP         int // TCP packets to or from the server port
	Connections int // connections written (with their SYN)
	Skipped     int // connections left out: their SYN is not in the capture
}

// ErrFormat: the input is not a capture this package reads.
var ErrFormat = errors.New("not a pcap or pcapng capture")

type packetSource interface {
	ReadPacketData() ([]byte, gopacket.CaptureInfo, error)
}

// Convert reads a pcap or pcapng capture (detected by its magic number) and
// returns the transcript of every Bomber connection in it.
func Convert(r io.Reader, opt Options) ([]transcript.Entry, Stats, error) {
	if opt.Port == 0 {
		opt.Port = DefaultPort
	}
	br := bufio.NewReader(r)
	magic, err := br.Peek(4)
	if err != nil {
		return nil, Stats{}, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	var src packetSource
	var linkOf func(gopacket.CaptureInfo) layers.LinkType
	switch binary.LittleEndian.Uint32(magic) {
	case 0x0a0d0d0a: // pcapng section header block, either byte order
		ng, err := pcapgo.NewNgReader(br, pcapgo.NgReaderOptions{WantMixedLinkType: true, SkipUnknownVersion: true})
		if err != nil {
			return nil, Stats{}, fmt.Errorf("%w: %w", ErrFormat, err)
		}
		src = ng
		linkOf = func(ci gopacket.CaptureInfo) layers.LinkType {
			if len(ci.AncillaryData) > 0 {
				if lt, ok := ci.AncillaryData[0].(layers.LinkType); ok {
					return lt
				}
			}
			return ng.LinkType()
		}
	case 0xa1b2c3d4, 0xd4c3b2a1, 0xa1b23c4d, 0x4d3cb2a1: // microsecond and nanosecond pcap
		pr, err := pcapgo.NewReader(br)
		if err != nil {
			return nil, Stats{}, fmt.Errorf("%w: %w", ErrFormat, err)
		}
		src = pr
		linkOf = func(gopacket.CaptureInfo) layers.LinkType { return pr.LinkType() }
	default:
		return nil, Stats{}, fmt.Errorf("%w: magic % x", ErrFormat, magic)
	}
	c := newConverter(opt)
	for {
		data, ci, err := src.ReadPacketData()
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				c.note("the capture ends inside a packet (truncated file)")
			}
			break
		}
		if err != nil {
			return c.finish(), c.stats, fmt.Errorf("packet %d: %w", c.stats.Packets+1, err)
		}
		c.stats.Packets++
		c.packet(data, ci.Timestamp, linkOf(ci))
	}
	return c.finish(), c.stats, nil
}

type connKey struct{ client, server netip.AddrPort }

type conn struct {
	name       string
	c2s, s2c   half
	dec        segment.Decoder // server to client
	badServer  bool            // the server's framing broke; its bytes are no longer decoded
	mask       mask.Masker
	clientGone bool // "close" written
	serverGone bool // "closed" written
}

type converter struct {
	opt     Options
	stats   Stats
	out     []transcript.Entry
	first   time.Time
	conns   map[connKey]*conn
	order   []*conn
	skipped map[connKey]bool
	unknown map[layers.LinkType]bool
}

func newConverter(opt Options) *converter {
	return &converter{opt: opt, conns: map[connKey]*conn{}, skipped: map[connKey]bool{}, unknown: map[layers.LinkType]bool{}}
}

func (c *converter) note(s string) {
	c.out = append(c.out, transcript.Entry{At: -1, Op: transcript.Note, Comment: s})
}

func (c *converter) emit(at time.Time, e transcript.Entry) {
	e.At = max(at.Sub(c.first), 0)
	c.out = append(c.out, e)
}

// tcpPacket is what one packet says about TCP.
type tcpPacket struct {
	src, dst netip.AddrPort
	tcp      *layers.TCP
}

func decodeTCP(data []byte, lt layers.LinkType) (tcpPacket, bool) {
	var p tcpPacket
	pk := gopacket.NewPacket(data, lt, gopacket.DecodeOptions{Lazy: true, NoCopy: true})
	var srcIP, dstIP netip.Addr
	switch ip := pk.NetworkLayer().(type) {
	case *layers.IPv4:
		if ip.Flags&layers.IPv4MoreFragments != 0 || ip.FragOffset != 0 {
			return p, false // fragments carry no whole TCP header we can trust
		}
		srcIP, _ = netip.AddrFromSlice(ip.SrcIP.To4())
		dstIP, _ = netip.AddrFromSlice(ip.DstIP.To4())
	case *layers.IPv6:
		srcIP, _ = netip.AddrFromSlice(ip.SrcIP.To16())
		dstIP, _ = netip.AddrFromSlice(ip.DstIP.To16())
	default:
		return p, false
	}
	t, ok := pk.Layer(layers.LayerTypeTCP).(*layers.TCP)
	if !ok {
		return p, false
	}
	p.src = netip.AddrPortFrom(srcIP, uint16(t.SrcPort))
	p.dst = netip.AddrPortFrom(dstIP, uint16(t.DstPort))
	p.tcp = t
	return p, true
}

func (c *converter) packet(data []byte, ts time.Time, lt layers.LinkType) {
	if c.stats.Packets == 1 {
		c.first = ts
	}
	if !supported(lt) {
		if !c.unknown[lt] {
			c.unknown[lt] = true
			c.note(fmt.Sprintf("packets with link type %v are not read", lt))
		}
		return
	}
	p, ok := decodeTCP(data, lt)
	if !ok {
		return
	}
	var key connKey
	var toServer bool
	switch {
	case p.dst.Port() == c.opt.Port:
		key, toServer = connKey{p.src, p.dst}, true
	case p.src.Port() == c.opt.Port:
		key = connKey{p.dst, p.src}
	default:
		return
	}
	c.stats.TCP++
	t := p.tcp
	cn := c.conns[key]
	if t.SYN && !t.ACK && toServer {
		if cn != nil && cn.c2s.next == t.Seq+1 {
			return // the SYN again
		}
		c.stats.Connections++
		cn = &conn{name: fmt.Sprintf("c%d", c.stats.Connections)}
		cn.dec.SetDialect(segment.DialectExtended) // the server side: whatever it may send
		cn.c2s.start(t.Seq + 1)
		c.conns[key] = cn
		c.order = append(c.order, cn)
		c.emit(ts, transcript.Entry{Conn: cn.name, Op: transcript.Open, Comment: fmt.Sprintf("from %v", key.client)})
		return
	}
	if cn == nil {
		if !c.skipped[key] {
			c.skipped[key] = true
			c.stats.Skipped++
			c.note(fmt.Sprintf("left out %v -> %v: it began before the capture (no SYN)", key.client, key.server))
		}
		return
	}
	h := &cn.c2s
	if !toServer {
		h = &cn.s2c
		if !h.started {
			// the SYN-ACK gives the server's first sequence number; without
			// it, the first server packet seen has to
			isn := t.Seq
			if t.SYN {
				isn++
			}
			h.start(isn)
		}
	}
	seq := t.Seq
	if t.SYN {
		seq++
	}
	if t.FIN {
		h.setFin(seq + uint32(len(t.Payload)))
	}
	wasDone := h.done
	for _, piece := range h.add(seq, t.Payload, nil) {
		if toServer {
			c.clientBytes(ts, cn, piece)
		} else {
			c.serverBytes(ts, cn, piece)
		}
	}
	if (h.done && !wasDone) || t.RST {
		c.hangUp(ts, cn, toServer)
	}
}

func supported(lt layers.LinkType) bool {
	switch lt {
	case layers.LinkTypeEthernet, layers.LinkTypeLinuxSLL, layers.LinkTypeLinuxSLL2,
		layers.LinkTypeNull, layers.LinkTypeLoop, layers.LinkTypeRaw, layers.LinkTypeIPv4, layers.LinkTypeIPv6:
		return true
	}
	return false
}

// maxLine is the most bytes one '>' line holds: a packet larger than that
// (loopback captures with segmentation offload reach 64 KiB) is written on
// several lines, which keeps every line well within what a reader takes.
const maxLine = 1024

func (c *converter) clientBytes(ts time.Time, cn *conn, b []byte) {
	if !c.opt.ShowPasswords {
		b = cn.mask.Mask(make([]byte, 0, len(b)), b)
	}
	for len(b) > 0 {
		n := min(len(b), maxLine)
		c.emit(ts, transcript.Entry{Conn: cn.name, Op: transcript.Send, Data: b[:n]})
		b = b[n:]
	}
}

func (c *converter) serverBytes(ts time.Time, cn *conn, b []byte) {
	if cn.badServer {
		return
	}
	if _, err := cn.dec.Feed(b, func(s segment.Segment) bool {
		c.emit(ts, transcript.Entry{Conn: cn.name, Op: transcript.Recv, Data: s.AppendTo(nil)})
		return true
	}); err != nil {
		cn.badServer = true
		c.note(fmt.Sprintf("%s: the server broke the framing (%v); its later bytes are not shown", cn.name, err))
	}
}

// hangUp writes who ended the connection, once per side.
func (c *converter) hangUp(ts time.Time, cn *conn, byClient bool) {
	switch {
	case byClient && !cn.clientGone:
		cn.clientGone = true
		c.emit(ts, transcript.Entry{Conn: cn.name, Op: transcript.Close})
	case !byClient && !cn.serverGone && !cn.clientGone:
		// the server's FIN after the client's is only its answer
		cn.serverGone = true
		c.emit(ts, transcript.Entry{Conn: cn.name, Op: transcript.Closed})
	}
}

func (c *converter) finish() []transcript.Entry {
	for _, cn := range c.order {
		if cn.dec.Partial() && !cn.badServer {
			c.note(fmt.Sprintf("%s: the capture ends inside a server segment (%d bytes not shown)", cn.name, cn.dec.Buffered()))
		}
		if n := len(cn.c2s.early) + len(cn.s2c.early); n > 0 {
			c.note(fmt.Sprintf("%s: %d packets after a gap the capture never filled are not shown", cn.name, n))
		}
	}
	head := []transcript.Entry{{At: -1, Op: transcript.Note, Comment: fmt.Sprintf(
		"converted from a capture of %d packets (server port %d); t= is seconds since the first packet", c.stats.Packets, c.opt.Port)}}
	return append(head, c.out...)
}
