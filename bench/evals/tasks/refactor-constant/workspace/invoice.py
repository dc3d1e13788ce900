"""Invoices."""


def invoice_total(net):
    """The gross amount of an invoice."""
    return round(net * (1 + 0.21), 2)
