"""Quotes for customers."""


def quote_line(item, net):
    tax = round(net * 0.21, 2)
    return f"{item}: {net} + {tax} tax"
