"""The fault matrix as a table: per fault, how many cells ran, ended with a summary, crashed,
and how long the person waited for the summary.

It runs the cells of ``tests/faults`` (every fault at every stage of both engines, through
the real ``openai`` client against the local fault server), then the extra cells.

Run: .venv/bin/python bench/fault_matrix.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench.isolation  # noqa: E402,F401  (its own app home, never the person's)

from tests.faults.cells import CellResult, matrix, run_cell  # noqa: E402
from tests.faults.extras import EXTRAS  # noqa: E402

Row = tuple[str, int, int, int, str, str]


def run_all(root: Path) -> tuple[list[CellResult], list[CellResult]]:
    cells = matrix()
    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(lambda cell: run_cell(cell, root / cell.name), cells))
    extras = [scenario(root / "extra" / name) for name, scenario in EXTRAS.items()]
    return results, extras


def rows(results: list[CellResult], key: str) -> list[Row]:
    groups: dict[str, list[CellResult]] = defaultdict(list)
    for result in results:
        groups[getattr(result.cell, key)].append(result)
    table: list[Row] = []
    for name, group in groups.items():
        waits = [r.to_summary_s for r in group if r.to_summary_s is not None]
        average = f"{sum(waits) / len(waits):.2f}" if waits else "-"
        longest = f"{max(waits):.2f}" if waits else "-"
        table.append((name, len(group), sum(r.summarised for r in group),
                      sum(bool(r.crash) for r in group), average, longest))
    return table


def render(title: str, table: list[Row]) -> str:
    header = ("fault", "cells", "with summary", "crashes", "avg s to summary", "max s")
    widths = [max(len(str(row[i])) for row in [header, *table]) for i in range(len(header))]
    line = "  ".join("-" * w for w in widths)
    out = [title, "  ".join(h.ljust(w) for h, w in zip(header, widths)), line]
    for row in table:
        out.append("  ".join(str(v).rjust(w) if i else str(v).ljust(w)
                             for i, (v, w) in enumerate(zip(row, widths))))
    totals = (sum(r[1] for r in table), sum(r[2] for r in table), sum(r[3] for r in table))
    out += [line, "  ".join(str(v).rjust(w) if i else str(v).ljust(w) for i, (v, w) in
                            enumerate(zip(("total", *totals, "", ""), widths)))]
    return "\n".join(out)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        os.environ["PHASEDESK_HOME"] = str(Path(folder) / "home")
        started = time.monotonic()
        results, extras = run_all(Path(folder))
        elapsed = time.monotonic() - started
    print(render("Fault × stage × engine (real openai client, local fault server; "
                 "timeout 1 s, 1 SDK retry, Retry-After 1 s)", rows(results, "fault")))
    print()
    print(render("Extra cells (phase and classic engine)", rows(extras, "fault")))
    problems = [r for r in results + extras if r.crash or not r.summarised]
    print(f"\n{len(results) + len(extras)} runs in {elapsed:.1f} s; "
          f"{len(problems)} without exactly one summary and run_finished")
    for result in problems:
        print(f"  {result.cell.name}: {result.crash or result.kinds[-3:]}")


if __name__ == "__main__":
    main()
