import pytest

from events import EventBus, PublishError


def test_publish_calls_handlers_in_order_with_arguments():
    bus = EventBus()
    seen = []
    bus.subscribe("saved", lambda name, size=0: seen.append(("first", name, size)) or 1)
    bus.subscribe("saved", lambda name, size=0: seen.append(("second", name, size)) or 2)
    assert bus.publish("saved", "a.txt", size=10) == [1, 2]
    assert seen == [("first", "a.txt", 10), ("second", "a.txt", 10)]


def test_publish_without_handlers():
    assert EventBus().publish("nothing") == []


def test_events_are_separate():
    bus = EventBus()
    bus.subscribe("a", lambda: "a")
    bus.subscribe("b", lambda: "b")
    assert bus.publish("a") == ["a"] and bus.count("a") == 1 and bus.count("c") == 0


def test_ids_count_up_across_events():
    bus = EventBus()
    assert [bus.subscribe(e, print) for e in ("x", "y", "x")] == [1, 2, 3]


def test_each_bus_has_its_own_ids():
    EventBus().subscribe("x", print)
    assert EventBus().subscribe("x", print) == 1


def test_unsubscribe():
    bus = EventBus()
    first = bus.subscribe("e", lambda: 1)
    bus.subscribe("e", lambda: 2)
    assert bus.unsubscribe(first) is True
    assert bus.publish("e") == [2]
    assert bus.unsubscribe(first) is False
    assert bus.unsubscribe(99) is False
    assert bus.count("e") == 1


def test_ids_are_not_reused():
    bus = EventBus()
    bus.unsubscribe(bus.subscribe("e", print))
    assert bus.subscribe("e", print) == 2


def test_same_handler_twice_is_called_twice():
    bus = EventBus()
    calls = []

    def handler():
        calls.append(1)
        return len(calls)

    bus.subscribe("tick", handler)
    bus.subscribe("tick", handler)
    assert bus.publish("tick") == [1, 2] and bus.count("tick") == 2


def test_failing_handler_does_not_stop_the_others():
    bus = EventBus()
    ran = []

    def broken():
        raise KeyError("k")

    def also_broken():
        raise RuntimeError("r")

    bus.subscribe("go", broken)
    bus.subscribe("go", lambda: ran.append("after"))
    bus.subscribe("go", also_broken)
    with pytest.raises(PublishError) as raised:
        bus.publish("go")
    assert ran == ["after"]
    assert [type(e) for e in raised.value.errors] == [KeyError, RuntimeError]


def test_handler_must_be_callable():
    with pytest.raises(TypeError):
        EventBus().subscribe("e", "not callable")
