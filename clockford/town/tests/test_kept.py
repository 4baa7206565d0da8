"""The kept form (clockford/town/kept.py), by property: over random Unicode, with NUL and the other
controls, the neighbours of the surrogates (and lone surrogates, which JSON can carry), tag characters
and bidi controls, what the screen reads is what the town stores, what a hold shows and signs, and
what it publishes."""

import json
import unicodedata
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clockford.town import clock, desk, holds, kept, words
from clockford.town.models import Hold, Passport
from clockford.town.tooling import Words
from districts.post_office.models import Note
from districts.registry import START_PLACE, TOOLS
from districts.switchboard.models import Event
from tests.support import SHARED, have_shared
from tests.test_tool_schemas import our_designs

SPECIAL = [
    "\x00",
    "\x01",
    "\x1b",
    "\x7f",
    "\x85",
    "\r",
    "\n",
    "\t",
    "\ud7ff",  # the surrogates' neighbours
    "\ue000",
    "\ud800",  # lone surrogates: JSON's \\ud800 parses to one
    "\udfff",
    "\U000e0001",  # tag characters
    "\U000e0041",
    "\U000e007f",
    "\u202a",  # bidi embeddings, overrides and isolates
    "\u202e",
    "\u202c",
    "\u2066",
    "\u2069",
    "\u200e",
    "\u061c",
    "\u200b",  # zero-width
    "\u200d",
    "\ufeff",
    "\u0301",  # a combining acute: NFC composes it with the letter before
    "\u0958",  # a composition exclusion: NFC writes it as two characters
    "\u1100",  # a Hangul leading jamo, which NFC composes with a vowel
    "\u1161",
    "e",
    " ",
    ".",
]
TEXT = st.text(alphabet=st.one_of(st.sampled_from(SPECIAL), st.characters(codec="utf-8")), max_size=400)
_CONTROL = {chr(c) for c in [*range(0x20), *range(0x7F, 0xA0)]} - {"\n", "\t"}


@given(text=TEXT, cap=st.integers(min_value=1, max_value=300))
@settings(max_examples=2000, deadline=None)
def test_the_kept_form_is_normal_clean_capped_and_its_own_kept_form(text: str, cap: int) -> None:
    out, cut = kept.kept(text, cap)
    assert len(out) <= cap
    assert unicodedata.is_normalized("NFC", out)
    assert not set(out) & _CONTROL
    assert not any(0xD800 <= ord(ch) <= 0xDFFF for ch in out)
    out.encode("utf-8")  # storable anywhere
    assert kept.kept(out, cap) == (out, False)
    assert cut == (len(unicodedata.normalize("NFC", kept.kept(text, 10**6)[0])) > cap)
    # What a district's own normalisation would make of it is the same text: nothing cuts again.
    assert words.for_keeping(out, cap) == out


def _signed_in() -> Passport:
    account = get_user_model().objects.create_account("Alice")
    now = timezone.now()
    return Passport.objects.create(
        issued_at=now, last_seen=now, place=START_PLACE, account=account, sign_in=True, client_name="alice-agent"
    )


@pytest.mark.heavy
@pytest.mark.django_db
def test_what_is_screened_is_what_is_stored_shown_signed_and_published(monkeypatch: pytest.MonkeyPatch) -> None:
    clock.reset()
    seen: list[tuple[str, str]] = []
    screen = words.screen

    def screened(text: str, surface: str) -> Any:
        seen.append((text, surface))
        return screen(text, surface)

    monkeypatch.setattr(words, "screen", screened)
    counts = {"published": 0, "refused": 0, "kept": 0}

    @given(text=TEXT)
    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    def one(text: str) -> None:
        with transaction.atomic():
            # A new agent each time: the clerk counts calls a minute, and each example makes four.
            alice = _signed_in()
            _broadcast(alice, text, seen, counts)
            _remember(alice, text, seen, counts)
            transaction.set_rollback(True)  # each example starts from the same town

    one()
    print(f"\nkept-form property: {counts}")
    assert counts["published"] > 20 and counts["kept"] > 50


def _broadcast(alice: Passport, text: str, seen: list[tuple[str, str]], counts: dict[str, int]) -> None:
    seen.clear()
    arguments = {"channel": "lamplighters", "text": text}
    first = desk.run(TOOLS["broadcast"], arguments, alice, None)
    if "hold" not in first.structured:
        # Refused (a link, a staff voice, a secret, or nothing left to say): nothing held or published.
        counts["refused"] += 1
        assert first.is_error and not Hold.objects.exists() and not Event.objects.exists()
        return
    screened = [t for t, surface in seen if surface == "public"]
    hold = Hold.objects.get()
    shown = hold.arguments["text"]
    # What a person reads and signs is exactly what the screen read.
    assert screened == [shown]
    assert hold.words_digest == holds.words_digest("broadcast", {"channel": "lamplighters", "text": shown})
    assert hold.cut == ({"text": 280} if kept.kept(text, 280)[1] else {})
    holds.do_decide(hold, None, "allow", hold.words_digest, holds.decision_statement(hold, "allow"), {})
    seen.clear()
    r = desk.run(TOOLS["broadcast"], arguments, alice, None)
    assert r.is_error is False, r.structured
    assert [t for t, _ in seen] == [shown]
    # What is published is what was screened and signed, and what a reader is handed back.
    assert Event.objects.get(seq=r.structured["seq"]).text == shown
    counts["published"] += 1


def _remember(alice: Passport, text: str, seen: list[tuple[str, str]], counts: dict[str, int]) -> None:
    seen.clear()
    r = desk.run(TOOLS["remember"], {"key": "k", "value": text}, alice, None)
    values = [t for t, _ in seen[1:]]  # the key is screened first, then the value
    if r.is_error:
        assert not Note.objects.filter(box=alice.id).exists()
        return
    assert [Note.objects.get(box=alice.id, key="k").value] == values
    back = desk.run(TOOLS["recall"], {"key": "k"}, alice, None)
    assert [back.structured["value"]] == values
    counts["kept"] += 1


def test_every_free_text_field_declares_its_surface_and_the_cap_the_spec_gives() -> None:
    """Each tool's Words: a surface and a cap, the cap being the spec's "kept to N characters" (keptTo)
    or the field's maximum length (tools.json, read from 000 and 001)."""
    if not have_shared():
        pytest.skip("the spec is not beside this checkout")
    spec = json.loads((SHARED / "spec" / "tools.json").read_text())
    spec["tools"] += our_designs().values()  # the tools the town designed (docs/tools)
    caps = {
        (t["name"], a["name"]): a.get("keptTo") or a.get("maxLength") for t in spec["tools"] for a in t["arguments"]
    }
    declared = 0
    for tool in TOOLS.values():
        for name, w in tool.words.items():
            assert isinstance(w, Words), f"{tool.name}.{name} declares a surface without its cap"
            assert w.cap == caps[(tool.name, name)], (tool.name, name, w.cap)
            declared += 1
    assert declared == 22
