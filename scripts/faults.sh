#!/usr/bin/env bash
# Fault tests, bounded (about a minute): bomberd killed with SIGKILL mid-game
# and restarted (accounts and recorded games intact, clients log in again),
# SIGTERM mid-game (orderly close, the game recorded as aborted), and the
# account database cut and restored mid-run (logins answer code 4, games go
# on, logins work again without a restart; needs MariaDB, see
# scripts/mariadb.sh). They are Go tests, also part of `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
go test -count=1 -v -run 'TestKill9AndRestart|TestSIGTERMRecordsAbortedGames|TestDatabaseOutage' ./cmd/bomberd
