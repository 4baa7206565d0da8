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


def printable(text: str) -> bool:
    """Printable ASCII only (the empty text too)."""
    return text.isascii() and text.isprintable()
