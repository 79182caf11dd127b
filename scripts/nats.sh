#!/usr/bin/env bash
# Make sure nats-server (Debian's package) is installed and a NATS server
# with JetStream answers on 127.0.0.1:4222, for the cluster's tests and for
# trying a cluster by hand (docs/operations.md). Idempotent: exits 0 at once
# when one answers with JetStream on. Otherwise it installs nats-server if
# missing and starts one (-js, store in /var/lib/nats-server). The tests
# start their own nats-server processes on free ports besides (they restart
# and cut them); they need only the binary.
# Exits non-zero when no server answers within about 30 seconds.
set -euo pipefail

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
  if exec 3<>"/dev/tcp/$HOST/$PORT" 2>/dev/null; then
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
