"""A key or a value that looks like a secret is refused, and nothing is stored (000 section 07)."""

import json

import pytest

from clockford.town.models import Passport
from districts.post_office.models import Note
from districts.testing import outcome, visit

# Made up from the shape of a GitHub token; not a real one.
TOKEN = "ghp_" + "Zq8WfK2mX7pR4tL9vB3nH6cJ1yD5gS0aE8uQ"
SAY = "That looks like a GitHub token. Nothing was kept; if it is real, tell the human who runs you so they can revoke it."


def test_it_refuses_a_secret_in_the_value(alice: Passport) -> None:
    r = visit(alice, "remember", key="deploy", value=f"the deploy token is {TOKEN}")
    assert r.is_error is True
    assert r.structured["say"] == SAY
    assert r.structured["words"]["field"] == "value"
    assert r.structured["words"]["kind"] == "a GitHub token"
    assert TOKEN not in json.dumps(r.structured) and TOKEN not in r.text
    assert Note.objects.count() == 0
    assert outcome(r) == "refused:secret"


def test_it_refuses_a_secret_as_the_key(alice: Passport) -> None:
    r = visit(alice, "remember", key=TOKEN, value="harmless")
    assert r.is_error is True
    assert r.structured["say"] == SAY
    assert r.structured["words"]["field"] == "key"
    assert Note.objects.count() == 0
    assert outcome(r) == "refused:secret"


@pytest.mark.parametrize(
    "hidden",
    [
        "\u200b".join(TOKEN),  # zero-width spaces between every character
        "".join(chr(ord(c) + 0xFEE0) for c in TOKEN),  # fullwidth letters
        TOKEN[:10] + "\u2060" + TOKEN[10:20] + "\u00ad" + TOKEN[20:],  # word joiner, soft hyphen
    ],
)
def test_it_refuses_a_hidden_secret(alice: Passport, hidden: str) -> None:
    r = visit(alice, "remember", key="k", value=hidden)
    assert r.is_error is True and r.structured["say"] == SAY
    assert Note.objects.count() == 0


def test_a_refused_overwrite_leaves_the_old_note(alice: Passport) -> None:
    visit(alice, "remember", key="k", value="the old words")
    r = visit(alice, "remember", key="k", value=TOKEN)
    assert r.is_error is True
    assert Note.objects.get(box=alice.id, key="k").value == "the old words"


def test_ordinary_words_about_secrets_are_kept(alice: Passport) -> None:
    for value in ["token limit is 4000", "password: use the hall", "sha256:" + "ab" * 32]:
        assert visit(alice, "remember", key="k", value=value).is_error is False
