package pcapconv

import (
	"fmt"
	"io"
	"net"
	"net/netip"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"

	"github.com/bomber-game/bomber/segment/transcript"
)

// Flags are TCP header flags of a synthetic packet.
type Flags uint8

// TCP flags.
const (
	FIN Flags = 1 << iota
	SYN
	RST
	PSH
	ACK
)

// Packet is one synthetic TCP packet.
type Packet struct {
	Time     time.Time
	Src, Dst netip.AddrPort
	Seq, Ack uint32
	Flags    Flags
	Payload  []byte
}

// SynthOptions shape the synthetic session.
type SynthOptions struct {
	Port       uint16     // server port; 0: DefaultPort
	Server     netip.Addr // server address; zero: 127.0.0.1
	Client     netip.Addr // every client's address; zero: the server's
	Start      time.Time  // time of the first packet; zero: 2025-01-01 UTC
	MaxPayload int        // split data into packets of at most this many bytes; 0: no split
	Coalesce   bool       // send consecutive '<' segments of one connection in one packet
}

// synthConn is one connection's TCP state while synthesizing.
type synthConn struct {
	client   netip.AddrPort
	cseq     uint32 // next client sequence number
	sseq     uint32 // next server sequence number
	finished bool
}

// Synthesize builds the packets of the session a transcript describes:
// for each connection a three-way handshake at "open", the '>' bytes from
// client to server and the '<' segments back, a FIN exchange at "close"
// and a server FIN at "closed". Lines with time stamps are sent at them;
// otherwise each line comes a millisecond after the one before, and
// "clock +D" lines leave a gap of D. "store" lines have no packets.
//
// Initial sequence numbers sit near 2^32, so long streams wrap around.
func Synthesize(entries []transcript.Entry, opt SynthOptions) []Packet {
	if opt.Port == 0 {
		opt.Port = DefaultPort
	}
	if !opt.Server.IsValid() {
		opt.Server = netip.AddrFrom4([4]byte{127, 0, 0, 1})
	}
	if !opt.Client.IsValid() {
		opt.Client = opt.Server
	}
	if opt.Start.IsZero() {
		opt.Start = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	server := netip.AddrPortFrom(opt.Server, opt.Port)
	conns := map[string]*synthConn{}
	var out []Packet
	now := opt.Start
	tick := func() time.Time { now = now.Add(10 * time.Microsecond); return now }
	send := func(c *synthConn, toServer bool, fl Flags, payload []byte) {
		p := Packet{Time: tick(), Flags: fl, Payload: payload}
		if toServer {
			p.Src, p.Dst, p.Seq, p.Ack = c.client, server, c.cseq, c.sseq
			c.cseq += uint32(len(payload))
		} else {
			p.Src, p.Dst, p.Seq, p.Ack = server, c.client, c.sseq, c.cseq
			c.sseq += uint32(len(payload))
		}
		if fl&(SYN|FIN) != 0 {
			if toServer {
				c.cseq++
			} else {
				c.sseq++
			}
		}
		out = append(out, p)
	}
	data := func(c *synthConn, toServer bool, b []byte) {
		for len(b) > 0 {
			n := len(b)
			if opt.MaxPayload > 0 {
				n = min(n, opt.MaxPayload)
			}
			send(c, toServer, PSH|ACK, b[:n])
			b = b[n:]
		}
	}
	for i := 0; i < len(entries); i++ {
		e := entries[i]
		switch {
		case e.At >= 0:
			if t := opt.Start.Add(e.At); t.After(now) {
				now = t
			}
		case e.Op == transcript.Clock:
			now = now.Add(e.Advance)
		case e.Op != transcript.Note:
			now = now.Add(time.Millisecond)
		}
		c := conns[e.Conn]
		switch e.Op {
		case transcript.Open:
			n := len(conns)
			c = &synthConn{
				client: netip.AddrPortFrom(opt.Client, uint16(40001+n)),
				cseq:   0xffffff00 + uint32(n)*100_003,
				sseq:   0x7fffff00 + uint32(n)*7_919,
			}
			conns[e.Conn] = c
			send(c, true, SYN, nil)
			send(c, false, SYN|ACK, nil)
			send(c, true, ACK, nil)
		case transcript.Send:
			if c != nil {
				data(c, true, e.Data)
			}
		case transcript.Recv:
			if c == nil {
				break
			}
			b := append([]byte(nil), e.Data...)
			for opt.Coalesce && i+1 < len(entries) && entries[i+1].Op == transcript.Recv && entries[i+1].Conn == e.Conn {
				i++
				b = append(b, entries[i].Data...)
			}
			data(c, false, b)
		case transcript.Close:
			if c != nil {
				send(c, true, FIN|ACK, nil)
				if c.finished {
					send(c, false, ACK, nil)
				} else {
					send(c, false, FIN|ACK, nil)
					send(c, true, ACK, nil)
				}
				c.finished = true
			}
		case transcript.Closed:
			if c != nil && !c.finished {
				send(c, false, FIN|ACK, nil)
				send(c, true, ACK, nil)
				c.finished = true
			}
		}
	}
	return out
}

// Frame encodes p as one link-layer frame of type lt: Ethernet, DLT_NULL
// (BSD loopback) or raw IP.
func Frame(p Packet, lt layers.LinkType) ([]byte, error) {
	tcp := &layers.TCP{
		SrcPort: layers.TCPPort(p.Src.Port()), DstPort: layers.TCPPort(p.Dst.Port()),
		Seq: p.Seq, Ack: p.Ack, Window: 65535,
		FIN: p.Flags&FIN != 0, SYN: p.Flags&SYN != 0, RST: p.Flags&RST != 0,
		PSH: p.Flags&PSH != 0, ACK: p.Flags&ACK != 0,
	}
	var ip gopacket.NetworkLayer
	var ipLayer gopacket.SerializableLayer
	ethType, family := layers.EthernetTypeIPv4, layers.ProtocolFamilyIPv4
	if p.Src.Addr().Is4() {
		v4 := &layers.IPv4{Version: 4, TTL: 64, Protocol: layers.IPProtocolTCP,
			SrcIP: net.IP(p.Src.Addr().AsSlice()), DstIP: net.IP(p.Dst.Addr().AsSlice())}
		ip, ipLayer = v4, v4
	} else {
		v6 := &layers.IPv6{Version: 6, HopLimit: 64, NextHeader: layers.IPProtocolTCP,
			SrcIP: net.IP(p.Src.Addr().AsSlice()), DstIP: net.IP(p.Dst.Addr().AsSlice())}
		ip, ipLayer = v6, v6
		ethType, family = layers.EthernetTypeIPv6, layers.ProtocolFamilyIPv6Linux
	}
	if err := tcp.SetNetworkLayerForChecksum(ip); err != nil {
		return nil, err
	}
	var ls []gopacket.SerializableLayer
	switch lt {
	case layers.LinkTypeEthernet:
		ls = append(ls, &layers.Ethernet{
			SrcMAC:       net.HardwareAddr{0x02, 0, 0, 0, 0, 1},
			DstMAC:       net.HardwareAddr{0x02, 0, 0, 0, 0, 2},
			EthernetType: ethType,
		})
	case layers.LinkTypeNull:
		ls = append(ls, &layers.Loopback{Family: family})
	case layers.LinkTypeRaw:
	default:
		return nil, fmt.Errorf("pcapconv: cannot write link type %v", lt)
	}
	ls = append(ls, ipLayer, tcp, gopacket.Payload(p.Payload))
	buf := gopacket.NewSerializeBuffer()
	if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}, ls...); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteCapture writes packets as a pcap file, or pcapng when ng is set,
// with link type lt (see Frame).
func WriteCapture(w io.Writer, packets []Packet, lt layers.LinkType, ng bool) error {
	var write func(gopacket.CaptureInfo, []byte) error
	flush := func() error { return nil }
	if ng {
		nw, err := pcapgo.NewNgWriter(w, lt)
		if err != nil {
			return err
		}
		write, flush = nw.WritePacket, nw.Flush
	} else {
		pw := pcapgo.NewWriterNanos(w)
		if err := pw.WriteFileHeader(65535, lt); err != nil {
			return err
		}
		write = pw.WritePacket
	}
	for _, p := range packets {
		frame, err := Frame(p, lt)
		if err != nil {
			return err
		}
		ci := gopacket.CaptureInfo{Timestamp: p.Time, CaptureLength: len(frame), Length: len(frame)}
		if err := write(ci, frame); err != nil {
			return err
		}
	}
	return flush()
}
