"""Hiding most of a card number or an e-mail address."""


def mask_card(number):
    """``number`` with every digit but the last four replaced by "*"."""
    raise NotImplementedError


def mask_email(address):
    """``address`` with the middle of its local part replaced by "*"."""
    raise NotImplementedError
