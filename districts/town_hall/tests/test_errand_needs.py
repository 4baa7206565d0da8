"""The Directory on needs as agents write them mid-errand, which the ninth generated evaluation
(tests/bench/directory_needs/ninth.py) holds: here, a phrase of the vocabulary that holds a stop word
("who is on call this weekend" searched "call" alone, and ranked servers that place phone calls), and a
task's words for whom it is for or what it waits on ("contractors", "arrive"). Each test is on a small
census written here, or on the reading alone. And a brand misspelled that few lots hold ("dropbx
files": Dropbox is held by four lots of the census, and a slip was read only toward a word five hold)."""

import pytest

from districts.town_hall import services
from districts.town_hall.tests.base import found_names, listing, take

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("need", "searched"),
    [
        ("who is on call this weekend", ["oncall"]),
        ("Who's ON-CALL tonight?", ["oncall"]),
        ("the on  call rota for the database team", ["oncall", "rota", "database", "team"]),
        # "on" and "call" apart, or across a sentence's end, are no phrase
        ("carry on calling them", ["carry", "calling"]),
        ("log on. Call the billing API", ["log", "call", "billing", "api"]),
    ],
)
def test_a_vocabulary_phrase_with_a_stop_word_is_read_as_one_word(need: str, searched: list[str]) -> None:
    assert services.terms_of(need) == searched


def test_who_is_on_call_finds_on_call_schedules_not_phone_calls(db: None) -> None:
    take(
        [
            listing("io.github.a/phone-caller", description="Place phone calls and voice call recordings."),
            listing("io.github.b/call-me", description="Call any number from your agent."),
            listing("io.github.c/rota", description="Incidents, on-call schedules and escalation policies."),
        ]
    )
    terms, cased = services.read_need("who is on call this weekend")
    found = services.find(terms, 8, cased=cased, excluded=services.excluded_of("who is on call this weekend"))
    assert terms == ["oncall"]
    assert [r["name"] for r in found.records][0] == "io.github.c/rota"
    # the listing writes "on-call": it holds the need's one word, so the answer is not hedged
    assert found.close


def test_a_task_s_words_bring_the_kind_of_server_it_needs(db: None) -> None:
    """ "pay our contractors abroad" ranked servers of contractors' licences, and "know when my package
    will arrive" found servers of software packages alone."""
    take(
        [
            listing("io.github.a/contractor-license", description="Look up contractor licenses by state."),
            listing("io.github.b/payouts", description="International payroll and cross-border payouts."),
            listing("io.github.c/package-meta", description="Package metadata from npm and PyPI."),
            listing("io.github.d/parcels", description="Shipment tracking and delivery dates for any carrier."),
        ]
    )
    assert found_names("pay our contractors abroad")[0] == "io.github.b/payouts"
    # "package" is still a package's own word, and its listing's name writes it: the parcels are found
    # beside it, where no lot holding "arrive" they were not found at all
    assert "io.github.d/parcels" in found_names("know when my package will arrive")


def test_a_word_no_lot_holds_is_read_as_a_word_three_lots_hold(db: None) -> None:
    take(
        [listing(f"io.github.d{i}/dropbox-mcp", description="Dropbox files and folders.") for i in range(3)]
        + [listing(f"io.github.z{i}/tools", description="Zapper tools.") for i in range(2)]
        + [listing("io.github.h/crm", description="Hubspot contacts.")]
    )
    assert services.words_searched("dropbx files") == ["dropbox", "files"]
    # two lots, or one, are too few to say a word no lot holds is a slip of theirs, unless the word is
    # in a lot's registry name (a brand's: test_task_needs.py)
    assert services.words_searched("zappar tools") == ["zappar", "tools"]
    assert services.words_searched("dropbax hubspoot") == ["dropbox", "hubspoot"]
