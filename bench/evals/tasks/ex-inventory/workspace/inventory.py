"""A stock of items with counts."""


class Inventory:
    """How many of each item are in stock."""

    def __init__(self):
        raise NotImplementedError

    def add(self, item, quantity=1):
        raise NotImplementedError

    def remove(self, item, quantity=1):
        raise NotImplementedError

    def count(self, item):
        raise NotImplementedError

    def items(self):
        raise NotImplementedError

    def total(self):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError
