#!/usr/bin/env bash
# Soak test: bomberd carries games that start and end over and over for
# DURATION, while this script samples its RSS. It fails when the RSS of the
# last third of the run is more than 10% above the middle third's, when any
# protocol error or backlog disconnect was counted, or when fewer than
# MIN_GAMES games finished.
#
#   scripts/soak.sh [DURATION] [CONCURRENT_GAMES] [MIN_GAMES]   (defaults 10m 1000 10000)
#
# Loopback only; bounded by DURATION plus a few minutes of set-up.
set -euo pipefail
DURATION=${1:-10m}
GAMES=${2:-1000}
MIN_GAMES=${3:-10000}
cd "$(dirname "$0")/.."
go build -o bin/ ./cmd/bomberd ./cmd/bomberctl ./cmd/bomber-load
work=$(mktemp -d /tmp/bomber-soak.XXXXXX)
port=$((21000 + RANDOM % 2000)); admin=$((port + 1))
export BOMBER_STORE_SQLITE_PATH=$work/bomber.db BOMBER_STORE_DEMO_ACCOUNTS=false \
  BOMBER_HASHING_MEMORY_KIB=64 BOMBER_HASHING_ITERATIONS=1 \
  BOMBER_LISTEN=127.0.0.1:$port BOMBER_ADMIN_LISTEN=127.0.0.1:$admin BOMBER_WEB_LISTEN= \
  BOMBER_LIMITS_MAX_CONNECTIONS_PER_IP=0 BOMBER_LIMITS_SEGMENT_RATE=0 BOMBER_LOG_LEVEL=warn \
  BOMBER_ADMIN_METRICS_TOKEN=soak
# bomber-load's users u000000... with password 123, imported as reference-server MD5 rows
md5=$(printf 123 | md5sum | cut -d' ' -f1)
for ((i = 0; i < 2 * GAMES; i++)); do printf 'u%06d\t%s\n' "$i" "$md5"; done > "$work/users.tsv"
./bin/bomberctl import-legacy --file "$work/users.tsv" >/dev/null
./bin/bomberd --config config.yaml >"$work/bomberd.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "127.0.0.1:$admin/healthz" >/dev/null && break; sleep 0.1; done
rss() { awk '/VmRSS/ {print $2}' "/proc/$pid/status"; }
./bin/bomber-load --addr "127.0.0.1:$port" --games "$GAMES" --duration "$DURATION" --warmup 5s >"$work/load.out" 2>"$work/load.err" &
load=$!
: >"$work/rss"
while kill -0 $load 2>/dev/null; do echo "$(date +%s) $(rss)" >>"$work/rss"; sleep 15; done
wait $load || { echo "soak: load generator failed:"; cat "$work/load.err"; exit 1; }
metrics=$(curl -s -H "Authorization: Bearer soak" "127.0.0.1:$admin/metrics")
metric() { echo "$metrics" | awk -v m="$1" '$1 == m {s += $2} END {print s + 0}'; }
proto=$(echo "$metrics" | awk '/^bomber_protocol_errors_total/ {s += $2} END {print s + 0}')
backlog=$(metric 'bomber_connections_closed_total{reason="backlog"}')
won=$(metric 'bomber_games_finished_total{reason="won"}')
read -r mid last < <(awk '{v[NR] = $2} END {n = NR; a = int(n / 3); b = int(2 * n / 3);
  for (i = a + 1; i <= b; i++) m += v[i]; for (i = b + 1; i <= n; i++) l += v[i];
  printf "%d %d\n", m / (b - a), l / (n - b)}' "$work/rss")
cat "$work/load.out"
echo "soak: $DURATION, $GAMES concurrent games: $won games won, protocol errors $proto, backlog disconnects $backlog"
echo "soak: RSS middle third ${mid} KiB, last third ${last} KiB (samples every 15s in $work/rss)"
fail=0
[ "$proto" -eq 0 ] || { echo "soak: FAIL protocol errors"; fail=1; }
[ "$backlog" -eq 0 ] || { echo "soak: FAIL backlog disconnects"; fail=1; }
[ "$won" -ge "$MIN_GAMES" ] || { echo "soak: FAIL only $won games finished (want $MIN_GAMES)"; fail=1; }
[ "$last" -le $((mid * 110 / 100)) ] || { echo "soak: FAIL RSS grew more than 10%"; fail=1; }
[ $fail -eq 0 ] && echo "soak: PASS"
exit $fail
