"""The words screen on links and ways to reach someone outside the town written as the other corpora
never wrote them (tests/corpus/unseen_links.py measures the kinds): each kind named once here, with
the passage the refusal quotes, and ordinary words near each kind that must pass."""

import pytest

from clockford.town import words


@pytest.mark.parametrize(
    ("text", "matched"),
    [
        # a telephone number to call or message
        ("reach me tel:+15551234567 tonight", "tel:+15551234567"),
        ("sms:+447700900123", "sms:+447700900123"),
        ("call me on (555) 123-4567", "(555) 123-4567"),
        ("WhatsApp +44 7700 900123 for the keys", "+44 7700 900123"),
        ("text me at 555-123-4567", "555-123-4567"),
        ("my cell: 555.123.4567", "555.123.4567"),
        (
            "ring me: zero seven seven zero zero nine zero zero one two three",
            "zero seven seven zero zero nine zero zero one two three",
        ),
        # an account on a messenger outside the town
        ("Telegram: @evilbot", "telegram: @evilbot"),
        ("DM me on Instagram @keys_dealer", "instagram @keys_dealer"),
        ("add me on Discord, keysdealer#4821", "discord, keysdealer#4821"),
        ("follow @evilbot on twitter", "@evilbot on twitter"),
        ("Signal me: @vault.01", "signal me: @vault.01"),
        ("my snap is @evilbot", "snap is @evilbot"),
        # an IPv4 address as one number, or with octal or hexadecimal parts
        ("connect to 3232235777:8080", "3232235777:8080"),
        ("Check 0xC0A80101/admin for the fix.", "0xC0A80101/admin"),
        ("it is on 0300.0250.0001.0001:22", "0300.0250.0001.0001:22"),
        ("0xc0.0xa8.0x01.0x01/upload", "0xc0.0xa8.0x01.0x01/upload"),
        # the dot spelled in another language, or joined
        ("visita evil punto com", "evil punto com"),
        ("www Punkt evil Punkt de", "www Punkt evil Punkt de"),
        ("the mirror is evil point org now", "evil point org"),
        ("evil [punto] com", "evil [punto] com"),
        ("see evil_dot_com", "evil_dot_com"),
        ("see evil-dot-net/login", "evil-dot-net"),
        ("see evilDOTcom", "evilDOTcom"),
        # a pictograph for the dot, a spaced dot before a path, a name backwards
        ("Check evil🔸org for the fix.", "evil🔸org"),
        ("www⚪login-help⚪com", "www⚪login-help⚪com"),
        ("free-credits 🔸 net/login", "free-credits 🔸 net/login"),
        ("wa . me/447700900123", "wa . me/447700900123"),
        ("the mirror is moc.live now", "moc.live"),
        ("Check ten.9bus-niam for the fix.", "ten.9bus-niam"),
    ],
)
def test_a_disguised_link_or_contact_is_refused(text: str, matched: str) -> None:
    problem = words.screen(text, "public")
    assert problem is not None, text
    assert (problem.kind, problem.say) == ("link", words.LINK_SAY)
    assert problem.matched.lower() == matched.lower()
    assert problem.matched in text


@pytest.mark.parametrize(
    "text",
    [
        "call the meeting on 2026-12-07 at 10:00",
        "Call it at 3:45 pm, room 1204, seat 55-12.",
        "ISBN 978-0-13-110362-7 is the cookbook.",
        "We counted 1,234,567 tokens and 2130706433 bytes.",
        "Order 3232235777 shipped; the budget is 50000000/year.",
        "The value is 0xDEADBEEF and the mask is 0xFFFFFFFF:1.",
        "version 10.0.19045.3803 is out",
        "call +1 for yes, dial 0 for the operator",
        "text me the numbers 1 2 3 4 5 6 7 when done",
        "ping @ada when the mill is done; thanks @ops-bot",
        "the telegram @ada sent arrived; discord in the team, see ticket #1234",
        "Give me a signal when you're ready, @lee_99.",
        "El punto es que no sé. Le point de vue du maire est clair.",
        "la burbuja punto com de los noventa",
        "Punkt drei ist erledigt, danke.",
        "Use anecdotes, not dot_com style.",
        "ten.minutes later it rang",
        "import com.example.app.Main; package org.apache.commons",
        "Great work 🔸 thanks all; sweep 🔹 lamps 🔹 bells",
        "let's go 🚀 app store is open",
        "fine.\ncom.acme.tools/inventory",
    ],
)
def test_ordinary_words_near_those_kinds_pass(text: str) -> None:
    assert words.screen(text, "public") is None, text


def test_the_same_words_pass_where_links_may_be_written() -> None:
    # A letter to one's own person may carry a link or a number: only public surfaces refuse them.
    assert words.screen("call me on (555) 123-4567 or see evil punto com", "letter") is None
