import copy

import pytest

from flatten import flatten, unflatten

NESTED = {"a": {"b": 1, "c": {"d": 2}}, "e": 3}
FLAT = {"a.b": 1, "a.c.d": 2, "e": 3}


def test_flatten_example():
    assert flatten(NESTED) == FLAT


def test_flatten_with_another_separator():
    assert flatten({"x": {"y": {"z": 0}}}, sep="/") == {"x/y/z": 0}


def test_lists_and_other_values_are_kept():
    assert flatten({"a": [1, {"b": 2}], "n": None, "s": {"t": (1, 2)}}) == {
        "a": [1, {"b": 2}], "n": None, "s.t": (1, 2)}


def test_empty_nested_dict_is_kept():
    assert flatten({"a": {}, "b": {"c": {}}}) == {"a": {}, "b.c": {}}
    assert flatten({}) == {}


def test_key_with_separator_raises():
    with pytest.raises(ValueError):
        flatten({"a.b": 1})
    with pytest.raises(ValueError):
        flatten({"a": {"b/c": 1}}, sep="/")


def test_dot_is_fine_with_another_separator():
    assert flatten({"a.b": {"c": 1}}, sep="/") == {"a.b/c": 1}


def test_unflatten_example():
    assert unflatten({"a.b": 1, "a.c": 2, "d": 3}) == {"a": {"b": 1, "c": 2}, "d": 3}


def test_unflatten_with_another_separator():
    assert unflatten({"x/y": 1, "x/z/w": 2}, sep="/") == {"x": {"y": 1, "z": {"w": 2}}}


def test_round_trip():
    assert unflatten(flatten(NESTED)) == NESTED


@pytest.mark.parametrize("data", [{"a": 1, "a.b": 2}, {"a.b": 2, "a": 1},
                                  {"a.b": 1, "a.b.c": 2}])
def test_conflicting_keys_raise(data):
    with pytest.raises(ValueError):
        unflatten(data)


def test_inputs_are_not_changed():
    nested, flat = copy.deepcopy(NESTED), copy.deepcopy(FLAT)
    flatten(nested)
    unflatten(flat)
    assert nested == NESTED and flat == FLAT
