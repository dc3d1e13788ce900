"""Ordering tasks so that each runs after the tasks it depends on."""


class CycleError(ValueError):
    """The dependencies go round in a circle."""


def order_tasks(dependencies):
    """Every task, each after its dependencies."""
    raise NotImplementedError
