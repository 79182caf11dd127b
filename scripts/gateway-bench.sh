#!/usr/bin/env bash
# Gateway cost: the same load from bomber-load over TCP and over the
# WebSocket gateway, against one bomberd (reactor transport) — closed loop
# for throughput and server CPU per relayed guess, then open loop at RATE
# guesses/s for relay latency. With two or more CPUs bomberd is pinned to
# CPU 0 and the load generator to CPU 1 (GOMAXPROCS 1 each), as make bench
# does. The numbers go into docs/performance.md ("Other measurements").
#
#   scripts/gateway-bench.sh [GAMES] [DURATION] [RATE]   (defaults 100 10s 5000)
#
# Loopback only; bounded by 4 × DURATION plus set-up.
set -euo pipefail
GAMES=${1:-100}
DURATION=${2:-10s}
RATE=${3:-5000}
cd "$(dirname "$0")/.."
go build -o bin/ ./cmd/bomberd ./cmd/bomberctl ./cmd/bomber-load
work=$(mktemp -d /tmp/bomber-gw.XXXXXX)
port=$((23000 + RANDOM % 2000)); web=$((port + 1))
export BOMBER_STORE_SQLITE_PATH=$work/bomber.db BOMBER_STORE_DEMO_ACCOUNTS=false \
  BOMBER_HASHING_MEMORY_KIB=64 BOMBER_HASHING_ITERATIONS=1 \
  BOMBER_LISTEN=127.0.0.1:$port BOMBER_WEB_LISTEN=127.0.0.1:$web BOMBER_ADMIN_LISTEN= \
  BOMBER_LIMITS_MAX_CONNECTIONS_PER_IP=0 BOMBER_WEB_MAX_CONNECTIONS_PER_IP=0 \
  BOMBER_LIMITS_SEGMENT_RATE=0 BOMBER_LOG_LEVEL=warn
md5=$(printf 123 | md5sum | cut -d' ' -f1)
for ((i = 0; i < 2 * GAMES; i++)); do printf 'u%06d\t%s\n' "$i" "$md5"; done > "$work/users.tsv"
./bin/bomberctl migrate >/dev/null
./bin/bomberctl import-legacy --file "$work/users.tsv" >/dev/null
srv=() load=()
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
  srv=(env GOMAXPROCS=1 taskset -c 0) load=(env GOMAXPROCS=1 taskset -c 1)
fi
"${srv[@]}" ./bin/bomberd --config config.yaml >"$work/bomberd.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/$web) 2>/dev/null && break; sleep 0.1; done
for mode in "" "--rate $RATE"; do
  for via in "--addr 127.0.0.1:$port" "--ws ws://127.0.0.1:$web/ws"; do
    # shellcheck disable=SC2086
    "${load[@]}" ./bin/bomber-load $via --games "$GAMES" --duration "$DURATION" --warmup 3s --pid $pid $mode
  done
done
echo "machine: $(nproc) CPUs, $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg), pinned: ${srv[*]:-no}"
