"""A fault the engine reads from the code (a method an attribute hides, a name nothing
defines) is evidence like a failing check, with the scripted model: a draft that fails the
workspace's test because of it is replaced by a sampled candidate without it, a fault left in
the final file makes the run partial and the summary's facts say so — in both engines — and a
fault the person's file already had is not the run's."""

from __future__ import annotations

from pathlib import Path

from tests.support.script import (
    analysis, authored, files_workspace, of, reading, run, summary)

STUB = "class Inventory:\n    pass\n"
ASK = ("Implement the class Inventory in inventory.py: add(item, quantity=1) adds stock, "
       "items() returns a list of (item, count) tuples sorted by item name.")
HIDDEN = ("class Inventory:\n    def __init__(self):\n        self.items = {}\n\n"
          "    def add(self, item, quantity=1):\n"
          "        self.items[item] = self.items.get(item, 0) + quantity\n\n"
          "    def items(self):\n        return sorted(self.items.items())\n")
CHANGE = reading("change", change=("inventory.py",))
TEST = ("from inventory import Inventory\n\n\ndef test_items_are_sorted_counts():\n"
        "    stock = Inventory()\n    stock.add('b')\n    stock.add('a', 2)\n"
        "    stock.add('b')\n    assert stock.items() == [('a', 2), ('b', 2)]\n")
FIXED = ("class Inventory:\n    def __init__(self):\n        self._stock = {}\n\n"
         "    def add(self, item, quantity=1):\n"
         "        self._stock[item] = self._stock.get(item, 0) + quantity\n\n"
         "    def items(self):\n        return sorted(self._stock.items())\n")


def test_a_draft_whose_attribute_hides_a_method_gives_way_to_a_candidate(tmp_path: Path
                                                                         ) -> None:
    ws = files_workspace(tmp_path, {"inventory.py": STUB, "test_inventory.py": TEST})
    events, model = run([
        analysis("Implement Inventory", **CHANGE),
        authored(HIDDEN, "inventory.py"),  # the draft: items() is hidden, the test fails
        authored(FIXED, "inventory.py"),  # the one candidate sampled of the same prompt
        summary("Inventory is implemented."),
    ], ws, request=ASK, candidates=1)
    assert (ws / "inventory.py").read_text() == FIXED
    draft, candidate = model.requests[1], model.requests[2]
    assert candidate["messages"] == draft["messages"] and candidate["temperature"] == 0.8
    assert [c.stage for c in of(events, "llm_call")] == ["request_analyser", "author", "author",
                                                         "summarizer"]
    (write,) = of(events, "task_finished")
    assert [(c["source"], c["kept"]) for c in write.candidates] == [("draft", False),
                                                                   ("candidate 1", True)]
    final = of(events, "summary")[0]
    assert (final.verification, final.verification_line) == ("verified", "1 test passes")
    assert of(events, "run_finished")[0].outcome == "succeeded"


def test_a_fault_left_in_the_final_file_makes_the_run_partial_and_says_so(
        tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"inventory.py": STUB})
    events, _ = run([
        analysis("Implement Inventory", **CHANGE),
        authored(HIDDEN, "inventory.py"),
        summary("Inventory is implemented and works as expected."),
    ], ws, request=ASK)
    assert (ws / "inventory.py").read_text() == HIDDEN
    # no test to weigh candidates by: the fault ends the draft's phase, decided by the engine
    assert [c.stage for c in of(events, "llm_call")] == ["request_analyser", "author",
                                                         "summarizer"]
    (judged,) = of(events, "judged")
    assert judged.by_engine and "1 fault in the code" in judged.user_summary
    final = of(events, "summary")[0]
    assert (final.verification, final.verification_line) == ("failing", "1 fault in the code")
    assert final.verification_sentences == [
        "On the final files, 1 fault in the code (read by the engine in inventory.py: line 3: "
        "self.items = {} hides the method Inventory.items() of line 8)."]
    assert final.final_summary == "Inventory is implemented and works as expected."
    assert final.requirements[0]["status"] == "failed"
    assert of(events, "run_finished")[0].outcome == "partial"


def test_the_classic_loop_is_held_to_a_fault_in_its_final_file(tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"inventory.py": STUB})
    events, _ = run([
        analysis("Implement Inventory", **CHANGE),
        {"tool_calls": [{"tool": "write_file", "arguments": {
            "path": "inventory.py", "instruction": "Implement Inventory"}}]},
        authored(HIDDEN, "inventory.py"),  # the draft: no repair call follows
        {"text": "Implemented Inventory in inventory.py."},
    ], ws, request=ASK, use_phase_task=False)
    assert (ws / "inventory.py").read_text() == HIDDEN
    assert [c.stage for c in of(events, "llm_call")] == ["request_analyser", "classic",
                                                         "author", "classic"]
    assert of(events, "summary")[0].final_summary == "Implemented Inventory in inventory.py."
    finished = of(events, "run_finished")[0]
    assert (finished.outcome, finished.verification) == ("partial", "failing")
    assert finished.verification_line == "1 fault in the code"


def test_a_fault_the_persons_file_already_had_is_not_the_runs(tmp_path: Path) -> None:
    stub = STUB + "\n\ndef report(inventory):\n    return stock_report(inventory)\n"
    ws = files_workspace(tmp_path, {"inventory.py": stub, "test_inventory.py": TEST})
    done = FIXED + "\n\ndef report(inventory):\n    return stock_report(inventory)\n"
    events, model = run([
        analysis("Implement Inventory", **CHANGE),
        authored(done, "inventory.py"),
        summary("Inventory is implemented."),
    ], ws, request=ASK)
    assert (ws / "inventory.py").read_text() == done
    assert [c.stage for c in of(events, "llm_call")] == ["request_analyser", "author",
                                                         "summarizer"]  # no repair asked
    finished = of(events, "run_finished")[0]
    assert (finished.outcome, finished.verification) == ("succeeded", "verified")
