#!/bin/sh
# Entry point of `npm start` and `npm test`: runs under whatever node/npm the machine has (Node 20 here),
# installs the dependencies when needed (they include Node 24 as the npm package `node`), then hands over to
# `npm run portal` / `npm run test:run`, which run on node_modules/.bin/node (Node 24).
#
#   sh scripts/bootstrap.sh portal        # npm start
#   sh scripts/bootstrap.sh test [args]   # npm test [-- vitest args]
set -eu

cd "$(dirname "$0")/.."

mode="${1:-portal}"
[ "$#" -gt 0 ] && shift

say() { printf '[bootstrap] %s\n' "$*"; }

reason=""
if [ ! -x node_modules/.bin/node ]; then
  reason="node_modules/.bin/node is missing"
elif [ -f package-lock.json ] && [ ! -f node_modules/.package-lock.json ]; then
  reason="node_modules/.package-lock.json is missing"
elif [ -f package-lock.json ] && [ -n "$(find package-lock.json -newer node_modules/.package-lock.json 2>/dev/null)" ]; then
  reason="package-lock.json is newer than node_modules"
fi

if [ -n "$reason" ]; then
  if ! command -v npm >/dev/null 2>&1; then
    say "npm is not installed. Install Node.js >= 20 with npm (e.g. apt-get install -y nodejs npm), then run this again."
    exit 1
  fi
  started=$(date +%s)
  # The tools npm start and npm test run (the node package = Node 24, tsx, vite, vitest, eslint) are devDependencies:
  # --include=dev installs them even when NODE_ENV=production is set in this shell (npm would omit them then).
  # --loglevel=error: this npm runs on the machine's Node (20 here), older than what the dependencies ask for, and
  # warns EBADENGINE for each of them (about forty) before Node 24 takes over; errors still show, and so does npm's
  # closing "added N packages" line.
  if [ "${CI:-}" = "true" ] && [ -f package-lock.json ]; then
    say "installing dependencies with npm ci ($reason)…"
    npm ci --include=dev --no-audit --no-fund --loglevel=error
  else
    say "installing dependencies with npm install ($reason)…"
    npm install --include=dev --no-audit --no-fund --loglevel=error
  fi
  say "dependencies installed in $(( $(date +%s) - started )) s"
fi

# System packages the portal needs, installed once when missing: Chromium and fonts (letters are PDFs
# printed by Chromium; the e2e tests drive it) and, for the tests, pdftotext (they read the letters' text) and zbarimg
# (they read the letters' QR codes).
ensure_system_packages() {
  missing=""
  # Letters are printed by Debian's headless-only Chromium (CHROMIUM_PATH); the tests drive the UI in the same build
  # (devtools/ui-browser.ts), or in the one TEST_BROWSER_PATH names (the full browser: the package chromium).
  letters="${CHROMIUM_PATH:-/usr/lib/chromium/chromium-headless-shell}"
  [ -x "$letters" ] || missing="$missing chromium-headless-shell fonts-liberation fonts-dejavu-core"
  if [ "$mode" = "test" ] && [ -n "${TEST_BROWSER_PATH:-}" ] && [ ! -x "$TEST_BROWSER_PATH" ]; then missing="$missing chromium"; fi
  if [ "$mode" = "test" ] && ! command -v pdftotext >/dev/null 2>&1; then missing="$missing poppler-utils"; fi
  # The verification e2e test reads the QR code printed on a letter (zbarimg).
  if [ "$mode" = "test" ] && ! command -v zbarimg >/dev/null 2>&1; then missing="$missing zbar-tools"; fi
  # The mailbox poller's test signs in to a real IMAP server: it starts a throwaway Dovecot on a free port of its own
  # (the package's system service, where an init system starts one, is not used).
  if [ "$mode" = "test" ] && [ ! -x /usr/sbin/dovecot ]; then missing="$missing dovecot-imapd"; fi
  # The restore drill (tests/workflows/restore-drill.test.ts) takes a real pg_dump and pg_restore.
  if [ "$mode" = "test" ] && ! command -v pg_dump >/dev/null 2>&1; then missing="$missing postgresql-client"; fi
  [ -z "$missing" ] && return 0
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; else sudo="none"; fi
  fi
  if [ "$sudo" = "none" ] || ! command -v apt-get >/dev/null 2>&1; then
    say "missing:$missing. This machine cannot install them here (no root, no sudo without a password, or no apt-get)."
    say "Install them once with:  sudo apt-get install -y$missing   (then run this command again)"
    return 1
  fi
  started=$(date +%s)
  say "installing$missing with apt-get (once; about a minute)…"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $missing | grep -E '^(Setting up|Unpacking) ' || true
  say "system packages installed in $(( $(date +%s) - started )) s"
}

if ! ensure_system_packages; then
  # Tests cannot pass without them; the portal starts without Chromium (letters wait for it) and says so.
  [ "$mode" = "test" ] && exit 1
fi

if [ ! -x node_modules/.bin/node ]; then
  say "node_modules/.bin/node is still missing after the install: is the npm package \"node\" (Node 24) listed in package.json?"
  exit 1
fi

# The Temporal CLI (dev server): built once with Go into ~/.cache/coi-portal (about 6 minutes, progress shown), then
# found at once.
if [ -z "${TEMPORAL_CLI:-}" ] && ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then PATH="$PATH:/usr/local/go/bin"; export PATH; fi
node_modules/.bin/node --import tsx scripts/install-temporal-cli.ts || exit 1
# The real Temporal server (the production shape's), for the tests that run on it: built once too.
if [ "$mode" = "test" ]; then node_modules/.bin/node --import tsx scripts/install-temporal-server.ts || exit 1; fi

case "$mode" in
  portal)
    say "starting the portal on Node $(node_modules/.bin/node --version)…"
    exec npm run --silent portal
    ;;
  test)
    say "running the tests on Node $(node_modules/.bin/node --version)…"
    exec npm run --silent test:run -- "$@"
    ;;
  *)
    say "usage: sh scripts/bootstrap.sh portal|test [args]"
    exit 2
    ;;
esac
