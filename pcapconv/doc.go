// Package pcapconv turns packet captures of Bomber traffic (tcpdump or
// Wireshark files, pcap or pcapng) into transcripts in the format of
// docs/protocol.md section 7, and transcripts into synthetic captures.
//
// Convert reads Ethernet, Linux cooked (SLL, SLL2), BSD loopback (DLT_NULL,
// DLT_LOOP) and raw IP link layers, IPv4 and IPv6, and TCP. The server side
// of each connection is the one on Options.Port. Each TCP stream is
// reassembled per direction by sequence number: retransmitted bytes are
// dropped, overlaps trimmed and segments that arrive early held until the
// gap is filled. One transcript holds every connection of the capture:
//
//   - connections are named c1, c2, ... in the order of their SYN; a
//     connection whose SYN is not in the capture is left out, with a
//     narration line saying so;
//   - client bytes become '>' lines, one per packet as the client's TCP
//     split them (so split headers and pipelined segments stay visible);
//   - server bytes are decoded into one '<' line per segment, a segment
//     split over packets written once, when its last byte arrives;
//   - a FIN or RST from the client gives "close", from the server
//     "closed" (each at most once per connection);
//   - every line has t=SECONDS since the first packet of the capture.
//
// Unless Options.ShowPasswords is set, the bytes of Passwd payloads are
// masked with '*', as bomberd's capture does.
//
// Synthesize and WriteCapture go the other way: they build the packets of a
// transcript's session (handshakes, data, FIN exchanges) and write them as
// pcap or pcapng. They exist for tests (reassembly, the Wireshark dissector)
// and for looking at a golden transcript in Wireshark.
package pcapconv
