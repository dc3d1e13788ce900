"""A fault the engine reads from the code (a method an attribute hides, a name nothing
defines) is evidence like a failing check, with the scripted model: the draft gets its one
repair, a repair without the fault replaces it, and a fault left in the final file makes the
run partial, says so, and holds the summary's claims to it — in both engines."""

from __future__ import annotations

from pathlib import Path

from tests.support.script import analysis, authored, files_workspace, of, run, summary

STUB = "class Inventory:\n    pass\n"
ASK = ("Implement the class Inventory in inventory.py: add(item, quantity=1) adds stock, "
       "items() returns a list of (item, count) tuples sorted by item name.")
HIDDEN = ("class Inventory:\n    def __init__(self):\n        self.items = {}\n\n"
          "    def add(self, item, quantity=1):\n"
          "        self.items[item] = self.items.get(item, 0) + quantity\n\n"
          "    def items(self):\n        return sorted(self.items.items())\n")
FIXED = ("class Inventory:\n    def __init__(self):\n        self._stock = {}\n\n"
         "    def add(self, item, quantity=1):\n"
         "        self._stock[item] = self._stock.get(item, 0) + quantity\n\n"
         "    def items(self):\n        return sorted(self._stock.items())\n")


def test_a_draft_whose_attribute_hides_a_method_is_repaired(tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"inventory.py": STUB})
    events, model = run([
        analysis("Implement Inventory"),
        authored(HIDDEN, "inventory.py"),
        authored(FIXED, "inventory.py", before="Fixed:"),
        summary("Inventory is implemented."),
    ], ws, request=ASK)
    assert (ws / "inventory.py").read_text() == FIXED
    repair = model.requests[2]["messages"][1]["content"]
    assert "self.items = {} hides the method Inventory.items() of line 8" in repair
    assert [c.stage for c in of(events, "llm_call")] == ["request_analyser", "author", "author",
                                                         "summarizer"]
    final = of(events, "summary")[0]
    assert (final.verification, final.verification_line) == ("unverified", "not verified")
    assert of(events, "run_finished")[0].outcome == "succeeded"


def test_a_fault_left_in_the_final_file_makes_the_run_partial_and_says_so(
        tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"inventory.py": STUB})
    events, _ = run([
        analysis("Implement Inventory"),
        authored(HIDDEN, "inventory.py"),
        authored(HIDDEN.replace("quantity=1", "quantity=2"), "inventory.py"),
        authored(HIDDEN.replace("quantity=1", "quantity=3"), "inventory.py"),
        summary("Inventory is implemented and works as expected."),
    ], ws, request=ASK)
    assert (ws / "inventory.py").read_text() == HIDDEN  # the repair did no better
    # the repair still had the fault: it was asked to fix it once, like a name nothing defines
    assert [c.stage for c in of(events, "llm_call")] == ["request_analyser", "author", "author",
                                                         "author", "summarizer"]
    final = of(events, "summary")[0]
    assert (final.verification, final.verification_line) == ("failing", "1 fault in the code")
    assert "self.items = {} hides the method Inventory.items()" in " ".join(
        final.verification_sentences)
    assert "works as expected" not in final.final_summary
    assert "On the final files, 1 fault in the code." in final.final_summary
    assert of(events, "run_finished")[0].outcome == "partial"


def test_the_classic_loop_is_held_to_a_fault_in_its_final_file(tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"inventory.py": STUB})
    events, _ = run([
        {"tool_calls": [{"tool": "write_file", "arguments": {
            "path": "inventory.py", "instruction": "Implement Inventory"}}]},
        authored(HIDDEN, "inventory.py"),
        authored(HIDDEN, "inventory.py"),
        {"text": "Implemented Inventory in inventory.py."},
    ], ws, request=ASK, use_phase_task=False)
    assert (ws / "inventory.py").read_text() == HIDDEN
    finished = of(events, "run_finished")[0]
    assert (finished.outcome, finished.verification) == ("partial", "failing")
    assert finished.verification_line == "1 fault in the code"


def test_a_fault_the_persons_file_already_had_is_not_the_runs(tmp_path: Path) -> None:
    stub = STUB + "\n\ndef report(inventory):\n    return stock_report(inventory)\n"
    ws = files_workspace(tmp_path, {"inventory.py": stub})
    done = FIXED + "\n\ndef report(inventory):\n    return stock_report(inventory)\n"
    events, model = run([
        analysis("Implement Inventory"),
        authored(done, "inventory.py"),
        summary("Inventory is implemented."),
    ], ws, request=ASK)
    assert (ws / "inventory.py").read_text() == done
    assert [c.stage for c in of(events, "llm_call")] == ["request_analyser", "author",
                                                         "summarizer"]  # no repair asked
    finished = of(events, "run_finished")[0]
    assert (finished.outcome, finished.verification) == ("succeeded", "unverified")
