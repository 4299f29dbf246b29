#!/usr/bin/env bash
# Install the pgvector extension (>= 0.8) into the system PostgreSQL cluster.
#
# Debian bookworm ships no pgvector package, so this builds it from the Debian
# trixie source package against postgresql-server-dev-$PG_MAJOR.
#
# Idempotent: exits quickly when vector.control (default_version >= 0.8) is
# already present for $PG_MAJOR. Always leaves the cluster running.
#
# Run as root, non-interactive. Env overrides:
#   PG_MAJOR   (default 15)       PostgreSQL major version
#   PG_CLUSTER (default main)     cluster name (pg_ctlcluster)
#   PGHOST     (default 127.0.0.1), PGPORT (default 5432), PGUSER (default postgres)
set -euo pipefail

PG_MAJOR="${PG_MAJOR:-15}"
PG_CLUSTER="${PG_CLUSTER:-main}"
PGHOST="${PGHOST:-127.0.0.1}"
PGPORT="${PGPORT:-5432}"
PGUSER="${PGUSER:-postgres}"
MIN_VERSION="0.8"
SOURCES_FILE="/etc/apt/sources.list.d/atrium-trixie-src.sources"
LOG="/tmp/install-pgvector.$(date +%Y%m%d%H%M%S).$$.log"
PG_BIN="/usr/lib/postgresql/${PG_MAJOR}/bin"
PG_CONFIG="${PG_BIN}/pg_config"

export DEBIAN_FRONTEND=noninteractive
export PGHOST PGPORT PGUSER

log() { echo "[pgvector] $*"; }
die() { echo "[pgvector] ERROR: $*" >&2; exit 1; }

# Run a command with output to $LOG; on failure show the log tail and abort.
quiet() {
  echo "+ $*" >>"$LOG"
  if ! "$@" >>"$LOG" 2>&1; then
    echo "[pgvector] ERROR: command failed: $*" >&2
    echo "[pgvector] ---- last 40 lines of $LOG ----" >&2
    tail -n 40 "$LOG" >&2 || true
    exit 1
  fi
}

APT_OPTS=(-q -y -o DPkg::Lock::Timeout=300 -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)

sharedir() {
  if [[ -x "$PG_CONFIG" ]]; then
    "$PG_CONFIG" --sharedir
  else
    echo "/usr/share/postgresql/${PG_MAJOR}"
  fi
}

installed_version() {
  local control
  control="$(sharedir)/extension/vector.control"
  [[ -f "$control" ]] || return 1
  sed -n "s/^[[:space:]]*default_version[[:space:]]*=[[:space:]]*'\([^']*\)'.*/\1/p" "$control" | head -n1
}

server_up() { pg_isready -q -h "$PGHOST" -p "$PGPORT" >/dev/null 2>&1; }

ensure_server() {
  if server_up; then return 0; fi
  log "PostgreSQL ${PG_MAJOR}/${PG_CLUSTER} not answering on ${PGHOST}:${PGPORT}; starting it"
  pg_ctlcluster --skip-systemctl-redirect "$PG_MAJOR" "$PG_CLUSTER" start >>"$LOG" 2>&1 || true
  local i
  for i in $(seq 1 30); do
    server_up && { log "server is up"; return 0; }
    sleep 1
  done
  tail -n 20 "$LOG" >&2 || true
  die "PostgreSQL ${PG_MAJOR}/${PG_CLUSTER} did not come up on ${PGHOST}:${PGPORT}"
}

[[ "$(id -u)" -eq 0 ]] || die "must run as root"

# ---- fast path -------------------------------------------------------------
if ver="$(installed_version)" && [[ -n "$ver" ]] && dpkg --compare-versions "$ver" ge "$MIN_VERSION"; then
  ensure_server
  log "pgvector ${ver} already installed for PostgreSQL ${PG_MAJOR}; skipping"
  exit 0
fi

: >"$LOG"
log "installing pgvector >= ${MIN_VERSION} for PostgreSQL ${PG_MAJOR} (log: $LOG)"

# ---- 1. deb-src entry for trixie (source packages only, no binaries) --------
if [[ ! -f "$SOURCES_FILE" ]]; then
  log "adding deb-src entry $SOURCES_FILE"
  cat >"$SOURCES_FILE" <<'EOF'
# Added by Atrium scripts/install-pgvector.sh: source packages only (pgvector
# is not packaged for bookworm). deb-src entries never affect binary installs.
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
fi
log "apt-get update"
quiet apt-get "${APT_OPTS[@]}" update

# ---- 2. build dependencies --------------------------------------------------
pkgs=()
dpkg -s "postgresql-server-dev-${PG_MAJOR}" >/dev/null 2>&1 || pkgs+=("postgresql-server-dev-${PG_MAJOR}")
for p in build-essential dpkg-dev; do
  dpkg -s "$p" >/dev/null 2>&1 || pkgs+=("$p")
done
if ((${#pkgs[@]})); then
  log "apt-get install ${pkgs[*]}"
  quiet apt-get "${APT_OPTS[@]}" install --no-install-recommends "${pkgs[@]}"
fi
[[ -x "$PG_CONFIG" ]] || die "$PG_CONFIG not found after installing postgresql-server-dev-${PG_MAJOR}"
ensure_server

# ---- 3. fetch + build pgvector ----------------------------------------------
WORK="$(mktemp -d /tmp/pgvector-build.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"
chown _apt "$WORK" 2>/dev/null || true # lets apt download sandboxed as _apt
cd "$WORK"
log "downloading pgvector source (trixie)"
quiet apt-get -q source --download-only pgvector
shopt -s nullglob
tarballs=(pgvector_*.orig.tar.*)
shopt -u nullglob
((${#tarballs[@]})) || die "no pgvector_*.orig.tar.* downloaded"
mkdir src
tar -xf "${tarballs[0]}" -C src --strip-components=1
log "building ${tarballs[0]}"
# OPTFLAGS="" avoids -march=native so the binary is portable across CPUs
# (same as Debian's own build).
quiet make -C src PG_CONFIG="$PG_CONFIG" OPTFLAGS=""
log "make install"
quiet make -C src PG_CONFIG="$PG_CONFIG" OPTFLAGS="" install

ver="$(installed_version)" || die "vector.control missing after make install"
dpkg --compare-versions "$ver" ge "$MIN_VERSION" || die "installed pgvector $ver < $MIN_VERSION"

# ---- 4. verify ---------------------------------------------------------------
ensure_server
SCRATCH="atrium_pgvector_check_$$"
trap 'psql -X -q -d postgres -c "DROP DATABASE IF EXISTS ${SCRATCH}" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
quiet psql -X -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE ${SCRATCH}"
got="$(psql -X -v ON_ERROR_STOP=1 -At -d "$SCRATCH" \
  -c "CREATE EXTENSION IF NOT EXISTS vector" \
  -c "SELECT extversion FROM pg_extension WHERE extname = 'vector'" 2>>"$LOG" | tail -n1)" \
  || { tail -n 20 "$LOG" >&2; die "CREATE EXTENSION vector failed"; }
quiet psql -X -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE ${SCRATCH}"
log "verified: CREATE EXTENSION vector works (version ${got})"
log "done: pgvector ${ver} installed for PostgreSQL ${PG_MAJOR}"
