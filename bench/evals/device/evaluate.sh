#!/usr/bin/env bash
# evaluate.sh JOBS: the suite (three engines), then each assist left out where it acted; in the
# background (logs and results under /tmp/dev/evals).
set -euo pipefail
JOBS=$1
mkdir -p /tmp/dev/evals
cat > /tmp/dev/evals/go.sh <<SCRIPT
export PYTHONPATH=/tmp/site PATH=/tmp/bin:\$PATH
cd /tmp/pd
URL=http://127.0.0.1:8080/v1
python3 bench/evals/run.py --base-url \$URL --model qwen2.5-coder-1.5b --engine all \
  --jobs $JOBS --timeout 300 --out /tmp/dev/evals/main > /tmp/dev/evals/main.log 2>&1
python3 bench/evals/ablate.py --results /tmp/dev/evals/main/results.json --base-url \$URL \
  --model qwen2.5-coder-1.5b --jobs 8 --timeout 300 --out /tmp/dev/evals/ablate \
  > /tmp/dev/evals/ablate.log 2>&1
echo EVAL-DONE >> /tmp/dev/evals/main.log
SCRIPT
setsid nohup bash /tmp/dev/evals/go.sh > /dev/null 2>&1 < /dev/null &
echo started
