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


def test_size_reads_a_content_length_however_many_zeros_lead_it() -> None:
    assert plain.size("0") == 0 and plain.size("123") == 123
    # int() alone refuses more than 4,300 digits, whatever their value.
    assert plain.size("0" * 5000 + "123") == 123
    assert plain.size("0" * 5000) == 0
    # Past eighteen digits, more than anything the town takes, without reading the whole number.
    assert plain.size("9" * 19) == 10**plain.ID_DIGITS
    assert plain.size("1" + "0" * 5000) == 10**plain.ID_DIGITS
    for other in ("", "-1", "+1", "1 ", "１２", "²", "1e3", "0x10"):
        assert plain.size(other) is None, other
