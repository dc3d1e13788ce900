import pytest

from masking import mask_card, mask_email


@pytest.mark.parametrize("number, masked", [
    ("4111 1111 1111 1234", "**** **** **** 1234"),
    ("5500-0000-0000-0004", "****-****-****-0004"),
    ("378282246310005", "***********0005"),
    ("1234567890123456789", "***************6789"),
    ("123456789012", "********9012"),
    ("12 34-5678 9012 3", "** **-**** *012 3"),
])
def test_mask_card(number, masked):
    assert mask_card(number) == masked


@pytest.mark.parametrize("number", ["12345678901", "12345678901234567890", "4111 1111 1111 12a4",
                                    "4111.1111.1111.1234", "", "    -   ", "4111_1111_1111_1234"])
def test_mask_card_rejects(number):
    with pytest.raises(ValueError):
        mask_card(number)


@pytest.mark.parametrize("address, masked", [
    ("john.smith@example.com", "j********h@example.com"),
    ("jo@x.org", "**@x.org"),
    ("j@x.org", "*@x.org"),
    ("abc@mail.example", "a*c@mail.example"),
    ("Anna-Lena@EXAMPLE.COM", "A*******a@EXAMPLE.COM"),
])
def test_mask_email(address, masked):
    assert mask_email(address) == masked


@pytest.mark.parametrize("address", ["no-at-sign", "two@@x.org", "a@b@c", "@x.org", "john@",
                                     ""])
def test_mask_email_rejects(address):
    with pytest.raises(ValueError):
        mask_email(address)
