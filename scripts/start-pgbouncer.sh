#!/usr/bin/env bash
# Start PgBouncer in transaction mode on a loopback port, in front of the machine's PostgreSQL.
#
# Debian bookworm's pgbouncer (1.18) is what CI and the e2e run through PgBouncer use: it has no
# prepared-statement support in transaction mode, so Atrium must work with unnamed statements
# only and without session state between transactions (docs/operations.md, "PgBouncer").
#
# Idempotent: installs the package only when missing, and leaves a PgBouncer that already
# answers on the port alone. Runs it as the postgres system user with its own config and pid
# file under $PGBOUNCER_DIR, so the package's own service (if any) is untouched.
#
# Every database name is passed through (`* = host=... port=...`), and any client user name is
# accepted and connects as $PGUSER (`auth_type = any`): fine for a CI box whose PostgreSQL
# already trusts loopback, never for a shared network.
#
# Run as root, non-interactive. Env overrides:
#   PGBOUNCER_PORT (default 6439)              where PgBouncer listens (127.0.0.1)
#   PGBOUNCER_DIR  (default /tmp/atrium-pgbouncer)  config, pid and log
#   PGHOST (default 127.0.0.1), PGPORT (default 5432), PGUSER (default postgres): the server
#   PGBOUNCER_POOL_SIZE (default 20)           server connections per database
# Prints the pooled URL prefix on its last line: postgres://postgres@127.0.0.1:$PGBOUNCER_PORT
# Stop it with: kill "$(cat "$PGBOUNCER_DIR/pgbouncer.pid")"
set -euo pipefail

PGBOUNCER_PORT="${PGBOUNCER_PORT:-6439}"
PGBOUNCER_DIR="${PGBOUNCER_DIR:-/tmp/atrium-pgbouncer}"
PGBOUNCER_POOL_SIZE="${PGBOUNCER_POOL_SIZE:-20}"
PGHOST="${PGHOST:-127.0.0.1}"
PGPORT="${PGPORT:-5432}"
PGUSER="${PGUSER:-postgres}"
RUN_AS="${PGBOUNCER_RUN_AS:-postgres}"

export DEBIAN_FRONTEND=noninteractive

log() { echo "[pgbouncer] $*"; }
die() { echo "[pgbouncer] ERROR: $*" >&2; exit 1; }

answers() { pg_isready -q -h 127.0.0.1 -p "$PGBOUNCER_PORT" >/dev/null 2>&1; }

[[ "$(id -u)" -eq 0 ]] || die "must run as root"

if ! command -v pgbouncer >/dev/null 2>&1 && [[ ! -x /usr/sbin/pgbouncer ]]; then
  log "apt-get install pgbouncer"
  apt-get -q -y -o DPkg::Lock::Timeout=300 update >/dev/null
  # policy-rc.d keeps the package's own service from starting on the default port.
  own_policy=false
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    own_policy=true
    trap 'rm -f /usr/sbin/policy-rc.d' EXIT
  fi
  apt-get -q -y -o DPkg::Lock::Timeout=300 install --no-install-recommends pgbouncer >/dev/null
  if $own_policy; then rm -f /usr/sbin/policy-rc.d; trap - EXIT; fi
fi
PGBOUNCER_BIN="$(command -v pgbouncer || echo /usr/sbin/pgbouncer)"
log "$("$PGBOUNCER_BIN" --version | head -n1)"

if answers; then
  log "already answering on 127.0.0.1:${PGBOUNCER_PORT}; leaving it running"
  echo "postgres://${PGUSER}@127.0.0.1:${PGBOUNCER_PORT}"
  exit 0
fi

mkdir -p "$PGBOUNCER_DIR"
cat >"$PGBOUNCER_DIR/pgbouncer.ini" <<EOF
; Written by Atrium scripts/start-pgbouncer.sh
[databases]
* = host=${PGHOST} port=${PGPORT} user=${PGUSER}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${PGBOUNCER_PORT}
unix_socket_dir =
auth_type = any
pool_mode = transaction
admin_users = ${PGUSER}
default_pool_size = ${PGBOUNCER_POOL_SIZE}
max_client_conn = 500
; A dropped test database leaves its pool behind; let idle server connections go soon.
server_idle_timeout = 10
server_lifetime = 300
logfile = ${PGBOUNCER_DIR}/pgbouncer.log
pidfile = ${PGBOUNCER_DIR}/pgbouncer.pid
EOF
chown -R "$RUN_AS" "$PGBOUNCER_DIR"
rm -f "$PGBOUNCER_DIR/pgbouncer.pid"
log "starting in transaction mode on 127.0.0.1:${PGBOUNCER_PORT} -> ${PGHOST}:${PGPORT}"
su -s /bin/sh "$RUN_AS" -c "'$PGBOUNCER_BIN' -d '$PGBOUNCER_DIR/pgbouncer.ini'"
for _ in $(seq 1 50); do
  answers && break
  sleep 0.2
done
answers || { tail -n 20 "$PGBOUNCER_DIR/pgbouncer.log" >&2 || true; die "PgBouncer did not come up on port ${PGBOUNCER_PORT}"; }
psql -X -q -h 127.0.0.1 -p "$PGBOUNCER_PORT" -U "$PGUSER" -d postgres -Atc 'SELECT 1' >/dev/null \
  || die "PgBouncer answers but cannot reach PostgreSQL at ${PGHOST}:${PGPORT}"
log "ready"
echo "postgres://${PGUSER}@127.0.0.1:${PGBOUNCER_PORT}"
