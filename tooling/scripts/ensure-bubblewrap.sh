#!/usr/bin/env bash
# Makes sure bubblewrap (`bwrap`) is installed: @x/agent's sandbox runs every command of the agent in it, and
# its tests run real commands in the real sandbox. Idempotent: does nothing when `bwrap` is already there.
# Debian/Ubuntu only (apt-get); elsewhere install bubblewrap ≥ 0.8 with the system's package manager.
set -euo pipefail
if command -v bwrap >/dev/null; then exit 0; fi
if ! command -v apt-get >/dev/null; then
  echo "ensure-bubblewrap: no bwrap on PATH and no apt-get; install bubblewrap (>= 0.8) yourself" >&2
  exit 1
fi
SUDO=''
if [ "$(id -u)" != 0 ]; then SUDO='sudo'; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq bubblewrap >/dev/null
command -v bwrap >/dev/null || {
  echo "ensure-bubblewrap: apt-get installed bubblewrap but no bwrap is on PATH" >&2
  exit 1
}
