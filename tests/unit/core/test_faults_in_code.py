"""What will fail when a Python file runs, read from its code: a method an instance
attribute hides, a name nothing defines."""

from __future__ import annotations

from core.tools.code_checks import faults, hidden_methods, new_faults, write_facts

HIDDEN = ("class Inventory:\n    def __init__(self):\n        self.items = {}\n\n"
          "    def items(self):\n        return sorted(self.items.items())\n")


def test_an_attribute_set_to_a_plain_value_hides_the_method_of_its_name() -> None:
    assert hidden_methods(HIDDEN, "inventory.py") == [
        "line 3: self.items = {} hides the method Inventory.items() of line 5"]
    counter = ("from collections import Counter\n\nclass Words:\n"
               "    def __init__(this):\n        this.count: Counter = Counter()\n\n"
               "    def count(this, word):\n        return this.count[word]\n")
    assert hidden_methods(counter, "words.py") == [
        "line 5: this.count = Counter() hides the method Words.count() of line 7"]
    assert faults(HIDDEN, "inventory.py") == hidden_methods(HIDDEN, "inventory.py")
    assert write_facts("inventory.py", "", HIDDEN)[-1] == (
        "inventory.py: an attribute hides a method (line 3: self.items = {} hides the method "
        "Inventory.items() of line 5)")


def test_what_does_not_hide_a_method() -> None:
    assert hidden_methods(HIDDEN.replace("self.items = {}", "self._items = {}"), "a.py") == []
    # a callable put in the method's place, a property with a setter, another object's attribute
    assert hidden_methods("class A:\n    def __init__(self, f):\n        self.run = f\n\n"
                          "    def run(self):\n        pass\n", "a.py") == []
    assert hidden_methods("class A:\n    def __init__(self):\n        self.size = 0\n\n"
                          "    @property\n    def size(self):\n        return self._size\n\n"
                          "    @size.setter\n    def size(self, value):\n"
                          "        self._size = value\n", "a.py") == []
    assert hidden_methods("class A:\n    def copy(self, other):\n        other.copy = []\n",
                          "a.py") == []
    assert hidden_methods("def items(self):\n    self.items = {}\n", "a.py") == []
    assert hidden_methods("class A:\n    def f(self):\n", "a.py") == []  # does not parse


def test_faults_are_names_nothing_defines_then_hidden_methods_for_python_only() -> None:
    text = HIDDEN + "\n\ndef total(inventory):\n    return sum(count for _, count in stock)\n"
    assert faults(text, "inventory.py") == [
        "undefined name at line 10: stock",
        "line 3: self.items = {} hides the method Inventory.items() of line 5"]
    assert faults(text, "notes.md") == []


def test_a_fault_the_file_had_before_the_run_is_not_new() -> None:
    before = "def total(items):\n    return sum(stock)\n"
    after = "import math\n\n\ndef total(items):\n    return sum(stock)\n\n\n" \
            "def mean(items):\n    return total(items) / len(item)\n"
    assert new_faults(after, before, "calc.py") == ["undefined name at line 9: item"]
    assert new_faults(after, None, "calc.py") == ["undefined name at line 5: stock",
                                                  "undefined name at line 9: item"]
