#!/usr/bin/env bash
# collect.sh OUT: what the runs found, small enough to come back.
set -uo pipefail
OUT=$1
mkdir -p "$OUT"
cd /tmp/dev/evals
echo "main: $(grep -c '^\[.*\] \(PASS\|FAIL\)' main.log) runs done; $(tail -1 main.log)"
cp main/results.json "$OUT/main-results.json" 2>/dev/null
for f in ablate/*/results.json; do [[ -f $f ]] && cp "$f" "$OUT/$(basename "$(dirname "$f")")-results.json"; done
cp ablate/ablations.txt "$OUT/" 2>/dev/null
tail -c 300000 main.log > "$OUT/main.log"
tar czf "$OUT/runs.tgz" --exclude='workspace' --exclude='replies.json' main ablate 2>/dev/null
ls -la "$OUT"
