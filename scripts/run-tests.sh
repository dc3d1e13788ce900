#!/usr/bin/env bash
# Installs PhaseDesk with its test tools, then runs the whole test suite (slow tests
# included: the real embedded model and the frozen executable).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --dev
export QT_QPA_PLATFORM=offscreen
exec .venv/bin/python -m pytest -q "$@"
