#!/usr/bin/env bash
# Install Debian's Chromium for the inspector's browser test (test/inspector/*.browser.ts,
# driven by playwright-core with executablePath /usr/bin/chromium). `npx playwright install`
# downloads a browser build of its own, which these machines cannot fetch; Debian's package
# comes from the Debian mirror like any other package.
#
# Idempotent: exits at once when /usr/bin/chromium answers --version. Run as root,
# non-interactive. Env override: CHROMIUM_BIN (default /usr/bin/chromium).
set -euo pipefail

CHROMIUM_BIN="${CHROMIUM_BIN:-/usr/bin/chromium}"
LOG="/tmp/install-chromium.$(date +%Y%m%d%H%M%S).$$.log"
APT_OPTS=(-q -y -o DPkg::Lock::Timeout=300 -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)
export DEBIAN_FRONTEND=noninteractive

log() { echo "[chromium] $*"; }
die() { echo "[chromium] ERROR: $*" >&2; exit 1; }

# Run a command with its output in $LOG; on failure show the log's tail and stop.
quiet() {
  echo "+ $*" >>"$LOG"
  if ! "$@" >>"$LOG" 2>&1; then
    echo "[chromium] ERROR: command failed: $*" >&2
    tail -n 40 "$LOG" >&2 || true
    exit 1
  fi
}

installed() { [[ -x "$CHROMIUM_BIN" ]] && "$CHROMIUM_BIN" --headless --no-sandbox --version >/dev/null 2>&1; }

if installed; then
  log "$("$CHROMIUM_BIN" --headless --no-sandbox --version 2>/dev/null | head -n1) already installed; skipping"
  exit 0
fi

[[ "$(id -u)" -eq 0 ]] || die "must run as root (apt-get install chromium)"
: >"$LOG"
log "apt-get update (log: $LOG)"
quiet apt-get "${APT_OPTS[@]}" update
# Fonts so that text renders in screenshots; --no-install-recommends keeps the rest out.
log "apt-get install chromium fonts-dejavu-core"
quiet apt-get "${APT_OPTS[@]}" install --no-install-recommends chromium fonts-dejavu-core
installed || die "$CHROMIUM_BIN does not run after the install"
log "done: $("$CHROMIUM_BIN" --headless --no-sandbox --version 2>/dev/null | head -n1)"
