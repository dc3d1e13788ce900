"""Amounts of money in whole cents, with a currency."""

import re

AMOUNT = re.compile(r"(-?)([0-9]+)(?:\.([0-9]{2}))? ([A-Z]{3})")


class Money:
    """An amount in cents and a three-letter currency code."""

    def __init__(self, cents, currency):
        if isinstance(cents, bool) or not isinstance(cents, int):
            raise ValueError("cents must be an int")
        if not isinstance(currency, str) or not re.fullmatch(r"[A-Z]{3}", currency):
            raise ValueError(f"not a currency code: {currency!r}")
        self.cents = cents
        self.currency = currency

    @classmethod
    def parse(cls, text):
        match = AMOUNT.fullmatch(text)
        if match is None:
            raise ValueError(f"not an amount: {text!r}")
        sign, whole, fraction, currency = match.groups()
        cents = int(whole) * 100 + int(fraction or 0)
        return cls(-cents if sign else cents, currency)

    def __str__(self):
        sign = "-" if self.cents < 0 else ""
        whole, cents = divmod(abs(self.cents), 100)
        return f"{sign}{whole}.{cents:02d} {self.currency}"

    def __eq__(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        return (self.cents, self.currency) == (other.cents, other.currency)

    def _same(self, other):
        if not isinstance(other, Money):
            raise TypeError("can only combine Money with Money")
        if other.currency != self.currency:
            raise ValueError(f"cannot combine {self.currency} with {other.currency}")

    def __add__(self, other):
        self._same(other)
        return Money(self.cents + other.cents, self.currency)

    def __sub__(self, other):
        self._same(other)
        return Money(self.cents - other.cents, self.currency)

    def split(self, parts):
        if parts < 1:
            raise ValueError("parts must be at least 1")
        base, extra = divmod(self.cents, parts)
        return [Money(base + (1 if i < extra else 0), self.currency) for i in range(parts)]
