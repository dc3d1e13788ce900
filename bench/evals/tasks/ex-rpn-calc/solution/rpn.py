"""Reverse Polish notation arithmetic."""

import operator
import re

OPERATORS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}
INTEGER = re.compile(r"-?[0-9]+")
DECIMAL = re.compile(r"-?[0-9]+\.[0-9]+")


def evaluate(expression):
    """The value of the RPN ``expression``."""
    stack = []
    for token in expression.split():
        if token in OPERATORS:
            if len(stack) < 2:
                raise ValueError(f"{token!r} needs two values before it")
            right = stack.pop()
            left = stack.pop()
            stack.append(OPERATORS[token](left, right))
        elif INTEGER.fullmatch(token):
            stack.append(int(token))
        elif DECIMAL.fullmatch(token):
            stack.append(float(token))
        else:
            raise ValueError(f"unknown token {token!r}")
    if len(stack) != 1:
        raise ValueError("the expression must leave exactly one value")
    return stack[0]
