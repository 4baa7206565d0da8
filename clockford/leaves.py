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


def deeper_than(document: Any, levels: int) -> bool:
    """Whether objects and arrays nest more than `levels` deep in the document (a plain value is at no
    level; the outermost object is level 1). Walked with a list, like leaves."""
    waiting: list[tuple[Any, int]] = [(document, 0)]
    while waiting:
        value, level = waiting.pop()
        if isinstance(value, dict | list):
            if level == levels:
                return True
            waiting.extend((v, level + 1) for v in (value.values() if isinstance(value, dict) else value))
    return False
