from core.models.phase import Phase
from core.models.task import IllegalTransition, Task

__all__ = ["Phase", "Task", "IllegalTransition"]
