"""The analysis call alone on tasks' requests in several languages: how the model reads each
request once the engine has checked the reading — change, question or both, which files with
which roles, how many examples it kept and how many items it left out. Nothing runs past the
reading, so a language's reading is measured at one call per request.

    .venv/bin/python bench/evals/reading_probe.py --gguf qwen2.5-coder-1.5b \
        --tasks add-is-prime,question-version --langs en,zh,ja,de,fr,es,ru [--out FILE.jsonl]
    .venv/bin/python bench/evals/reading_probe.py --gguf qwen2.5-coder-1.5b --set humaneval \
        --tasks HumanEval_68 --langs en
    .venv/bin/python bench/evals/reading_probe.py --base-url URL --model NAME ...

A suite task named ``question-*`` asks a question; every other task asks for a change (the
suite's own convention, used only to mark the table's ``ok`` column).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import bench.isolation  # noqa: E402,F401  (its own app home, never the person's)
from bench.evals.sets import select_tasks  # noqa: E402
from core.config import Settings  # noqa: E402
from core.engine.build import create_engine  # noqa: E402
from core.events import RequestAnalysed  # noqa: E402
from core.llm.base import ChatModel  # noqa: E402
from core.llm.factory import make_model  # noqa: E402


def expected_kind(task_name: str) -> str:
    """What the suite's task asks: its question tasks are named ``question-*``."""
    return "question" if task_name.startswith("question-") else "change"


async def read_once(model: ChatModel, settings: Settings, workspace: Path,
                    request: str) -> dict[str, Any]:
    """The checked reading of ``request`` on a copy of ``workspace``, the engine stopped as
    soon as it is recorded (its ``dropped`` lists the items the engine left out)."""
    scratch = Path(tempfile.mkdtemp(prefix="probe-")) / "ws"
    shutil.copytree(workspace, scratch)
    engine = create_engine(settings, scratch, model=model)
    started, reading = time.monotonic(), None
    try:
        async for event in engine.run(request):
            if isinstance(event, RequestAnalysed):
                reading = event.reading
                engine.cancel()
    finally:
        shutil.rmtree(scratch.parent, ignore_errors=True)
    return {"reading": reading, "seconds": round(time.monotonic() - started, 1)}


def row(task: str, lang: str, result: dict[str, Any]) -> dict[str, Any]:
    reading = result["reading"] or {}
    files = [f"{role}:{path}" for role in ("change", "create", "read", "forbid")
             for path in reading.get(role, [])]
    kind = reading.get("kind", "none")
    want = expected_kind(task)
    return {"task": task, "lang": lang, "kind": kind, "expected": want,
            "ok": kind == want or kind == "both", "files": files,
            "examples": len(reading.get("examples", [])),
            "left_out": len(reading.get("dropped", [])),
            "seconds": result["seconds"]}


def table(rows: list[dict[str, Any]]) -> str:
    lines = [f"{'task':<22} {'lang':<4} {'kind':<9} {'ok':<3} {'ex':>3} {'out':>3} "
             f"{'s':>6}  files"]
    for r in rows:
        lines.append(f"{r['task']:<22} {r['lang']:<4} {r['kind']:<9} "
                     f"{'yes' if r['ok'] else 'NO':<3} {r['examples']:>3} {r['left_out']:>3} "
                     f"{r['seconds']:>6}  {', '.join(r['files'])}")
    by_lang: dict[str, list[bool]] = {}
    for r in rows:
        by_lang.setdefault(r["lang"], []).append(r["ok"])
    lines.append("read as asked: " + ", ".join(
        f"{lang} {sum(oks)}/{len(oks)}" for lang, oks in by_lang.items()))
    return "\n".join(lines)


async def main(args: argparse.Namespace) -> int:
    if args.gguf:
        installed = bench.isolation.PERSON_DATA_DIR / "models" / f"{args.gguf}.gguf"
        gguf = str(installed) if installed.is_file() else args.gguf
        settings = Settings(provider="embedded", gguf=gguf, max_iterations=0)
    else:
        settings = Settings(provider="openai", base_url=args.base_url, model=args.model,
                            api_key=args.api_key, max_iterations=0)
    try:
        chosen = [(lang, task) for lang in args.langs.split(",")
                  for task in select_tasks(args.task_set, args.tasks.split(","), lang=lang)]
    except (ValueError, FileNotFoundError) as exc:
        print(f"reading_probe: {exc}", file=sys.stderr)
        return 2
    model = make_model(settings)
    rows: list[dict[str, Any]] = []
    out = open(args.out, "a", encoding="utf-8") if args.out else None
    try:
        for lang, task in chosen:
            result = await read_once(model, settings, task.workspace, task.request)
            rows.append(row(task.name, lang, result))
            print(json.dumps(rows[-1], ensure_ascii=False), flush=True)
            if out:
                out.write(json.dumps({**rows[-1], "reading": result["reading"]},
                                     ensure_ascii=False) + "\n")
                out.flush()
    finally:
        if out:
            out.close()
        close = getattr(model, "aclose", None)
        if close:
            await close()
    print(table(rows))
    return 0


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", required=True, help="task names, comma-separated")
    parser.add_argument("--set", dest="task_set", default="suite", choices=["suite", "humaneval"],
                        help="the suite's tasks or HumanEval's problems (English only)")
    parser.add_argument("--langs", default="en,zh,ja,de,fr,es,ru")
    parser.add_argument("--gguf", help="a GGUF file or installed model name (embedded)")
    parser.add_argument("--base-url", help="an OpenAI-compatible endpoint")
    parser.add_argument("--model", default="")
    parser.add_argument("--api-key", default="")
    parser.add_argument("--out", help="append each reading as a JSON line here")
    args = parser.parse_args(argv)
    if bool(args.gguf) == bool(args.base_url):
        parser.error("give exactly one of --gguf, --base-url")
    return args


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse(sys.argv[1:]))))
