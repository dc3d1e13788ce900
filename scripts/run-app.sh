#!/usr/bin/env bash
# Installs PhaseDesk on first use, then starts the desktop app. On a machine without a
# screen the window opens inside Xvfb. Arguments are passed to main_qt.py.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]] && command -v xvfb-run >/dev/null; then
  echo "==> No screen found: starting PhaseDesk inside Xvfb"
  exec xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python main_qt.py "$@"
fi
exec .venv/bin/python main_qt.py "$@"
