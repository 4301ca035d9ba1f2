#!/usr/bin/env bash
# Makes sure a PostgreSQL server (initdb + postgres) is installed for the @x/store-postgres tests, which
# start their own throwaway server on 127.0.0.1. Idempotent: does nothing when one is already there.
# Debian/Ubuntu only (apt-get); elsewhere install PostgreSQL ≥ 13 yourself and set X_POSTGRES_BIN.
set -euo pipefail
if [ -n "${X_POSTGRES_BIN:-}" ] && [ -x "${X_POSTGRES_BIN}/initdb" ]; then exit 0; fi
if compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then exit 0; fi
if ! command -v apt-get >/dev/null; then
  echo "ensure-postgres: no PostgreSQL under /usr/lib/postgresql and no apt-get; install PostgreSQL and set X_POSTGRES_BIN" >&2
  exit 1
fi
SUDO=''
if [ "$(id -u)" != 0 ]; then SUDO='sudo'; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# The package's own cluster is not used by the tests; they run initdb in a temp directory.
$SUDO apt-get install -y -qq postgresql >/dev/null
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || {
  echo "ensure-postgres: apt-get installed postgresql but no initdb under /usr/lib/postgresql/*/bin" >&2
  exit 1
}
