"""Dependency ordering for phases and tasks: cycle detection and topological levels."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence


def find_cycle(graph: Mapping[int, Sequence[int]]) -> list[int]:
    """One dependency cycle as a closed path ``[a, b, ..., a]``, or ``[]`` if there is none.

    ``graph`` maps a node to the nodes it depends on; edges to unknown nodes are ignored.
    """
    state: dict[int, int] = {}  # 1 = on the stack, 2 = done
    for start in graph:
        if state.get(start):
            continue
        stack: list[tuple[int, int]] = [(start, 0)]
        path: list[int] = []
        while stack:
            node, index = stack.pop()
            if index == 0:
                state[node] = 1
                path.append(node)
            deps = [d for d in graph.get(node, ()) if d in graph]
            if index < len(deps):
                stack.append((node, index + 1))
                nxt = deps[index]
                if state.get(nxt) == 1:
                    return path[path.index(nxt):] + [nxt]
                if not state.get(nxt):
                    stack.append((nxt, 0))
            else:
                state[node] = 2
                path.pop()
    return []


@dataclass
class Schedule:
    """Topological levels of runnable nodes, and the nodes refused before anything runs."""

    levels: list[list[int]] = field(default_factory=list)
    refused: dict[int, str] = field(default_factory=dict)


def schedule(graph: Mapping[int, Sequence[int]],
             priority: Mapping[int, int] | None = None) -> Schedule:
    """Order nodes into levels whose dependencies all sit in earlier levels.

    Nodes on a cycle, nodes with unknown dependencies, and nodes depending on refused
    nodes are refused with a reason. Within a level, higher priority comes first.
    """
    priority = priority or {}
    result = Schedule()
    for node, deps in graph.items():
        unknown = sorted({d for d in deps if d not in graph})
        if unknown:
            result.refused[node] = f"depends on unknown task id(s) {unknown}"
        elif node in deps:
            result.refused[node] = "depends on itself"
    remaining = {n: {d for d in deps if d in graph} for n, deps in graph.items()
                 if n not in result.refused}
    while True:
        cycle = find_cycle({n: sorted(d) for n, d in remaining.items()})
        if not cycle:
            break
        text = " → ".join(map(str, cycle))
        for node in set(cycle):
            result.refused[node] = f"dependency cycle {text}"
            remaining.pop(node, None)
    changed = True
    while changed:  # anything depending on a refused node is refused too
        changed = False
        for node, deps in list(remaining.items()):
            bad = sorted(d for d in deps if d in result.refused)
            if bad:
                result.refused[node] = f"depends on refused task(s) {bad}"
                remaining.pop(node)
                changed = True
    placed: set[int] = set()
    while remaining:
        level = [n for n, deps in remaining.items() if deps <= placed]
        level.sort(key=lambda n: (-priority.get(n, 0), n))
        result.levels.append(level)
        placed.update(level)
        for node in level:
            remaining.pop(node)
    return result


def order_phases(graph: Mapping[int, Sequence[int]], declared: Sequence[int]) -> list[int]:
    """Phase ids in dependency order, otherwise in declared order (the graph has no cycle)."""
    done: list[int] = []
    waiting = list(declared)
    while waiting:
        ready = next((p for p in waiting if all(d in done for d in graph.get(p, ()))), None)
        if ready is None:
            raise ValueError("phase dependencies contain a cycle or an unknown id")
        done.append(ready)
        waiting.remove(ready)
    return done
