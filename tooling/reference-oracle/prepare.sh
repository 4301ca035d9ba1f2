#!/usr/bin/env bash
# Unpacks the reference (OpenHands software-agent-sdk at 611629e6) into $REFERENCE_DIR (default /tmp/ref) so the
# scripts here can import it with the machine's Python 3.11 and pydantic 2: PEP 695 generics and one 3.12 f-string
# are rewritten, and every third-party dependency but pydantic is stubbed (stubs.py). Only the event models, the View
# and the message serialisers are exercised; nothing here talks to a network or a model.
# Usage: prepare.sh <git dir of the reference mirror, e.g. from the search tool's fetch>
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ref="${REFERENCE_DIR:-/tmp/ref}"
rm -rf "$ref" && mkdir -p "$ref"
git --git-dir="$1" archive 611629e69 openhands-sdk openhands-tools | tar x -C "$ref"
python3 "$here/pep695.py" "$ref/openhands-sdk/openhands" "$ref/openhands-tools/openhands" > /dev/null
python3 - "$ref/openhands-sdk/openhands/sdk/conversation/event_store.py" <<'PY'
import sys
p = sys.argv[1]; s = open(p).read()
s = s.replace('''        return f"{self._dir}/{
            EVENT_FILE_PATTERN.format(
                idx=idx, event_id=event_id or self._idx_to_id[idx]
            )
        }"''', '''        return f"{self._dir}/" + EVENT_FILE_PATTERN.format(idx=idx, event_id=event_id or self._idx_to_id[idx])''')
open(p, 'w').write(s)
PY
echo "reference ready in $ref"
