"""A town run by its owner, tidy: every MCP session gets a passport, so the agents page groups them by
client and folds away the one-off sessions that left nothing (no holds, letters, notes, reports, plans,
runs or jobs)."""

import re

import pytest
from django.utils import timezone

from clockford.town.models import Passport
from districts.post_office import services as post_office
from districts.testing import visit
from hall.tests.conftest import Visitor, agent_of

pytestmark = pytest.mark.django_db


def session(client: str) -> Passport:
    now = timezone.now()
    return Passport.objects.create(issued_at=now, last_seen=now, client_name=client, place="The Tavern")


def test_passports_group_by_client_and_one_offs_fold_away(olive: Visitor) -> None:
    noted, held, lettered, looked = (
        session("claude-code"),
        session("claude-code"),
        session("cursor"),
        session("claude-code"),
    )
    post_office.do_remember(noted, "k", "v")
    visit(held, "post_notice", text="Lanterns at the well.")
    visit(lettered, "send_letter", subject="Hi", body="Done.")
    visit(looked, "look_around")
    page = olive.page("/hall/agents")
    groups = re.findall(
        r'<h2 id="client-\d+"><code class="client-name">([^<]+)</code> <span class="muted">(\d+) passports?</span>',
        page,
    )
    assert sorted((name.strip(), int(n)) for name, n in groups) == [("claude-code", 3), ("cursor", 1)]
    folded = page[page.index('<details class="fold one-offs">') :]
    folded = folded[: folded.index("</details>")]
    assert "1 passport that left nothing for you: no holds, letters, notes, reports, plans, runs or jobs" in folded
    assert looked.id in folded and noted.id not in folded and held.id not in folded
    assert lettered.id in page and lettered.id not in folded


def test_a_town_with_sign_in_folds_nothing(settings: object, ada: Visitor) -> None:
    settings.CLOCKFORD_SIGN_IN = True  # type: ignore[attr-defined]
    assert ada.account is not None
    agent = agent_of(ada.account)
    page = ada.page("/hall/agents")
    assert agent.id in page and "one-offs" not in page and "errand-runner" in page


def test_a_stranger_is_not_offered_an_account_on_a_town_run_by_its_owner(olive: Visitor, visitor: Visitor) -> None:
    front = visitor.page("/hall/")
    assert "Make an account" not in front and "This town is run by its owner" in front
    # The owner invites (hall/tests/test_invites.py): without an invite, the page says to ask for one.
    assert "Ask the town's owner for an invite link." in visitor.page("/hall/signup", status=403)


def test_before_the_claim_and_with_sign_in_strangers_may_sign_up(settings: object, visitor: Visitor) -> None:
    assert "Make an account" in visitor.page("/hall/")
    settings.CLOCKFORD_SIGN_IN = True  # type: ignore[attr-defined]
    assert "Make an account" in visitor.page("/hall/")


def test_a_session_that_named_a_job_is_not_folded_away(olive: Visitor) -> None:
    # Its job is on the Jobs page for the person to read and end: it left something.
    jobbed, looked = session("claude-code"), session("claude-code")
    visit(jobbed, "look_around", job_id="weather-1")
    visit(looked, "look_around")
    page = olive.page("/hall/agents")
    folded = page[page.index('<details class="fold one-offs">') :]
    folded = folded[: folded.index("</details>")]
    assert "1 passport that left nothing for you: no holds, letters, notes, reports, plans, runs or jobs" in folded
    assert looked.id in folded and jobbed.id in page and jobbed.id not in folded
