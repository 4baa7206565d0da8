"""Plain text as the town reads numbers and names it is sent (clockford/plain.py)."""

from clockford import plain


def test_digits_are_ascii_digits_only() -> None:
    assert plain.digits("0123456789")
    # Each of these is a digit to str.isdigit, and none is one to a person typing a number.
    for other in ("²", "١٢", "１２", "৩", "1²", ""):
        assert not plain.digits(other), other
    assert not plain.digits("12 ") and not plain.digits("-1") and not plain.digits("+1")


def test_digits_counts_at_most() -> None:
    assert plain.digits("9" * plain.ID_DIGITS, plain.ID_DIGITS)
    assert not plain.digits("9" * (plain.ID_DIGITS + 1), plain.ID_DIGITS)
    # Eighteen nines fit a signed 64-bit id; the cap is there so no longer number reaches a query.
    assert int("9" * plain.ID_DIGITS) < 2**63


def test_printable_is_printable_ascii() -> None:
    assert plain.printable("https://push.example/abc?x=1~")
    assert plain.printable("")
    for other in ("é", "\ud800", "a\nb", "a\tb", "\x7f", "ａ"):
        assert not plain.printable(other), repr(other)
