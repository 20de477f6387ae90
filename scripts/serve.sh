#!/bin/sh
# The last step of `npm start` (package.json: `node scripts/start.mjs --prepare-only && exec sh scripts/serve.sh`):
# this shell replaces itself with the server, so the process tree of a running Kadr is npm and the server (and
# its media children), with no idle Node of the start script in between. start.mjs wrote the server's Node and
# allocator settings into apps/server/dist/serve.env.
set -e
cd "$(dirname "$0")/.."
. ./apps/server/dist/serve.env
for arg in "$@"; do
  # `npm start -- --https`: the same as HTTPS=true.
  [ "$arg" = "--https" ] && export HTTPS=true
done
# KADR_NODE_FLAGS: the server's V8 flags from start.mjs (split into words on purpose).
# A new embedded database (KADR_MAKE_DATABASE, start.mjs found none) is made first, by a small entry of its own in
# a process that has ended before the server starts, so its peak (initdb in a second WASM instance) is not added
# to the server's and LiveKit's (docs/adr/0041); the server migrates it as it opens it.
if [ "${KADR_MAKE_DATABASE:-}" = 1 ]; then
  # shellcheck disable=SC2086
  "$KADR_NODE" $KADR_NODE_FLAGS apps/server/dist/make-database.mjs
fi
# shellcheck disable=SC2086
exec "$KADR_NODE" --enable-source-maps $KADR_NODE_FLAGS apps/server/dist/main.mjs
