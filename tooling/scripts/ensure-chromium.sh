#!/usr/bin/env bash
# Makes sure Debian's chromium is installed for the web viewer's browser tests (driven by
# playwright-core; no browser is ever downloaded by npm). Idempotent: does nothing when
# /usr/bin/chromium (or $X_CHROMIUM_PATH) already exists. Needs root (or sudo) for apt-get.
set -euo pipefail
CHROMIUM="${X_CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing and apt-get is not available; install chromium and set X_CHROMIUM_PATH" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "ensure-chromium: installing Debian's chromium (for the viewer's browser tests)"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null
"$CHROMIUM" --version
