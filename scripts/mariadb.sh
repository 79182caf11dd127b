#!/usr/bin/env bash
# Make sure a MariaDB for the MySQL store's tests answers on 127.0.0.1:3306
# with root and no password. Idempotent: exits 0 at once when one answers.
# Otherwise it installs Debian's mariadb-server if mariadbd is missing,
# initialises the data directory, starts the server, and lets root log in
# over TCP without a password. That last step is for a local TEST instance
# only, so it is done only to a server this script installed or started;
# a server that was already running is never reconfigured.
# Exits non-zero when no server answers within about 60 seconds.
set -euo pipefail

# The overrides exist to try the script on a second instance beside a running one.
HOST=127.0.0.1
PORT=${BOMBER_MARIADB_PORT:-3306}
DATADIR=${BOMBER_MARIADB_DATADIR:-/var/lib/mysql}
RUNDIR=${BOMBER_MARIADB_RUNDIR:-/run/mysqld}
SOCKET=$RUNDIR/mysqld.sock
LOGFILE=${BOMBER_MARIADB_LOG:-/var/log/mysql/error.log}
WAIT_SECONDS=60

log() { echo "mariadb.sh: $*" >&2; }

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO=(sudo -n); else log "need root (or sudo) to install or start MariaDB"; exit 1; fi
fi

client() { command -v mariadb >/dev/null && echo mariadb || echo mysql; }
admin() { command -v mariadb-admin >/dev/null && echo mariadb-admin || echo mysqladmin; }

# tcp_ok: root logs in over TCP with no password.
tcp_ok() {
  command -v "$(client)" >/dev/null || return 1
  "$(client)" --protocol=tcp -h "$HOST" -P "$PORT" -u root --connect-timeout=2 -e 'SELECT 1' >/dev/null 2>&1
}

# server_up: something MariaDB-like answers, by socket or TCP, whoever may log in.
server_up() {
  command -v "$(admin)" >/dev/null || return 1
  "${SUDO[@]}" "$(admin)" --protocol=socket -S "$SOCKET" --connect-timeout=2 ping >/dev/null 2>&1 ||
    "$(admin)" --protocol=tcp -h "$HOST" -P "$PORT" --connect-timeout=2 ping >/dev/null 2>&1
}

wait_for() { # wait_for FUNCTION: poll up to WAIT_SECONDS
  local i
  for ((i = 0; i < WAIT_SECONDS; i++)); do
    if "$1"; then return 0; fi
    sleep 1
  done
  return 1
}

if tcp_ok; then
  exit 0
fi
if server_up; then
  log "a MariaDB/MySQL server is running but root cannot log in over TCP on $HOST:$PORT without a password;"
  log "not reconfiguring a server this script did not start. Point BOMBER_MYSQL_DSN at an account that can create databases."
  exit 1
fi

if ! command -v mariadbd >/dev/null && [ ! -x /usr/sbin/mariadbd ]; then
  log "installing mariadb-server"
  "${SUDO[@]}" apt-get update -qq
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mariadb-server >/dev/null
fi

# The package's post-install may have started a server already.
if ! server_up; then
  "${SUDO[@]}" mkdir -p "$RUNDIR" "$(dirname "$LOGFILE")"
  "${SUDO[@]}" chown mysql:mysql "$RUNDIR" "$(dirname "$LOGFILE")"
  if [ ! -d "$DATADIR/mysql" ]; then
    log "initialising $DATADIR"
    "${SUDO[@]}" mkdir -p "$DATADIR"
    "${SUDO[@]}" chown mysql:mysql "$DATADIR"
    "${SUDO[@]}" "$(command -v mariadb-install-db || command -v mysql_install_db)" \
      --user=mysql --datadir="$DATADIR" --auth-root-authentication-method=socket >/dev/null
  fi
  log "starting mariadbd"
  "${SUDO[@]}" start-stop-daemon --start --oknodo --background --pidfile "$RUNDIR/mysqld.pid" \
    --exec /usr/sbin/mariadbd -- \
    --user=mysql --datadir="$DATADIR" --socket="$SOCKET" --pid-file="$RUNDIR/mysqld.pid" \
    --bind-address="$HOST" --port="$PORT" --log-error="$LOGFILE"
fi

if ! wait_for server_up; then
  log "mariadbd did not come up within ${WAIT_SECONDS}s"
  "${SUDO[@]}" tail -n 20 "$LOGFILE" >&2 2>/dev/null || true
  exit 1
fi

# Test instance only: root over TCP from this host, no password.
if ! tcp_ok; then
  log "letting root log in over TCP from $HOST without a password (local test instance)"
  "${SUDO[@]}" "$(client)" --protocol=socket -S "$SOCKET" -u root <<SQL
CREATE USER IF NOT EXISTS 'root'@'$HOST' IDENTIFIED BY '';
GRANT ALL PRIVILEGES ON *.* TO 'root'@'$HOST' WITH GRANT OPTION;
CREATE USER IF NOT EXISTS 'root'@'localhost';
GRANT ALL PRIVILEGES ON *.* TO 'root'@'localhost' WITH GRANT OPTION;
ALTER USER 'root'@'localhost' IDENTIFIED VIA unix_socket OR mysql_native_password USING PASSWORD('');
FLUSH PRIVILEGES;
SQL
fi

if ! wait_for tcp_ok; then
  log "MariaDB is up but root cannot log in over TCP on $HOST:$PORT"
  exit 1
fi
log "MariaDB answers on $HOST:$PORT"
