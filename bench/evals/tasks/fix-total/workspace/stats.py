"""Small statistics helpers."""


def total(numbers):
    """The sum of all numbers in the list."""
    result = 0
    for i in range(len(numbers) - 1):
        result += numbers[i]
    return result


def mean(numbers):
    """The average of the numbers; 0 for an empty list."""
    if not numbers:
        return 0
    return total(numbers) / len(numbers)
