"""Hiding most of a card number or an e-mail address."""


def mask_card(number):
    """``number`` with every digit but the last four replaced by "*"."""
    if any(not (c.isdigit() and c.isascii()) and c not in " -" for c in number):
        raise ValueError("a card number holds only digits, spaces and dashes")
    digits = sum(c.isdigit() for c in number)
    if not 12 <= digits <= 19:
        raise ValueError(f"a card number has 12 to 19 digits, not {digits}")
    hidden = digits - 4
    out = []
    for c in number:
        if c.isdigit() and hidden > 0:
            out.append("*")
            hidden -= 1
        else:
            out.append(c)
    return "".join(out)


def mask_email(address):
    """``address`` with the middle of its local part replaced by "*"."""
    if address.count("@") != 1:
        raise ValueError("an address has exactly one @")
    local, domain = address.split("@")
    if not local or not domain:
        raise ValueError("an address needs text before and after the @")
    if len(local) <= 2:
        return "*" * len(local) + "@" + domain
    return local[0] + "*" * (len(local) - 2) + local[-1] + "@" + domain
