"""A plan's sketch of the code is left out of the authoring call (the ``sketch_stripping``
assist).

A plan that puts code in a write's instruction wrote that code inside JSON under a grammar,
the form that costs a small model most, and the authoring call copies what it is shown
(naive sketches such as ``line.split(",")`` for a CSV parser). An instruction holding such a
sketch is replaced by a plain one: write the file so that it does what the request asks.
"""

from __future__ import annotations

import re

SKETCH = re.compile(r"^\s*(def \w+\(|class \w+\s*[(:]|return [\w.\[\]()]+\s*(?:[-+*/%<>=!]|$)|"
                    r"import [\w.]+\s*$|from \S+ import )", re.MULTILINE)


def without_sketch(path: str, instruction: str) -> str:
    """``instruction``, or a plain one when it holds a sketch of code."""
    if SKETCH.search(instruction):
        return (f"write {path} so that it does everything the request asks (the plan's "
                "sketch of the code is left out: work from the request)")
    return instruction
