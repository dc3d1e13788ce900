import pytest

from inventory import Inventory


def test_starts_empty():
    stock = Inventory()
    assert len(stock) == 0 and stock.total() == 0 and stock.items() == []


def test_add_and_count():
    stock = Inventory()
    stock.add("apple", 3)
    stock.add("apple")
    stock.add("pear", 2)
    assert stock.count("apple") == 4 and stock.count("pear") == 2
    assert stock.count("plum") == 0


def test_items_sorted_by_name():
    stock = Inventory()
    for item in ("pear", "apple", "fig"):
        stock.add(item, 2)
    assert stock.items() == [("apple", 2), ("fig", 2), ("pear", 2)]


def test_total_and_len():
    stock = Inventory()
    stock.add("a", 5)
    stock.add("b", 1)
    assert stock.total() == 6 and len(stock) == 2


def test_remove():
    stock = Inventory()
    stock.add("bolt", 10)
    stock.remove("bolt", 4)
    stock.remove("bolt")
    assert stock.count("bolt") == 5


def test_item_at_zero_is_gone():
    stock = Inventory()
    stock.add("nut", 2)
    stock.add("bolt", 1)
    stock.remove("nut", 2)
    assert stock.items() == [("bolt", 1)] and len(stock) == 1 and stock.count("nut") == 0
    with pytest.raises(KeyError):
        stock.remove("nut")


def test_remove_unknown_item_raises_key_error():
    with pytest.raises(KeyError):
        Inventory().remove("ghost")


def test_remove_too_many_raises_and_keeps_the_stock():
    stock = Inventory()
    stock.add("cup", 3)
    with pytest.raises(ValueError):
        stock.remove("cup", 4)
    assert stock.count("cup") == 3


@pytest.mark.parametrize("quantity", [0, -1, 1.5, 2.0, "3", None])
def test_bad_quantities_raise_and_change_nothing(quantity):
    stock = Inventory()
    stock.add("cup", 3)
    with pytest.raises(ValueError):
        stock.add("cup", quantity)
    with pytest.raises(ValueError):
        stock.remove("cup", quantity)
    assert stock.items() == [("cup", 3)]


def test_inventories_are_separate():
    first, second = Inventory(), Inventory()
    first.add("x")
    assert second.count("x") == 0
