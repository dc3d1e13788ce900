from invoice import invoice_total
from quote import quote_line

if __name__ == "__main__":
    print(invoice_total(100))
    print(quote_line("desk", 200))
