"""Names a check script takes from the module under check that nobody defined are dropped,
with the statements that use them."""

from __future__ import annotations

import ast

from core.engine.assists.check_reading import checks_in_reply
from core.engine.assists.check_reading import without_invented


def kept(script: str, known: set[str], module: str = "stats") -> str:
    body = without_invented(ast.parse(script).body, module, known)
    return ast.unparse(ast.Module(body=body, type_ignores=[]))


def test_imported_names_nobody_defined_leave_with_their_checks() -> None:
    script = ("from stats import mean, median as mid, mode\n"
              "assert mean([1, 3]) == 2\nassert mid([1, 2, 3]) == 2\n"
              "values = [mode([1])]\nassert values\n")
    assert kept(script, {"mean", "total"}) == (
        "from stats import mean\nassert mean([1, 3]) == 2\nassert values")


def test_attributes_of_the_imported_module_are_checked_the_same_way() -> None:
    script = "import stats as s\nassert s.mean([2]) == 2\nassert s.median([2]) == 2\n"
    assert kept(script, {"mean"}) == "import stats as s\nassert s.mean([2]) == 2"


def test_other_modules_and_a_script_without_module_are_left_alone() -> None:
    script = "from math import isclose\nfrom stats import mean\nassert isclose(mean([1]), 1)\n"
    assert kept(script, set()) == "from math import isclose"
    assert kept(script, set(), module="") == script.strip()


REPLY = ("```python\nfrom durations import parse_duration, format_duration, helper\n"
         "assert parse_duration('1h') == 3600\nassert format_duration(3600) == '1h'\n"
         "assert helper() == 1\n```")
WORDS = ("Implement parse_duration and format_duration: parse_duration('1h') is 3600, "
         "format_duration(3600) is '1h'.")


def test_a_name_the_file_lacks_is_dropped_even_when_the_request_says_it() -> None:
    assert checks_in_reply(REPLY, WORDS, "durations", {"parse_duration"}) == (
        "from durations import parse_duration\nassert parse_duration('1h') == 3600\n")


def test_once_the_file_defines_the_name_the_request_says_its_check_is_kept() -> None:
    assert checks_in_reply(REPLY, WORDS, "durations", {"parse_duration", "format_duration"}) == (
        "from durations import parse_duration, format_duration\n"
        "assert parse_duration('1h') == 3600\nassert format_duration(3600) == '1h'\n")
