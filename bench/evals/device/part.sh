#!/usr/bin/env bash
# part.sh FILE NN: keep model part NN.
set -euo pipefail
cp "$1" "/tmp/dev/parts/$2"
echo "parts: $(ls /tmp/dev/parts | wc -l) · build: $(grep -o '\[ *[0-9]*%\]' /tmp/dev/build.log | tail -1) $(grep BUILD-EXIT /tmp/dev/build.log || true)"
