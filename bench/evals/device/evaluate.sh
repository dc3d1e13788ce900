#!/usr/bin/env bash
# evaluate.sh JOBS TIMEOUT: in the background, at the same time: the whole suite with the three
# engines (main), the classic loop without write_reminder on every task (no-write_reminder),
# and both engines without computed_files on the tasks that compute a data file
# (no-computed_files); the suite with JOBS runs at once, each ablation with a quarter of that.
# SUITES=main runs only the first (default: all three). Logs and results under
# /tmp/dev/evals/NAME/.
set -euo pipefail
JOBS=$1
TIMEOUT=$2
SIDE=$(( JOBS / 4 > 0 ? JOBS / 4 : 1 ))
mkdir -p /tmp/dev/evals
date +%s > /tmp/dev/evals/started
one() {  # one NAME ARGS...: run.py in the background into /tmp/dev/evals/NAME
  local name=$1
  shift
  (cd /tmp/pd && PYTHONPATH=/tmp/site PATH=/tmp/bin:$PATH setsid nohup python3 bench/evals/run.py \
    --base-url http://127.0.0.1:8080/v1 --model qwen2.5-coder-1.5b --timeout "$TIMEOUT" \
    --out "/tmp/dev/evals/$name" "$@" > "/tmp/dev/evals/$name.log" 2>&1 < /dev/null &)
}
SUITES=${SUITES:-main no-write_reminder no-computed_files}
one main --engine all --jobs "$JOBS"
if [[ " $SUITES " == *" no-write_reminder "* ]]; then
  one no-write_reminder --engine classic --without write_reminder --jobs "$SIDE"
fi
if [[ " $SUITES " == *" no-computed_files "* ]]; then
  one no-computed_files --engine both --without computed_files --jobs "$SIDE" \
    --tasks count-todos,json-pipeline,largest-file,csv-pipeline,run-generator
fi
echo started
