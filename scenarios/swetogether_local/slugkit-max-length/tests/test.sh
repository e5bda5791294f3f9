#!/bin/sh
# Trusted verifier of slugkit-max-length. Run from the repository root.
# Writes gates.json and reward.txt to $AUTOINTERACT_VERIFIER_DIR (SWE-Together: /logs/verifier).
OUT="${AUTOINTERACT_VERIFIER_DIR:-/logs/verifier}"
mkdir -p "$OUT"
exec python3 -I "$(dirname "$0")/check_gates.py" "$OUT"
