"""Plain text, as the town reads a number or a name it is sent: ASCII only.

Python's own tests take more than a person means: str.isdigit takes other scripts' digits and
superscripts ("²", which int() refuses), str.isprintable takes any letter of any script. A number in a
header, a form or a path, and a handle or a push service's URL, are ASCII, and anything else names
nothing (and is never sent to a database that may not even hold it, such as a lone surrogate)."""

# Eighteen decimal digits always fit a database's 64-bit id; a longer number names no row.
ID_DIGITS = 18


def digits(text: str, most: int | None = None) -> bool:
    """ASCII digits only, at least one and at most `most` of them."""
    return text.isascii() and text.isdigit() and (most is None or len(text) <= most)


def size(text: str) -> int | None:
    """A size written in ASCII digits (a Content-Length), or None when the text is not one. HTTP writes
    it as 1*DIGIT, so a client may send it with any number of leading zeros, and int() refuses a text
    of more than 4,300 digits whatever its value: the zeros are set aside first, and a number of more
    than ID_DIGITS digits is read as 10**ID_DIGITS, more than anything the town takes."""
    if not digits(text):
        return None
    number = text.lstrip("0") or "0"
    return int(number) if len(number) <= ID_DIGITS else 10**ID_DIGITS


def printable(text: str) -> bool:
    """Printable ASCII only (the empty text too)."""
    return text.isascii() and text.isprintable()
