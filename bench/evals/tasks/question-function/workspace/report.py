from bank import Account


def monthly_report(account: Account) -> str:
    return f"{account.owner}: {account.balance}"
