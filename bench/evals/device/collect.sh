#!/usr/bin/env bash
# collect.sh OUT [WAIT_S]: wait up to WAIT_S seconds for the runs to end, then put what they
# found, small enough to come back, into OUT (the device's $OUT).
set -uo pipefail
OUT=$1
WAIT=${2:-0}
mkdir -p "$OUT"
cd /tmp/dev/evals
for _ in $(seq 1 "$WAIT"); do
  pgrep -f "bench/evals/[r]un.py" > /dev/null || break
  sleep 1
done
echo "after $(( $(date +%s) - $(cat started) )) s:"
for name in main no-write_reminder no-computed_files; do
  echo "$name: $(python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print(sum(len(e['tasks']) for e in d['engines'].values()))" "$name/results.json" 2>/dev/null) runs done; $(tail -1 "$name.log")"
  cp "$name/results.json" "$OUT/$name-results.json" 2>/dev/null
done
tail -c 200000 main.log > "$OUT/main.log"
tail -c 100000 /tmp/dev/server.log > "$OUT/server.log"
tar czf "$OUT/runs.tgz" --exclude='workspace' main no-write_reminder no-computed_files 2>/dev/null
ls -la "$OUT"
