"""Every key and plain value of a JSON document, walked with a list rather than by recursion: however
deep the document, the walk neither overflows the stack nor costs more than one look at each part."""

from collections.abc import Iterator
from typing import Any


def leaves(document: Any) -> Iterator[Any]:
    """Each key of every object, and each value that is neither an object nor an array."""
    waiting: list[Any] = [document]
    while waiting:
        value = waiting.pop()
        if isinstance(value, dict):
            waiting.extend(value.keys())
            waiting.extend(value.values())
        elif isinstance(value, list):
            waiting.extend(value)
        else:
            yield value
