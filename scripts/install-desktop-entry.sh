#!/usr/bin/env bash
# Puts the built PhaseDesk bundle into the desktop's application menu: installs
# resources/phasedesk.desktop (Exec = the bundle's absolute path) into
# ~/.local/share/applications and the icon into the hicolor theme. Build first with
# `.venv/bin/pyinstaller build.spec --noconfirm`; run again after moving the bundle.
#
#   bash scripts/install-desktop-entry.sh [BUNDLE_DIR]     (default: dist/PhaseDesk)
#   bash scripts/install-desktop-entry.sh --uninstall
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DATA_HOME=${XDG_DATA_HOME:-$HOME/.local/share}
ENTRY=$DATA_HOME/applications/phasedesk.desktop  # the name ui/app.py gives Qt (setDesktopFileName)
ICONS=$DATA_HOME/icons/hicolor

refresh_caches() {
  if command -v update-desktop-database >/dev/null 2>&1; then
    update-desktop-database -q "$DATA_HOME/applications" || true
  fi
  if command -v gtk-update-icon-cache >/dev/null 2>&1; then
    gtk-update-icon-cache -q -t "$ICONS" || true
  fi
}

if [[ "${1:-}" == "--uninstall" ]]; then
  rm -f "$ENTRY" "$ICONS/256x256/apps/phasedesk.png" "$ICONS/scalable/apps/phasedesk.svg"
  refresh_caches
  echo "Removed $ENTRY and the PhaseDesk icons."
  exit 0
fi

BUNDLE=$(cd "${1:-$ROOT/dist/PhaseDesk}" 2>/dev/null && pwd) || {
  echo "No bundle at ${1:-$ROOT/dist/PhaseDesk}: build it with" >&2
  echo "  .venv/bin/pyinstaller build.spec --noconfirm" >&2
  exit 1
}
EXE=$BUNDLE/PhaseDesk
if [[ ! -x "$EXE" ]]; then
  echo "$EXE is not an executable: is $BUNDLE a PhaseDesk bundle?" >&2
  exit 1
fi
RESOURCES=$BUNDLE/_internal/resources
[[ -f "$RESOURCES/phasedesk.png" ]] || RESOURCES=$ROOT/resources

if [[ "$EXE" == *%* || "$EXE" == *$'\n'* ]]; then
  echo "Menus cannot start programs whose path holds '%' or a line break: $EXE" >&2
  exit 1
fi
# An Exec argument, quoted as the Desktop Entry spec asks: inside double quotes ", `, $ and
# \ take a backslash, which the string-level escaping doubles.
desktop_quote() {
  local s=$1
  s=${s//\\/\\\\\\\\}
  s=${s//\"/\\\\\"}
  s=${s//\`/\\\\\`}
  s=${s//\$/\\\\\$}
  printf '"%s"' "$s"
}
# A plain string value: a backslash is written as two.
desktop_string() {
  printf '%s' "${1//\\/\\\\}"
}

mkdir -p "$(dirname "$ENTRY")" "$ICONS/256x256/apps" "$ICONS/scalable/apps"
install -m 644 "$RESOURCES/phasedesk.png" "$ICONS/256x256/apps/phasedesk.png"
install -m 644 "$RESOURCES/phasedesk.svg" "$ICONS/scalable/apps/phasedesk.svg"
exec_value=$(desktop_quote "$EXE")
tryexec_value=$(desktop_string "$EXE")
tmpdir=$(mktemp -d)
trap 'rm -rf "$tmpdir"' EXIT
tmp=$tmpdir/phasedesk.desktop
while IFS= read -r line; do
  case $line in
    Exec=*) printf 'Exec=%s\n' "$exec_value" ;;
    TryExec=*) printf 'TryExec=%s\n' "$tryexec_value" ;;
    *) printf '%s\n' "$line" ;;
  esac
done < "$ROOT/resources/phasedesk.desktop" > "$tmp"
chmod 644 "$tmp"
if command -v desktop-file-validate >/dev/null 2>&1; then
  desktop-file-validate "$tmp"
fi
mv "$tmp" "$ENTRY"
refresh_caches
echo "Installed $ENTRY"
echo "  Exec=$exec_value"
echo "PhaseDesk is now in the application menu (Development / Utility)."
