"""The PyInstaller bundle for the packaging tests: built with README's command, or reused
from ``dist/`` when nothing it is built from changed since (a stamp in ``build/`` holds a
hash of the spec, the sources, the installed packages and the model file)."""

from __future__ import annotations

import hashlib
import importlib.metadata
import subprocess
import sys
from pathlib import Path

from core.llm.embedded import model_path

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "dist" / "PhaseDesk"
EXECUTABLE = BUNDLE / "PhaseDesk"
STAMP = ROOT / "build" / "PhaseDesk.inputs.sha256"
LOG = ROOT / "build" / "pyinstaller.log"
SOURCES = ("build.spec", "main_qt.py", "core", "ui", "resources")
BUILD_TIMEOUT_S = 900


def inputs_key() -> str:
    """A hash of everything the bundle is built from."""
    digest = hashlib.sha256()
    for name in SOURCES:
        top = ROOT / name
        files = [top] if top.is_file() else sorted(
            p for p in top.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
        for path in files:
            digest.update(f"{path.relative_to(ROOT)}\0".encode() + path.read_bytes() + b"\0")
    packages = sorted(f"{d.metadata['Name']}=={d.version}"
                      for d in importlib.metadata.distributions())
    model = model_path()
    stat = model.stat()
    digest.update("\n".join([sys.version, *packages,
                             f"{model}:{stat.st_size}:{stat.st_mtime_ns}"]).encode())
    return digest.hexdigest()


def ensure_bundle() -> Path:
    """The frozen executable, built first unless the one in ``dist/`` is up to date."""
    key = inputs_key()
    if EXECUTABLE.is_file() and STAMP.is_file() and STAMP.read_text().strip() == key:
        return EXECUTABLE
    STAMP.parent.mkdir(exist_ok=True)
    STAMP.unlink(missing_ok=True)  # a failed or interrupted build is never reused
    with LOG.open("w", encoding="utf-8") as log:
        result = subprocess.run([sys.executable, "-m", "PyInstaller", "build.spec", "--noconfirm"],
                                cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, check=False,
                                timeout=BUILD_TIMEOUT_S)
    if result.returncode != 0:
        tail = LOG.read_text(encoding="utf-8", errors="replace")[-4000:]
        raise AssertionError(f"pyinstaller build.spec failed ({result.returncode}):\n{tail}")
    if inputs_key() == key:  # nothing changed while it built
        STAMP.write_text(key + "\n")
    return EXECUTABLE


def bundle_problems(bundle: Path) -> list[str]:
    """What is missing from the bundle, or there although trimmed; empty when all is well."""
    contents = bundle / "_internal"
    qt = contents / "PySide6" / "Qt"
    required = [
        "models/" + model_path().name, "resources/phasedesk.svg", "resources/phasedesk.png",
        "llama_cpp/lib/libllama.so", "llama_cpp/lib/libggml.so",
        "PySide6/Qt/libexec/QtWebEngineProcess", "PySide6/Qt/resources/icudtl.dat",
        "PySide6/Qt/resources/qtwebengine_resources.pak",
        "PySide6/Qt/translations/qtwebengine_locales/en-US.pak",
        "PySide6/Qt/plugins/platforms/libqxcb.so", "PySide6/Qt/plugins/platforms/libqwayland.so",
        "PySide6/Qt/plugins/platforms/libqoffscreen.so",
        *(f"ui/web/{p.relative_to(ROOT / 'ui' / 'web')}"
          for p in (ROOT / "ui" / "web").rglob("*") if p.is_file()),
    ]
    problems = [f"missing: {name}" for name in required if not (contents / name).is_file()]
    if (qt / "qml").exists():
        problems.append("the QML tree is bundled")
    problems += [f"trimmed but present: {p.relative_to(contents)}"
                 for p in sorted((qt / "translations").glob("*.qm"))]
    problems += [f"dangling link: {p.relative_to(contents)}"
                 for p in sorted(contents.rglob("*")) if p.is_symlink() and not p.exists()]
    return problems
