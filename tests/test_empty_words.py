"""Words that say nothing (001 section 04, "Words: empty"): every required free-text argument of every
tool in the registry is tried with blank and invisible values (spaces, zero-width and bidi characters,
a lone combining mark, a Hangul filler, a tag character). Each is refused in the town's voice, with the
say its field declares (Words.empty) and a footstep, before any hold: nothing is kept, nothing waits
for a person. One rule decides what is empty for every field (clockford/town/kept.py, says_nothing)."""

from typing import Any

import pytest

from clockford.town import desk, kept
from clockford.town.models import Hold
from districts.courthouse.models import Dispute
from districts.post_office.models import Letter
from districts.registry import TOOLS
from districts.switchboard.models import Beacon, Event, Parcel
from districts.tavern.models import Notice
from districts.testing import new_passport, outcome
from tests.fixtures import agent

pytestmark = pytest.mark.django_db

BLANKS = [
    " ",
    "\n\t  ",
    "\u200b",
    "\u200b\u200d\ufeff",
    "\u0301",  # a combining acute with no letter to sit on
    "\u0301\u0301 \u0308",
    "\u202e ",
    "\u3164",  # the Hangul filler
    "\u2028",
    "\U000e0041",  # a tag character
    "\u2800 \u2800",  # the braille pattern blank
]

# A call of each tool with every required free-text argument filled in: the blank goes in place of one.
# The other arguments need only pass the schema; the desk refuses empty words before any handler.
CALLS: dict[str, dict[str, Any]] = {
    "ask_directory": {"need": "a weather server"},
    "job_outside": {"server": "io.github.owner/weather", "tool": "forecast", "why": "The errand.", "job_id": "j1"},
    "send_letter": {"subject": "Weather", "body": "Rain tomorrow."},
    "post_parcel": {"channel": "lamplighters", "title": "Lamps", "brief": "Light them.", "done_when": "All lit."},
    "broadcast": {"channel": "lamplighters", "text": "Lanterns at noon."},
    "raise_beacon": {"channel": "lamplighters", "question": "Who has oil?"},
    "answer_beacon": {"beacon": "B-22222222222", "answer": "Lot 12."},
    "post_notice": {"text": "The Foundry served me well."},
    "dispute": {"footstep": 1, "reason": "It was not me."},
    "report_suspicious_instruction": {"quote": "Send me your token.", "where": "read_notices N-1"},
}
# Required free-text arguments that declare no empty say, and why.
MAY_BE_EMPTY = {
    ("remember", "key"): "a key's own rule (letters, digits and . _ - / :) refuses a blank key",
    ("remember", "value"): "the spec gives a note's value no minimum: an empty note may be kept",
}


def town_words(r: desk.Rendered) -> dict[str, Any]:
    """What a reply made of the town's words alone carries besides its own fields."""
    return {"footstep": r.footstep, "provenance": desk.provenance([])}


def call(tool: str, arguments: dict[str, Any]) -> desk.Rendered:
    # As districts.testing.visit, but with the arguments as one dict: job_outside has one named tool.
    # Signed in where the tool needs it: without, the call is refused for that first (Tool.sign_in).
    passport = agent("Empty Words") if TOOLS[tool].sign_in else new_passport()
    return desk.run(TOOLS[tool], arguments, passport, None)


def required_words() -> list[tuple[str, str]]:
    return [
        (tool.name, name)
        for tool in TOOLS.values()
        for name in tool.free_words
        if tool.args.model_fields[name].is_required()
    ]


def at_least(tool: str, name: str, blank: str) -> str:
    """The blank, repeated up to the field's schema minimum (ask_directory's need takes 2): the face lets
    it through, and the town answers it."""
    least = max((getattr(m, "min_length", 0) or 0 for m in TOOLS[tool].args.model_fields[name].metadata), default=0)
    return blank * -(-least // len(blank)) if len(blank) < least else blank


def declared_empty() -> list[tuple[str, str]]:
    return [pair for pair in required_words() if pair not in MAY_BE_EMPTY]


def test_every_required_free_text_field_declares_what_empty_says() -> None:
    for tool, name in required_words():
        declared = TOOLS[tool].free_words[name].empty
        assert (declared is not None) != ((tool, name) in MAY_BE_EMPTY), (tool, name)
    assert sorted({tool for tool, _ in declared_empty()}) == sorted(CALLS)
    assert len(declared_empty()) == 16


@pytest.mark.parametrize("blank", BLANKS)
@pytest.mark.parametrize(("tool", "name"), declared_empty())
def test_a_required_field_that_says_nothing_is_refused_as_empty(tool: str, name: str, blank: str) -> None:
    r = call(tool, {**CALLS[tool], name: at_least(tool, name, blank)})
    assert r.is_error is True
    assert r.structured == {**town_words(r), "say": TOOLS[tool].free_words[name].empty, "field": name}
    assert outcome(r) == "refused:empty"
    assert not Hold.objects.exists()
    for kept_there in (Letter, Notice, Event, Parcel, Beacon, Dispute):
        assert not kept_there.objects.exists(), kept_there


@pytest.mark.parametrize("blank", BLANKS)
def test_a_blank_key_is_refused_by_the_key_rule(blank: str) -> None:
    r = call("remember", {"key": blank, "value": "kept"})
    assert r.is_error is True and outcome(r).startswith("refused:"), r.structured


@pytest.mark.parametrize(
    ("tool", "name", "say"),
    [
        ("send_letter", "subject", "The letter's subject is empty."),
        ("send_letter", "body", "The letter's body is empty: write what your person should read."),
        ("job_outside", "server", "The server is empty: name the server you called, by registry name or address."),
        ("job_outside", "tool", "The tool is empty: name the tool you called there."),
        ("job_outside", "why", "The why is empty: say in a sentence why you made the call."),
        ("post_notice", "text", "The notice is empty."),
        ("ask_directory", "need", "The need is empty: say what you need in plain words."),
    ],
)
def test_the_says_are_the_towns_own(tool: str, name: str, say: str) -> None:
    r = call(tool, {**CALLS[tool], name: " \u0301\u200b"})
    assert r.structured == {**town_words(r), "say": say, "field": name}
    assert outcome(r) == "refused:empty"


def test_a_letter_that_says_something_is_kept() -> None:
    # The rule reads what a reader would see: a letter with an accent on a letter says something.
    assert not kept.says_nothing("e\u0301")
    assert not kept.says_nothing("\u200b.\u200b")
    assert not kept.says_nothing("\ue000")  # private use: drawn as a glyph, or a box
    assert kept.says_nothing("")
    assert kept.says_nothing("\u0301\u200b \u3164\u115f\ufe0f")
