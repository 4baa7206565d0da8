"""Words an agent wrote, on the public pages: every bidi control drawn as the hall draws it (⟦U+202E⟧ in a
<mark>), so an override can no longer turn the words after it round; an emoji's joiners and variation
selectors are left as they are; and the read API carries the exact words."""

import json
import unicodedata
from datetime import timedelta

import pytest
from django.test import Client

from clockford.public.templatetags.public_tags import shown, shown_plain
from clockford.town import clock, words
from clockford.town.models import Passport
from districts.tavern import services as tavern
from districts.testing import visit
from districts.town_hall.models import CensusState
from hall import shown as hall_shown
from tests.fixtures import agent

pytestmark = pytest.mark.django_db

RLO = "\u202e"
PDF = "\u202c"
FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # man, ZWJ, woman, ZWJ, girl: one emoji
HEART = "\u2764\ufe0f"  # a heart and the variation selector that asks for its emoji form
RAINBOW = "\U0001f3f3\ufe0f\u200d\U0001f308"
WORDS = f"Pay to {RLO}yenom eht{PDF} now. {FAMILY} {HEART} {RAINBOW}"
MARK = '<mark class="hidden-char" title="A hidden character">⟦U+{:04X}⟧</mark>'

BIDI = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]


def test_the_bidi_controls_are_the_embeddings_overrides_isolates_and_marks() -> None:
    assert sorted(ord(c) for c in words.BIDI_CONTROLS) == BIDI
    # The other invisible characters are not bidi controls: a joiner or a variation selector belongs
    # to an emoji, and a zero-width space reorders nothing.
    assert not any(words.is_bidi_control(c) for c in "\u200d\ufe0f\u200b\u2060\U000e0067a ")
    # Every one of them is a character the hall draws as a token too: one form on both.
    assert all(words.is_hidden(c) for c in words.BIDI_CONTROLS)


def test_the_filters_draw_each_bidi_control_as_the_hall_does_and_nothing_else() -> None:
    for cp in BIDI:
        assert shown(f"a{chr(cp)}b") == f"a{MARK.format(cp)}b" == hall_shown.marked(f"a{chr(cp)}b")
        assert shown_plain(f"a{chr(cp)}b") == f"a⟦U+{cp:04X}⟧b"
    assert shown(f"{FAMILY} {HEART} {RAINBOW} <b>") == f"{FAMILY} {HEART} {RAINBOW} &lt;b&gt;"
    assert shown_plain(f"{FAMILY}\u200b{HEART}") == f"{FAMILY}\u200b{HEART}"
    # Plain words take the quick way, lines and tabs kept; a control other than those is still drawn.
    assert shown("Plain <words>\nand\ta tab") == "Plain &lt;words&gt;\nand\ta tab"
    assert shown_plain("Plain <words>\n") == "Plain <words>\n"
    assert shown("bell\x07") == 'bell<mark class="hidden-char" title="A control character">⟦U+0007⟧</mark>'
    assert shown_plain("bell\x07\n") == "bell⟦U+0007⟧\n"


def notice(text: str, pennant: str) -> str:
    p = agent(None)
    Passport.objects.filter(pk=p.pk).update(pennant=pennant)
    p.refresh_from_db()
    clock.advance(timedelta(seconds=1))
    return tavern.do_post(p, text).id


def test_the_feed_draws_an_override_and_keeps_the_emoji() -> None:
    notice(WORDS + "\nsecond line", f"kite{RLO}etik")
    html = Client().get("/feed").content.decode()
    assert RLO not in html and PDF not in html
    assert (
        f'<blockquote class="words" data-label="agent-written">Pay to {MARK.format(0x202E)}yenom eht'
        f"{MARK.format(0x202C)} now. {FAMILY} {HEART} {RAINBOW}<br>second line</blockquote>"
    ) in html
    assert f'from <span class="words">kite{MARK.format(0x202E)}etik</span>' in html
    atom = Client().get("/feed.atom").content.decode()
    assert RLO not in atom
    assert f"Pay to ⟦U+202E⟧yenom eht⟦U+202C⟧ now. {FAMILY} {HEART} {RAINBOW}\nsecond line</content>" in atom
    assert "<name>kite⟦U+202E⟧etik</name>" in atom


def test_the_read_api_carries_the_exact_words() -> None:
    notice(WORDS, f"kite{RLO}etik")
    item = json.loads(Client().get("/api/feed").content)["items"][0]
    assert item["text"] == unicodedata.normalize("NFC", WORDS)
    assert item["from"] == f"kite{RLO}etik"


def test_the_map_draws_a_pennants_override_in_its_drawing_and_its_label(demo: CensusState) -> None:
    p = agent(None)
    Passport.objects.filter(pk=p.pk).update(pennant=f"ab{RLO}cd")
    p.refresh_from_db()
    visit(p, "walk_to", to="The Tavern")
    html = Client().get("/").content.decode()
    assert RLO not in html.replace(f'data-pennant="ab{RLO}cd"', "")  # the attribute is data, never drawn
    assert '<text x="0" y="18" class="pennant">ab⟦U+202E⟧cd</text>' in html
    assert 'aria-label="The Tavern: open; 1 agent here (pennants: “ab⟦U+202E⟧cd”)."' in html
