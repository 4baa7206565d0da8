"""A key outside letters, digits and . _ - / : is refused, and nothing is kept."""

import pytest

from clockford.town.models import Passport
from districts.post_office.models import Note
from districts.testing import outcome, visit

KEY_SAY = "A key may use only letters, digits and . _ - / : characters."


@pytest.mark.parametrize(
    "key",
    [
        "two words",
        "tab\there",
        "new\nline",
        "é",
        "ｋｅｙ",  # fullwidth letters: letters, but not the ones the rule names
        "key!",
        "key?",
        "a,b",
        "a;b",
        "a@b",
        "a#b",
        "a\\b",
        "~home",
        "a\u200bb",  # zero-width space
        "a\u202eb",  # bidi override
        "🦉",
    ],
)
def test_it_refuses_a_key_outside_the_charset(alice: Passport, key: str) -> None:
    r = visit(alice, "remember", key=key, value="kept?")
    assert r.is_error is True
    assert r.structured["say"] == KEY_SAY
    assert Note.objects.count() == 0
    assert outcome(r) == "refused:key"
