from core.shapes.phase import Phase
from core.shapes.task import IllegalTransition, Task

__all__ = ["Phase", "Task", "IllegalTransition"]
