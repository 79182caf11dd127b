#!/usr/bin/env bash
# Make sure nats-server (Debian's package) is installed and a NATS server
# with JetStream answers on 127.0.0.1:4222, for the cluster's tests and for
# trying a cluster by hand (docs/operations.md). Idempotent: exits 0 at once
# when one answers with JetStream on. Otherwise it installs nats-server if
# missing and starts one (-js, store in /var/lib/nats-server). The tests
# start their own nats-server processes on free ports besides (they restart
# and cut them); they need only the binary.
# Exits non-zero when no server answers within about 30 seconds.
#
# `scripts/nats.sh cluster` starts instead a JetStream cluster of three
# servers on this machine, for trying `cluster.replicas: 3` by hand: client
# ports 4222-4224 (from BOMBER_NATS_PORT), cluster ports 6222-6224 (from
# BOMBER_NATS_CLUSTER_PORT), servers s1-s3, stores and pid files under
# /var/lib/nats-server/s1..s3 (BOMBER_NATS_STORE), logs beside
# BOMBER_NATS_LOG. `scripts/nats.sh cluster-stop` stops them. Point the
# nodes at all three:
# cluster.nats_url: nats://127.0.0.1:4222,nats://127.0.0.1:4223,nats://127.0.0.1:4224
# In production the three run on three machines (docs/operations.md).
set -euo pipefail

MODE=${1:-single}

HOST=127.0.0.1
PORT=${BOMBER_NATS_PORT:-4222}
STORE=${BOMBER_NATS_STORE:-/var/lib/nats-server}
LOGFILE=${BOMBER_NATS_LOG:-/var/log/nats-server.log}

log() { echo "nats.sh: $*" >&2; }

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO=(sudo -n); else log "need root (or sudo) to install or start nats-server"; exit 1; fi
fi

bin() { command -v nats-server 2>/dev/null || { [ -x /usr/sbin/nats-server ] && echo /usr/sbin/nats-server; } || true; }

# info: the INFO line the server greets every client with ("" if none).
info() {
  local line=""
  if { exec 3<>"/dev/tcp/$HOST/$PORT"; } 2>/dev/null; then
    IFS= read -r -t 2 line <&3 || true
    exec 3<&- 3>&-
  fi
  echo "$line"
}

js_ok() { info | grep -q '"jetstream":true'; }

if [ -z "$(bin)" ]; then
  log "installing Debian's nats-server"
  "${SUDO[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq nats-server >/dev/null
fi
BASE=$PORT
CBASE=${BOMBER_NATS_CLUSTER_PORT:-6222}
if [ "$MODE" = cluster-stop ]; then
  for i in 1 2 3; do
    "${SUDO[@]}" start-stop-daemon --stop --oknodo --pidfile "$STORE/s$i.pid" --remove-pidfile || true
  done
  exit 0
fi
if [ "$MODE" = cluster ]; then
  routes=nats://$HOST:$CBASE,nats://$HOST:$((CBASE + 1)),nats://$HOST:$((CBASE + 2))
  for i in 1 2 3; do
    PORT=$((BASE + i - 1))
    if [ -n "$(info)" ]; then
      log "a NATS server already answers on $HOST:$PORT; leaving it"
      continue
    fi
    "${SUDO[@]}" mkdir -p "$STORE/s$i"
    log "starting nats-server s$i on $HOST:$PORT (cluster port $((CBASE + i - 1)), store $STORE/s$i)"
    "${SUDO[@]}" start-stop-daemon --start --background --pidfile "$STORE/s$i.pid" --make-pidfile --exec "$(bin)" -- \
      -a "$HOST" -p "$PORT" -n "s$i" -js -sd "$STORE/s$i" --cluster_name bomber --cluster "nats://$HOST:$((CBASE + i - 1))" \
      --routes "$routes" -l "${LOGFILE%.log}-s$i.log"
  done
  for _ in $(seq 30); do
    ok=1
    for i in 1 2 3; do PORT=$((BASE + i - 1)); js_ok || ok=0; done
    if [ $ok = 1 ]; then exit 0; fi
    sleep 1
  done
  log "the three servers did not all answer with JetStream within 30 s (see ${LOGFILE%.log}-s*.log)"
  exit 1
fi
if js_ok; then
  exit 0
fi
if [ -n "$(info)" ]; then
  log "a NATS server answers on $HOST:$PORT without JetStream; not touching a server this script did not start."
  log "The tests need only the nats-server binary, which is installed: $(bin)"
  exit 0
fi
"${SUDO[@]}" mkdir -p "$STORE"
log "starting nats-server on $HOST:$PORT with JetStream (store $STORE, log $LOGFILE)"
"${SUDO[@]}" start-stop-daemon --start --oknodo --background --exec "$(bin)" -- -a "$HOST" -p "$PORT" -js -sd "$STORE" -l "$LOGFILE"
for _ in $(seq 30); do
  if js_ok; then exit 0; fi
  sleep 1
done
log "no NATS with JetStream on $HOST:$PORT after 30 s (see $LOGFILE)"
exit 1
