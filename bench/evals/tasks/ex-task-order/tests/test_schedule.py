import pytest

from schedule import CycleError, order_tasks


def test_empty():
    assert order_tasks({}) == []


def test_chain():
    assert order_tasks({"deploy": ["test"], "test": ["build"], "build": []}) == [
        "build", "test", "deploy"]


def test_alphabetical_when_free():
    assert order_tasks({"b": [], "a": [], "c": ["a"]}) == ["a", "b", "c"]


def test_diamond():
    deps = {"app": ["lib", "ui"], "lib": ["core"], "ui": ["core"], "core": []}
    assert order_tasks(deps) == ["core", "lib", "ui", "app"]


def test_tasks_only_named_as_dependencies():
    assert order_tasks({"z": ["y", "x"]}) == ["x", "y", "z"]


def test_a_task_becomes_ready_in_alphabetical_turn():
    deps = {"m": ["a"], "b": [], "a": [], "c": []}
    assert order_tasks(deps) == ["a", "b", "c", "m"]


def test_repeated_dependency_is_fine():
    assert order_tasks({"b": ["a", "a"]}) == ["a", "b"]


def test_every_task_comes_after_its_dependencies():
    deps = {"t%d" % i: ["t%d" % j for j in range(i) if (i * j) % 3 == 1] for i in range(12)}
    order = order_tasks(deps)
    assert sorted(order) == sorted(deps)
    for task, needs in deps.items():
        assert all(order.index(need) < order.index(task) for need in needs)


def test_cycle_raises_and_names_the_stuck_tasks():
    with pytest.raises(CycleError) as raised:
        order_tasks({"a": ["b"], "b": ["a"], "c": ["a"], "d": []})
    assert "a, b, c" in str(raised.value)
    assert ", d" not in str(raised.value) and "d," not in str(raised.value)


def test_self_dependency_is_a_cycle():
    with pytest.raises(CycleError) as raised:
        order_tasks({"x": ["x"]})
    assert "x" in str(raised.value)


def test_cycle_error_is_a_value_error():
    with pytest.raises(ValueError):
        order_tasks({"p": ["q"], "q": ["r"], "r": ["p"]})
