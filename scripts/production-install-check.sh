#!/usr/bin/env bash
# `npm run test:production-install`: what a production install gets is enough to run Pigeonhole.
# Builds, copies the build and the package files (nothing else) into a temporary folder, installs
# without dev dependencies (`npm ci --omit=dev`), starts `node dist/server/main.mjs` in production
# mode on a fresh database, and checks that /api/ready answers 200, the web client's page loads
# and /metrics answers; then stops it with SIGTERM and expects a clean exit. Not part of
# `npm test` (it installs packages: about a minute). docs/operations.md.
#
# PRODUCTION_CHECK_ADMIN_URL (default: TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres)
# names a server where a database may be created and dropped. SKIP_BUILD=1 reuses dist/.
set -euo pipefail
cd "$(dirname "$0")/.."

admin_url=${PRODUCTION_CHECK_ADMIN_URL:-${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}}
started=$(date +%s)
say() { printf '[production-install] %s\n' "$*"; }
fail() {
  say "FAILED: $*"
  [ -f "${work:-}/server.log" ] && tail -n 40 "$work/server.log"
  exit 1
}

if [ "${SKIP_BUILD:-}" != 1 ]; then
  say "npm run build"
  npm run build --silent >/dev/null
fi
[ -f dist/server/main.mjs ] && [ -f dist/client/index.html ] || fail "dist/ is not built"

work=$(mktemp -d "${TMPDIR:-/tmp}/pigeonhole-production-XXXXXX")
db="production_check_$(date +%s)_$$"
db_url=$(node -e 'const u = new URL(process.argv[1]); u.pathname = "/" + process.argv[2]; console.log(u.toString())' "$admin_url" "$db")
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid" 2>/dev/null || true; fi
  psql "$admin_url" -qAtc "drop database if exists $db with (force)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# What a deployment ships: the build, the migrations it applies at start, and the package files.
cp -r dist migrations package.json package-lock.json "$work/"
say "npm ci --omit=dev in $work"
install_started=$(date +%s)
(cd "$work" && npm ci --omit=dev --no-audit --no-fund --loglevel=error >"$work/npm.log" 2>&1) ||
  { tail -n 30 "$work/npm.log"; fail "npm ci --omit=dev"; }
say "installed in $(($(date +%s) - install_started)) s ($(du -sh "$work/node_modules" | cut -f1) of node_modules)"
# (esbuild is there: tsx, a dependency for the operator commands, brings it.)
for dev in vitest vite typescript eslint pg-boss playwright-core react; do
  [ ! -e "$work/node_modules/$dev" ] || fail "the dev dependency $dev was installed"
done

psql "$admin_url" -qAtc "create database $db" >/dev/null || fail "cannot create the database $db"
port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
token=$(node -e 'console.log(require("crypto").randomBytes(24).toString("hex"))')
say "starting node dist/server/main.mjs on port $port"
(
  cd "$work"
  exec env -i PATH="$PATH" HOME="${HOME:-/tmp}" NODE_ENV=production HOST=127.0.0.1 PORT="$port" \
    APP_URL="http://127.0.0.1:$port" DATABASE_URL="$db_url" DATA_DIR="$work/data" \
    METRICS_TOKEN="$token" LOG_LEVEL=warn node dist/server/main.mjs
) >"$work/server.log" 2>&1 &
server_pid=$!

base="http://127.0.0.1:$port"
ready=""
for _ in $(seq 1 120); do
  kill -0 "$server_pid" 2>/dev/null || fail "the server exited"
  if [ "$(curl -s -o "$work/ready.json" -w '%{http_code}' "$base/api/ready" || true)" = 200 ]; then
    ready=1
    break
  fi
  sleep 0.5
done
[ -n "$ready" ] || fail "/api/ready did not answer 200 within 60 s: $(cat "$work/ready.json" 2>/dev/null)"
say "/api/ready: $(cat "$work/ready.json")"

page=$(curl -s -w '\n%{http_code}' "$base/")
[ "$(tail -n1 <<<"$page")" = 200 ] || fail "GET / answered $(tail -n1 <<<"$page")"
grep -q '<script type="module"' <<<"$page" || fail "GET / is not the web client's page"
asset=$(grep -oE '/assets/[^"]+\.js' <<<"$page" | head -n1)
[ "$(curl -s -o /dev/null -w '%{http_code}' "$base$asset")" = 200 ] || fail "the client's script $asset did not load"
say "GET / and $asset: 200"

metrics=$(curl -s -H "authorization: Bearer $token" "$base/metrics")
grep -q '^pigeonhole_http_requests_total{method="GET",route="/api/ready",status="200"}' <<<"$metrics" ||
  fail "/metrics does not count the readiness probes"
say "/metrics: $(grep -c '^pigeonhole_' <<<"$metrics") pigeonhole series"

kill -TERM "$server_pid"
status=0
wait "$server_pid" || status=$?
server_pid=""
if [ "$status" = 143 ]; then
  # 128 + SIGTERM: a signal handler other than main.ts's ended the process before its drain (the
  # one embedded-postgres installs on import; decision 039 imports it only when it is used).
  fail "the server exited with 143 after SIGTERM: something exited on the signal before main.ts's shutdown finished"
fi
[ "$status" = 0 ] || fail "the server exited with $status after SIGTERM"
say "stopped cleanly; passed in $(($(date +%s) - started)) s"
