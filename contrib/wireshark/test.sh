#!/bin/sh
# Tests bomber.lua with tshark: every segment of testdata/session.pcap (a
# synthetic capture of golden sessions of both protocols, data cut into
# packets of at most 5 bytes and server segments coalesced) must decode to
# its line of testdata/session.expected (what the Go decoder says), with
# expert infos on exactly the bad segments and coordinates decoded by
# direction. Installs Debian's tshark when it is missing.
set -eu
cd "$(dirname "$0")"

if ! command -v tshark >/dev/null 2>&1; then
	echo "test.sh: tshark not found, installing Debian's tshark" >&2
	SUDO=
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	# do not ask whether non-root users may capture
	echo "wireshark-common wireshark-common/install-setuid boolean false" | $SUDO debconf-set-selections
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq tshark >/dev/null
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The Bomber tree of every frame, and every segment's summary in full (the
# tree cuts text fields at 240 characters; long messages are longer).
tshark -n -X lua_script:bomber.lua -r testdata/session.pcap -Y bomber -O bomber -V >"$tmp/v" 2>"$tmp/stderr" &&
	tshark -n -X lua_script:bomber.lua -r testdata/session.pcap -Y bomber -T fields \
		-E aggregator="$(printf '\037')" -e bomber.summary >"$tmp/fields" 2>>"$tmp/stderr" || {
	cat "$tmp/stderr" >&2
	exit 1
}
if grep -qi 'lua' "$tmp/stderr"; then
	echo "FAIL: the Lua script reported errors:" >&2
	cat "$tmp/stderr" >&2
	exit 1
fi

# One record per segment: summary, descriptor, direction, encoding, experts.
awk '
function flush() { if (inseg && sum != "") printf "%s\t%s\t%s\t%s\t%s\n", sum, desc, dir, enc, ex; inseg = 0 }
/^Bomber game protocol/ { flush(); inseg = 1; sum = desc = dir = enc = ex = ""; next }
/^[^ ]/ || /^$/ { flush(); next }
inseg && /^    Summary( \[truncated\])?: / { sub(/^    Summary( \[truncated\])?: /, ""); sum = $0 }
inseg && /^    Descriptor: /          { match($0, /0x[0-9a-f][0-9a-f]/); desc = substr($0, RSTART, RLENGTH) }
inseg && /^    Direction: /           { sub(/^    Direction: /, ""); dir = $0 }
inseg && /^    Coordinate encoding: / { sub(/^    Coordinate encoding: /, ""); enc = $0 }
inseg && /^    \[Expert Info \(/      { match($0, /\(([A-Za-z]+)\/([A-Za-z]+)\)/); ex = ex substr($0, RSTART, RLENGTH) }
END { flush() }
' "$tmp/v" >"$tmp/segs"

fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1" >&2; fail=1; }

# 1. every segment, in order, decoded as the Go decoder does
tr '\037' '\n' <"$tmp/fields" | sed '/^$/d' >"$tmp/got"
if diff -u testdata/session.expected "$tmp/got"; then
	ok "$(wc -l <"$tmp/got") segments decoded as expected"
else
	bad "decoded segments differ (- expected, + tshark)"
fi

# 2. expert infos on exactly the bad segments
n=$(awk -F'\t' '
	$1 ~ /\(malformed(, [0-9]+ bytes)?\)$/ { if ($5 != "(Warning/Malformed)") bad++; next }
	$1 ~ /protocol error: /    { if ($5 != "(Error/Malformed)") bad++; next }
	                           { if ($5 != "") bad++ }
	END { print bad + 0 }' "$tmp/segs")
if [ "$n" -eq 0 ]; then ok "expert infos on the malformed and badly framed segments only"; else bad "$n segments with wrong expert infos"; fi
grep -q "'-1-1' after a wrong double guess" "$tmp/v" || bad "no explanation of the reference client's -1-1 DoubleCoord"

# 3. coordinates by direction: guesses to the client binary, everything else ASCII
n=$(awk -F'\t' '
	$1 ~ /\(malformed\)/ || $2 !~ /^0x0[cde]$/ { next }
	{ want = ($3 == "server to client" && $2 != "0x0c") ? "binary" : "ascii"; if (!(($2 " " $3) in seen)) kinds++; seen[$2 " " $3] = 1; if ($4 != want) bad++ }
	END { print bad + 0, kinds + 0 }' "$tmp/segs")
if [ "$n" = "0 6" ]; then ok "Board, SingleCoord and DoubleCoord decoded by direction"; else bad "coordinate encodings: $n (wrong, kinds seen of 6)"; fi

# 4. the same segments when tshark dissects every frame a second time (-2),
# as Wireshark does when a packet is clicked: the state of each stream and
# of each message in fragments is the one the first pass saw
tshark -2 -n -X lua_script:bomber.lua -r testdata/session.pcap -Y bomber -T fields \
	-E aggregator="$(printf '\037')" -e bomber.summary 2>>"$tmp/stderr" | tr '\037' '\n' | sed '/^$/d' >"$tmp/got2"
if diff -u testdata/session.expected "$tmp/got2" >/dev/null; then ok "the same on a second pass"; else bad "a second pass decodes differently"; fi

[ "$fail" -eq 0 ] || { echo "test.sh: FAILED" >&2; exit 1; }
echo "test.sh: passed with $(tshark --version | head -1)"
