"""The summarizer alone on recorded runs: each run replayed from its recorded replies up to its
summary, which a real model then writes; the table says which summaries are in the person's
language (by script, where the language's script tells: Chinese, Japanese, Russian, ...).
Only the summarizer's calls (and any after them) reach the model, so a change to how the
summary is asked is measured at one or two calls per run, on any runtime.

    .venv/bin/python bench/evals/summary_probe.py --gguf qwen2.5-coder-1.5b \
        artifacts/evals/s1/*-phase [--out FILE.jsonl]
    .venv/bin/python bench/evals/summary_probe.py --base-url URL --model NAME FOLDER ...

Each FOLDER is a results folder of ``run.py`` (``results.json`` and
``ENGINE/TASK/replies.json``); its set and language pick the task's workspace and request.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
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
from core.engine.language import script_for, script_of  # noqa: E402
from core.events import LlmCall, RequestAnalysed, Summary  # noqa: E402
from core.llm.base import NO_OPTIONS, CallOptions, ChatModel, Reply  # noqa: E402
from core.llm.factory import make_model  # noqa: E402
from core.llm.scripted import ScriptedModel  # noqa: E402


class Relay:
    """The recorded replies for every call before the summarizer's; ``real`` answers the
    summarizer's call and every call after it."""

    provider = "scripted"

    def __init__(self, recorded: ScriptedModel, real: ChatModel, forcing: str = "named") -> None:
        self.recorded, self.real = recorded, real
        self.capabilities = dataclasses.replace(recorded.capabilities, forcing=forcing)
        self.name = real.name
        self.summarizing = False

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]],
                       tool_choice: dict[str, Any] | str | None,
                       options: CallOptions = NO_OPTIONS) -> Reply:
        names = [t.get("function", {}).get("name") for t in tools]
        schema = (options.response_format or {}).get("json_schema") or {}
        self.summarizing = self.summarizing or names == ["summarizer"] \
            or schema.get("name") == "summarizer"
        model = self.real if self.summarizing else self.recorded
        return await model.complete(messages, tools, tool_choice, options)


async def summarize(real: ChatModel, folder: Path, forcing: str) -> list[dict[str, Any]]:
    """One row per run in the results ``folder``: the summary a real model writes after the
    run's recorded replies, its stage calls forced by ``forcing`` (``core/llm/forcing.py``)."""
    results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    rows = []
    for replies in sorted(folder.glob("*/*/replies.json")):
        engine, name = replies.parent.parent.name, replies.parent.name
        [task] = select_tasks(results.get("set", "suite"), [name], lang=results.get("lang", "en"))
        scratch = Path(tempfile.mkdtemp(prefix="summary-probe-")) / "ws"
        task.prepare(scratch)
        model = Relay(ScriptedModel.from_file(replies), real, forcing)
        settings = Settings(workspace=str(scratch), use_phase_task=engine != "classic")
        run = create_engine(settings, scratch, model=model)
        started, language, summary, calls = time.monotonic(), "", None, 0
        try:
            async for event in run.run(task.request):
                if isinstance(event, RequestAnalysed):
                    language = event.language
                elif isinstance(event, LlmCall) and event.stage == "summarizer":
                    calls += 1
                elif isinstance(event, Summary):
                    summary = event
        finally:
            shutil.rmtree(scratch.parent, ignore_errors=True)
        text = summary.final_summary if summary else ""
        want = script_for(language)
        rows.append({"run": f"{folder.name}/{name}", "lang": results.get("lang", "en"),
                     "language": language, "want": want or "latin",
                     "got": script_of(text) or "none",
                     "ok": (script_of(text) == want) if want else None,
                     "by": summary.generated_by if summary else "", "calls": calls,
                     "seconds": round(time.monotonic() - started, 1),
                     "summary": " ".join(text.split())[:300]})
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    lines = [f"{'run':<40} {'want':<6} {'got':<6} {'ok':<3} {'by':<8} {'calls':>5}  summary"]
    for r in rows:
        ok = "-" if r["ok"] is None else "yes" if r["ok"] else "NO"
        lines.append(f"{r['run']:<40} {r['want']:<6} {r['got']:<6} {ok:<3} {r['by']:<8} "
                     f"{r['calls']:>5}  {r['summary'][:70]}")
    told = [r for r in rows if r["ok"] is not None]
    lines.append(f"in the person's script: {sum(r['ok'] for r in told)}/{len(told)}; "
                 f"summarizer calls: {sum(r['calls'] for r in rows)} for {len(rows)} runs")
    return "\n".join(lines)


async def main(args: argparse.Namespace) -> int:
    if args.gguf:
        installed = bench.isolation.PERSON_DATA_DIR / "models" / f"{args.gguf}.gguf"
        gguf = str(installed) if installed.is_file() else args.gguf
        settings = Settings(provider="embedded", gguf=gguf)
    else:
        settings = Settings(provider="openai", base_url=args.base_url, model=args.model,
                            api_key=args.api_key or "none")
    real = make_model(settings)
    rows: list[dict[str, Any]] = []
    out = open(args.out, "a", encoding="utf-8") if args.out else None
    try:
        for folder in args.folders:
            for row in await summarize(real, Path(folder), args.forcing):
                rows.append(row)
                print(json.dumps(row, ensure_ascii=False), flush=True)
                if out:
                    out.write(json.dumps(row, ensure_ascii=False) + "\n")
                    out.flush()
    finally:
        if out:
            out.close()
        close = getattr(real, "aclose", None)
        if close:
            await close()
    print(table(rows))
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", help="results folders of run.py")
    parser.add_argument("--gguf", help="a GGUF file (or installed model name)")
    parser.add_argument("--base-url", help="an OpenAI-compatible endpoint")
    parser.add_argument("--model", default="")
    parser.add_argument("--api-key", default="")
    parser.add_argument("--forcing", default="named", choices=("named", "json_schema"),
                        help="how stage calls are forced: named (the embedded runtime), "
                             "json_schema (llama-server, which ignores a named tool_choice)")
    parser.add_argument("--out", help="append each row to this JSONL file")
    sys.exit(asyncio.run(main(parser.parse_args())))
