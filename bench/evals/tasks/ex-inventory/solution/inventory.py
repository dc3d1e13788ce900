"""A stock of items with counts."""


def _check_quantity(quantity):
    if isinstance(quantity, bool) or not isinstance(quantity, int) or quantity < 1:
        raise ValueError(f"quantity must be a whole number above 0, not {quantity!r}")


class Inventory:
    """How many of each item are in stock."""

    def __init__(self):
        self._stock = {}

    def add(self, item, quantity=1):
        _check_quantity(quantity)
        self._stock[item] = self._stock.get(item, 0) + quantity

    def remove(self, item, quantity=1):
        _check_quantity(quantity)
        if item not in self._stock:
            raise KeyError(item)
        if quantity > self._stock[item]:
            raise ValueError(f"only {self._stock[item]} of {item!r} in stock")
        self._stock[item] -= quantity
        if self._stock[item] == 0:
            del self._stock[item]

    def count(self, item):
        return self._stock.get(item, 0)

    def items(self):
        return sorted(self._stock.items())

    def total(self):
        return sum(self._stock.values())

    def __len__(self):
        return len(self._stock)
