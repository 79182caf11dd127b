#!/bin/sh
# The JavaScript client library's tests (clients/js, Node 20 or later) with
# Node's test runner (spec reporter), against a bomberd built from this tree:
# make test-js, and make test through scripts/testsum. NODE names the node
# binary. Node 20 needs --experimental-websocket for its global WebSocket;
# later versions have it.
set -eu
node=${NODE:-node}
command -v "$node" >/dev/null || { echo "test-js: $node not found (Node 20 or later is needed)"; exit 1; }
cd "$(dirname "$0")/../clients/js"
ws=$("$node" -e 'process.stdout.write(typeof WebSocket === "function" ? "" : "--experimental-websocket")')
exec "$node" $ws --test-reporter=spec --test test/*.test.js
