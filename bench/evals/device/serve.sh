#!/usr/bin/env bash
# serve.sh SLOTS SHA256 [SERVER FLAGS...]: join the model, check it, start llama-server (with
# any further flags, e.g. --no-cache-prompt), wait until it answers.
set -euo pipefail
SLOTS=$1
SHA=$2
shift 2
cd /tmp/dev
for _ in $(seq 1 300); do grep -q BUILD-EXIT build.log && break; sleep 2; done
grep "BUILD-EXIT 0" build.log || { tail -30 build.log; exit 1; }
if [[ ! -f model.gguf ]]; then cat parts/* > model.gguf; fi
echo "$SHA  model.gguf" | sha256sum -c -
setsid nohup lb/bin/llama-server -m model.gguf -ngl 99 --jinja -c $((SLOTS * 16384)) \
  --parallel "$SLOTS" --port 8080 --host 127.0.0.1 "$@" > server.log 2>&1 < /dev/null &
for _ in $(seq 1 120); do
  curl -sf http://127.0.0.1:8080/health > /dev/null && { echo "server up"; exit 0; }
  sleep 1
done
tail -20 server.log; exit 1
