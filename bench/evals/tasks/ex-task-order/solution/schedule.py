"""Ordering tasks so that each runs after the tasks it depends on."""

import heapq


class CycleError(ValueError):
    """The dependencies go round in a circle."""


def order_tasks(dependencies):
    """Every task, each after its dependencies."""
    waiting = {}
    users = {}
    for task, needs in dependencies.items():
        waiting.setdefault(task, set()).update(needs)
        for need in needs:
            waiting.setdefault(need, set())
            users.setdefault(need, []).append(task)
    ready = [task for task, needs in waiting.items() if not needs]
    heapq.heapify(ready)
    order = []
    while ready:
        task = heapq.heappop(ready)
        order.append(task)
        for user in users.get(task, []):
            waiting[user].discard(task)
            if not waiting[user] and user not in order and user not in ready:
                heapq.heappush(ready, user)
    if len(order) < len(waiting):
        stuck = sorted(set(waiting) - set(order))
        raise CycleError("cannot order: " + ", ".join(stuck))
    return order
