"""A toy bank account."""


class Account:
    def __init__(self, owner):
        self.owner = owner
        self.balance = 0

    def deposit(self, amount):
        if amount == 0:
            raise ValueError("empty deposit")
        self.balance += amount

    def withdraw(self, amount):
        if amount < 0:
            raise ValueError("negative amount")
        if amount > self.balance:
            raise ValueError("insufficient funds")
        self.balance -= amount
