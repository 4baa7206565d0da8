"""A paper handed to the Foundry nested past any paper the town hands out: refused with the arguments
outside the schema (001 section 03). It reached the safety checks, which walk a call's arguments to
their end, ran them out of depth, and the town went read-only until a person looked."""

from typing import Any

import pytest
from pydantic import ValidationError

from clockford.town import desk
from clockford.town.models import Passport
from districts.foundry.tools import MAX_DEPTH
from districts.testing import visit


def nested(depth: int) -> dict[str, Any]:
    """An object `depth` levels deep: a dict around lists, around a number."""
    inside: Any = 1
    for _ in range(depth - 1):
        inside = [inside]
    return {"statement": inside}


def test_a_paper_nested_hundreds_deep_is_outside_the_schema_and_the_town_stays_open(alice: Passport) -> None:
    deep = nested(500)  # about a kilobyte of brackets
    for tool, arguments in (
        ("foundry", {"check": deep}),
        ("foundry_cast", {"slips": [deep]}),
        ("foundry_cast", {"runs": [deep]}),
    ):
        with pytest.raises(ValidationError, match=f"a paper nests at most {MAX_DEPTH} levels deep"):
            visit(alice, tool, **arguments)
    assert desk.town_mode() == "open"
    assert visit(alice, "remember", key="after", value="The town still takes writes.").is_error is False


def test_a_paper_as_deep_as_allowed_is_read(alice: Passport) -> None:
    r = visit(alice, "foundry", check=nested(MAX_DEPTH))
    assert r.structured["say"] == "That certificate's signature does not check, or this town did not sign it."
    with pytest.raises(ValidationError):
        visit(alice, "foundry", check=nested(MAX_DEPTH + 1))
