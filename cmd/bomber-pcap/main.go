// Command bomber-pcap converts packet captures of Bomber traffic into
// transcripts, and transcripts into synthetic captures.
//
//	bomber-pcap [--port N] [--show-passwords] [-o OUT.txt] CAPTURE
//	bomber-pcap --from-transcript [--port N] [--pcapng] [--link ethernet|null|raw]
//	            [--split N] [--coalesce] -o OUT TRANSCRIPT
//
// The first form reads a tcpdump or Wireshark file (pcap or pcapng, "-" for
// standard input), reassembles every TCP connection to the server port
// (default 20343) and writes one transcript (standard output without -o);
// see package pcapconv for the details. Passwords are masked unless
// --show-passwords is given. A summary goes to standard error.
//
// The second form writes the packets of a transcript's session, for
// looking at it in Wireshark or testing the dissector: --split N cuts data
// into packets of at most N bytes, --coalesce puts consecutive server
// segments of one connection in one packet.
//
// Exit status: 0 on success, 2 on a usage, file or format error.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/gopacket/gopacket/layers"

	"github.com/bomber-game/bomber/cmd/internal/cli"
	"github.com/bomber-game/bomber/pcapconv"
	"github.com/bomber-game/bomber/segment/transcript"
)

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

type options struct {
	port     uint
	show     bool
	out      string
	reverse  bool
	ng       bool
	link     string
	split    int
	coalesce bool
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var o options
	fs := flag.NewFlagSet("bomber-pcap", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.UintVar(&o.port, "port", pcapconv.DefaultPort, "the server's TCP `port`")
	fs.BoolVar(&o.show, "show-passwords", false, "keep passwords as captured instead of masking them")
	fs.StringVar(&o.out, "o", "", "output `file` (default: standard output for transcripts)")
	fs.BoolVar(&o.reverse, "from-transcript", false, "write a synthetic capture of a transcript's session instead")
	fs.BoolVar(&o.ng, "pcapng", false, "with --from-transcript: write pcapng instead of pcap")
	fs.StringVar(&o.link, "link", "ethernet", "with --from-transcript: link `type` ethernet, null or raw")
	fs.IntVar(&o.split, "split", 0, "with --from-transcript: at most `N` bytes of data per packet (0: no split)")
	fs.BoolVar(&o.coalesce, "coalesce", false, "with --from-transcript: one packet for consecutive server segments of a connection")
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "usage: bomber-pcap [--port N] [--show-passwords] [-o OUT.txt] CAPTURE\n       bomber-pcap --from-transcript [--port N] [--pcapng] [--link ethernet|null|raw] [--split N] [--coalesce] -o OUT TRANSCRIPT")
		cli.DefaultsStd(fs, w)
	}
	if done, code := cli.ParseStd(fs, args, stdout, stderr, usage); done {
		return code
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "bomber-pcap: %v\n", err)
		return 2
	}
	if fs.NArg() != 1 {
		return cli.Fail(stderr, "bomber-pcap", fmt.Sprintf("want one input file, got %d", fs.NArg()), usage)
	}
	if o.port == 0 || o.port > 65535 {
		return fail(fmt.Errorf("--port %d is not a TCP port", o.port))
	}
	in := stdin
	if name := fs.Arg(0); name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return fail(err)
		}
		defer f.Close()
		in = f
	}
	if o.reverse {
		return fromTranscript(o, in, stderr)
	}
	entries, st, err := pcapconv.Convert(in, pcapconv.Options{Port: uint16(o.port), ShowPasswords: o.show})
	if err != nil && entries == nil {
		return fail(err)
	}
	var b bytes.Buffer
	if werr := transcript.Write(&b, entries, o.show); werr != nil {
		return fail(werr)
	}
	if o.out == "" {
		stdout.Write(b.Bytes())
	} else if werr := os.WriteFile(o.out, b.Bytes(), 0o644); werr != nil {
		return fail(werr)
	}
	fmt.Fprintf(stderr, "%d packets, %d to or from port %d, %d connections, %d left out (began before the capture)\n",
		st.Packets, st.TCP, o.port, st.Connections, st.Skipped)
	if err != nil {
		// a damaged capture: what came before the damage was written
		return fail(err)
	}
	return 0
}

func fromTranscript(o options, in io.Reader, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "bomber-pcap: %v\n", err)
		return 2
	}
	if o.out == "" {
		return fail(fmt.Errorf("--from-transcript needs -o FILE"))
	}
	lt, ok := map[string]layers.LinkType{"ethernet": layers.LinkTypeEthernet, "null": layers.LinkTypeNull, "raw": layers.LinkTypeRaw}[o.link]
	if !ok {
		return fail(fmt.Errorf("--link wants ethernet, null or raw, not %q", o.link))
	}
	entries, err := transcript.Parse(in)
	if err != nil {
		return fail(err)
	}
	pk := pcapconv.Synthesize(entries, pcapconv.SynthOptions{Port: uint16(o.port), MaxPayload: o.split, Coalesce: o.coalesce})
	var b bytes.Buffer
	if err := pcapconv.WriteCapture(&b, pk, lt, o.ng); err != nil {
		return fail(err)
	}
	if err := os.WriteFile(o.out, b.Bytes(), 0o644); err != nil {
		return fail(err)
	}
	fmt.Fprintf(stderr, "%d packets written to %s\n", len(pk), o.out)
	return 0
}
