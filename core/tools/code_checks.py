"""Facts about a file's new content the engine can check without a model.

A Python file still parses (else: the error and its line), uses no name that nothing
defines (pyflakes), sets no instance attribute to a plain value under the name of one of its
class's methods (the method is then gone from every instance: ``self.items = {}`` beside
``def items(self)``), the functions and classes it defined before are still defined, and it
was not replaced by much less content. The writing
tools refuse Python that does not parse (unless it did not parse before either); the facts
go to the judge and to the next authoring call of the file.
"""

from __future__ import annotations

import ast
import re
import warnings

SHRINK_RATIO = 0.5
SHRINK_LEAST = 40  # characters: a tiny file may shrink freely
PYTHON_SUFFIXES = (".py", ".pyw", ".pyi")


def is_python(path: str) -> bool:
    return path.lower().endswith(PYTHON_SUFFIXES)


def syntax_error(text: str, path: str) -> str:
    """Why ``text`` is not valid Python ("" when it parses), with the line it fails on."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning for odd escapes is not an error
            ast.parse(text, filename=path)
    except SyntaxError as exc:
        line = (exc.text or "").rstrip("\n").strip()
        where = f"line {exc.lineno}" + (f": {line[:120]}" if line else "")
        return f"{exc.msg} ({where})"
    except (ValueError, RecursionError) as exc:  # null bytes, absurd nesting
        return str(exc)
    return ""


def parse_refusal(path: str, old: str | None, new: str) -> str:
    """Why a write of ``new`` to the Python file ``path`` must not happen ("" when it may): its
    content does not parse while the file it replaces did (or is new)."""
    if not is_python(path):
        return ""
    problem = syntax_error(new, path)
    if not problem or (old is not None and syntax_error(old, path)):
        return ""
    return (f"the new content of {path} is not valid Python: {problem}; nothing was written")


def parsed(text: str, path: str) -> ast.Module | None:
    """``text`` parsed as Python, or None when it does not parse."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text, filename=path)
    except (SyntaxError, ValueError, RecursionError):
        return None


def undefined(text: str, path: str) -> list[tuple[int, str]]:
    """The names the code uses that nothing defines, with their lines, in line order
    (pyflakes; empty when the text does not parse or has none)."""
    from pyflakes import checker, messages

    tree = parsed(text, path)
    if tree is None:
        return []
    found = checker.Checker(tree, filename=path).messages
    wanted = (messages.UndefinedName, messages.UndefinedLocal)
    return [(m.lineno, m.message_args[0]) for m in
            sorted(found, key=lambda m: m.lineno) if isinstance(m, wanted)]


def undefined_names(text: str, path: str) -> list[str]:
    """``undefined`` as "line N: name"."""
    return [f"line {line}: {name}" for line, name in undefined(text, path)]


PLAIN_CALLS = frozenset({"dict", "list", "set", "tuple", "frozenset", "int", "float", "str",
                         "bool", "bytes", "bytearray", "defaultdict", "OrderedDict", "Counter",
                         "deque"})
PLAIN_VALUES = (ast.Constant, ast.Dict, ast.List, ast.Set, ast.Tuple, ast.DictComp,
                ast.ListComp, ast.SetComp, ast.JoinedStr)


def hidden_methods(text: str, path: str) -> list[str]:
    """Methods an instance attribute of the same name hides, one line each ("line 7:
    self.items = {} hides the method Inventory.items() of line 33"): a method of the class
    (no decorator) that one of its methods sets on the instance to a plain value (a literal,
    a display, a comprehension, a call of ``dict``, ``list`` and the like); empty when the
    text does not parse."""
    tree = parsed(text, path)
    if tree is None:
        return []
    found: list[tuple[int, str]] = []
    for cls in (node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)):
        functions = [item for item in cls.body
                     if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))]
        methods = {item.name: item.lineno for item in functions if not item.decorator_list}
        for function in functions:
            if not function.args.args:
                continue
            me = function.args.args[0].arg
            for node in ast.walk(function):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
                    if isinstance(node, ast.AnnAssign) and node.value is not None else []
                for target in targets:
                    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                            and target.value.id == me and target.attr in methods \
                            and _plain(node.value):
                        found.append((node.lineno, f"line {node.lineno}: {me}.{target.attr} = "
                                      f"{ast.unparse(node.value)[:40]} hides the method "
                                      f"{cls.name}.{target.attr}() of line "
                                      f"{methods[target.attr]}"))
    return [line for _, line in sorted(set(found))]


def _plain(value: ast.expr | None) -> bool:
    if isinstance(value, PLAIN_VALUES):
        return True
    return isinstance(value, ast.Call) and (
        isinstance(value.func, ast.Name) and value.func.id in PLAIN_CALLS
        or isinstance(value.func, ast.Attribute) and value.func.attr in PLAIN_CALLS)


def faults(text: str, path: str) -> list[str]:
    """What will fail when the Python file ``text`` runs, found without running it: names
    nothing defines and methods an attribute hides, one line each (empty for other files
    and for text that does not parse)."""
    if not is_python(path):
        return []
    return ([f"undefined name at {where}" for where in undefined_names(text, path)]
            + hidden_methods(text, path))[:8]


def new_faults(text: str, original: str | None, path: str) -> list[str]:
    """``faults`` of ``text`` that ``original`` (the file before the run; None: it did not
    exist) did not have, whatever their lines: a fault the person's file already had is not
    the run's."""
    before = {re.sub(r"line \d+", "line", fault)
              for fault in (faults(original, path) if original else [])}
    return [fault for fault in faults(text, path)
            if re.sub(r"line \d+", "line", fault) not in before]


def problems(path: str, old: str | None, new: str) -> list[str]:
    """What makes ``new`` a broken Python file: it does not parse (when the file it replaces
    did), or ``faults`` finds something; empty for other files."""
    if not is_python(path):
        return []
    refusal = parse_refusal(path, old, new)
    if refusal:
        return [refusal]
    return faults(new, path)


def definitions(text: str, path: str) -> set[str]:
    """Top-level functions and classes, and methods as ``Class.method`` (empty when the text
    does not parse)."""
    tree = parsed(text, path)
    if tree is None:
        return set()
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names.add(node.name)
            names.update(f"{node.name}.{item.name}" for item in node.body
                         if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)))
    return names


def signatures(text: str, path: str) -> list[str]:
    """The file's top-level functions and classes as a reader calls them, one line each
    (``def f(a, b=1)``, ``class Money`` with its methods indented; a ``@classmethod`` or
    ``@staticmethod`` marked); empty when the text does not parse."""
    tree = parsed(text, path)
    if tree is None:
        return []
    lines: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines.append(_signature(node))
        elif isinstance(node, ast.ClassDef):
            lines.append(f"class {node.name}")
            lines += ["    " + _signature(item) for item in node.body
                      if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return lines


def _signature(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    marks = [f"@{d.id} " for d in node.decorator_list
             if isinstance(d, ast.Name) and d.id in ("classmethod", "staticmethod", "property")]
    return f"{''.join(marks)}def {node.name}({ast.unparse(node.args)})"


def write_facts(path: str, old: str | None, new: str | None,
                renamed: frozenset[str] = frozenset()) -> list[str]:
    """What a write did to ``path`` that a reader should check, one line each (none when
    nothing is worth saying); ``renamed``: names the request renames, whose loss is asked
    for."""
    if new is None or old == new:
        return []
    facts: list[str] = []
    if is_python(path):
        problem = syntax_error(new, path)
        facts.append(f"{path} does not parse: {problem}" if problem else f"{path} parses")
        unknown = undefined_names(new, path) if not problem else []
        if unknown:
            facts.append(f"{path} uses names nothing defines ({'; '.join(unknown[:6])})")
        hidden = hidden_methods(new, path) if not problem else []
        if hidden:
            facts.append(f"{path}: an attribute hides a method ({'; '.join(hidden[:4])})")
        if old is not None and not problem:
            lost = sorted(definitions(old, path) - definitions(new, path) - renamed)
            if lost:
                facts.append(f"{path} no longer defines {', '.join(lost[:12])}"
                             + (f" (+{len(lost) - 12} more)" if len(lost) > 12 else ""))
    if old is not None and len(old) >= SHRINK_LEAST and len(new) < len(old) * SHRINK_RATIO:
        facts.append(f"WARNING: {path} was replaced by much less content ({len(old):,} → "
                     f"{len(new):,} characters); check that nothing it needed was lost")
    return facts
