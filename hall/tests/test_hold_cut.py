"""A held call cut to its cap: the hold's page shows the kept words, says they were cut, and the
passkey signs the digest of exactly those words, the ones that will be published."""

import json

import pytest
from django.utils import timezone

from clockford.town import holds
from clockford.town.models import Hold, Passport
from districts.testing import visit
from hall.tests.conftest import Visitor

pytestmark = pytest.mark.django_db

TEXT = "Lanterns at the well at noon. " * 10 + "Sorry: I was wrong, stay home."


def _agent(visitor: Visitor) -> Passport:
    now = timezone.now()
    return Passport.objects.create(
        issued_at=now, last_seen=now, account=visitor.account, client_name="claude-code", sign_in=True
    )


def test_the_page_of_a_cut_broadcast_shows_and_signs_the_280_kept_characters(ada: Visitor) -> None:
    r = visit(_agent(ada), "broadcast", channel="lamplighters", text=TEXT)
    hold = Hold.objects.get(pk=r.structured["hold"]["id"])
    page = ada.client.get(f"/hall/holds/{hold.id}").content.decode()
    assert "Cut to 280 characters: the rest is not published." in page
    assert "nothing cut" not in page
    assert f'<pre class="words" data-field="text">{TEXT[:280]}</pre>' in page
    assert "Sorry: I was wrong" not in page
    # The digest the passkey signs is the kept words' own.
    assert hold.words_digest == holds.words_digest("broadcast", {"channel": "lamplighters", "text": TEXT[:280]})
    assert f'value="{hold.words_digest}"' in page
    assert json.loads(holds.decision_statement(hold, "allow"))["words"] == hold.words_digest


def test_the_page_of_words_within_their_cap_says_nothing_was_cut(ada: Visitor) -> None:
    r = visit(_agent(ada), "broadcast", channel="lamplighters", text="Lanterns at the well at noon.")
    page = ada.client.get(f"/hall/holds/{r.structured['hold']['id']}").content.decode()
    assert "nothing cut" in page and "Cut to" not in page
