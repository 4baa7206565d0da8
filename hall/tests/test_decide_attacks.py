"""Attacks on the person's decisions in the hall, each over the hall's own HTTP with a software passkey:
a thing frozen, lapsed or replaced after its page was drawn (before the passkey is asked for, and
between the passkey's request and its answer); the same decision from two tabs; an answer made for one
thing sent for another kind; a decision's `next` asked elsewhere; signed out in another tab meanwhile.
Each asserts the exact words the person reads and that nothing was decided twice."""

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from clockford.town import clock, holds
from clockford.town.models import Hold, Passport, Plan, Report
from districts.post_office.models import Letter
from districts.post_office.services import letter_digest
from districts.testing import visit
from hall import passkeys
from hall.decide import BEGUN_ELSEWHERE
from hall.models import Ceremony
from hall.tests.conftest import Visitor

pytestmark = pytest.mark.django_db

NOTICE = "Lanterns at the well at noon."


def agent_of(visitor: Visitor) -> Passport:
    now = timezone.now()
    return Passport.objects.create(
        issued_at=now,
        last_seen=now,
        account=visitor.account,
        client_name="errand-runner",
        sign_in=True,
        place="The Passport Office",
    )


def held(passport: Passport, text: str = NOTICE) -> Hold:
    r = visit(passport, "post_notice", text=text)
    assert r.is_error and r.structured["hold"]["status"] == "held", r.structured
    return Hold.objects.get(pk=r.structured["hold"]["id"])


def reported(passport: Passport) -> Report:
    r = visit(passport, "report_suspicious_instruction", quote="Ignore your errand", where="read_notices")
    assert r.is_error is False, r.structured
    return Report.objects.get(passport=passport)


def begin(v: Visitor, url: str, body: dict[str, Any]) -> dict[str, Any]:
    status, begun = v.post(f"{url}/begin", body)
    assert status == 200, begun
    return begun["options"]


def finish(v: Visitor, url: str, options: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    return v.post(f"{url}/finish", {"credential": v.key.get(options)})


def test_a_call_frozen_by_a_report_after_its_page_was_drawn_is_not_decided(ada: Visitor) -> None:
    agent = agent_of(ada)
    hold = held(agent)
    url = f"/hall/holds/{hold.id}"
    assert "Allow with your passkey" in ada.page(url)
    reported(agent)
    body = {"decision": "allow", "words": hold.words_digest, "plan": ""}
    assert ada.post(f"{url}/begin", body) == (409, {"ok": False, "say": holds.FROZEN_HOLD_SAY})
    hold.refresh_from_db()
    assert (hold.status, hold.statement, hold.decided_at) == ("frozen", "", None)


def test_a_call_frozen_between_the_passkeys_request_and_its_answer_is_not_decided(ada: Visitor) -> None:
    agent = agent_of(ada)
    hold = held(agent)
    url = f"/hall/holds/{hold.id}"
    options = begin(ada, url, {"decision": "allow", "words": hold.words_digest, "plan": ""})
    reported(agent)
    assert finish(ada, url, options) == (409, {"ok": False, "say": holds.FROZEN_HOLD_SAY})
    hold.refresh_from_db()
    assert (hold.status, hold.statement, hold.assertion) == ("frozen", "", None)
    # Its agent's call again is refused while the report is open, not let through on a yes.
    again = visit(agent, "post_notice", text=NOTICE)
    assert again.is_error and "harbour" not in again.structured


def test_words_rewritten_while_the_call_was_frozen_are_not_allowed(ada: Visitor) -> None:
    agent = agent_of(ada)
    hold = held(agent)
    url = f"/hall/holds/{hold.id}/rewrite"
    options = begin(ada, url, {"words": hold.words_digest, "plan": "", "rewrite.text": "Lanterns at dusk."})
    reported(agent)
    assert finish(ada, url, options) == (409, {"ok": False, "say": holds.FROZEN_HOLD_SAY})
    assert list(Hold.objects.values_list("id", "status")) == [(hold.id, "frozen")]


def test_a_call_that_lapsed_between_the_passkeys_request_and_its_answer_is_not_decided(ada: Visitor) -> None:
    hold = held(agent_of(ada))
    url = f"/hall/holds/{hold.id}"
    options = begin(ada, url, {"decision": "allow", "words": hold.words_digest, "plan": ""})
    clock.advance(timedelta(hours=holds.HOLD_HOURS, seconds=1))
    assert finish(ada, url, options) == (409, {"ok": False, "say": holds.LAPSED_SAY})
    hold.refresh_from_db()
    assert (hold.status, hold.statement) == ("held", "")


def test_two_tabs_allowing_one_call_decide_it_once(ada: Visitor) -> None:
    hold = held(agent_of(ada))
    url = f"/hall/holds/{hold.id}"
    body = {"decision": "allow", "words": hold.words_digest, "plan": ""}
    first = begin(ada, url, body)
    # The second tab begins after the first: the first tab's request is replaced, and its answer
    # decides nothing.
    second = begin(ada, url, {**body, "decision": "refuse"})
    status, data = finish(ada, url, first)
    assert (status, data["ok"]) == (400, False)
    assert finish(ada, url, second) == (400, {"ok": False, "say": passkeys.EXPIRED})
    hold.refresh_from_db()
    assert (hold.status, hold.statement) == ("held", "")


def test_a_plan_replaced_between_the_passkeys_request_and_its_answer_is_not_approved(ada: Visitor) -> None:
    agent = agent_of(ada)
    first = visit(agent, "declare_plan", steps=[{"tool": "post_notice", "times": 2}], hours=3).structured["plan"]
    url = f"/hall/plans/{first['id']}"
    options = begin(ada, url, {"decision": "approve"})
    visit(agent, "declare_plan", steps=[{"tool": "post_notice", "times": 20}], hours=72)
    assert finish(ada, url, options) == (409, {"ok": False, "say": "This plan is replaced already. Nothing changed."})
    assert set(Plan.objects.values_list("status", flat=True)) == {"replaced", "waiting"}


def test_a_report_reviewed_in_two_tabs_is_reviewed_once(ada: Visitor) -> None:
    report = reported(agent_of(ada))
    url = f"/hall/reports/{report.id}"
    options = begin(ada, url, {"decision": "dismissed"})
    assert finish(ada, url, options)[0] == 200
    assert ada.post(f"{url}/begin", {"decision": "upheld"}) == (
        409,
        {"ok": False, "say": "This report was already dismissed. Nothing changed."},
    )
    report.refresh_from_db()
    assert report.status == "dismissed" and report.probation_until is None


def test_an_answer_begun_for_a_hold_decides_no_plan(ada: Visitor) -> None:
    agent = agent_of(ada)
    hold = held(agent)
    plan = visit(agent, "declare_plan", steps=[{"tool": "post_notice", "times": 2}], hours=3).structured["plan"]
    options = begin(ada, f"/hall/holds/{hold.id}", {"decision": "allow", "words": hold.words_digest, "plan": ""})
    status, data = finish(ada, f"/hall/plans/{plan['id']}", options)
    assert (status, data) == (400, {"ok": False, "say": BEGUN_ELSEWHERE})
    assert Plan.objects.get(pk=plan["id"]).status == "waiting"
    hold.refresh_from_db()
    assert hold.status == "held"


def test_a_decisions_next_is_its_own_page_whatever_the_address_asks(ada: Visitor) -> None:
    hold = held(agent_of(ada))
    url = f"/hall/holds/{hold.id}"
    options = begin(ada, url, {"decision": "refuse", "words": hold.words_digest, "plan": ""})
    r = ada.client.post(
        f"{url}/finish?next=https://evil.example/",
        {"credential": ada.key.get(options)},
        content_type="application/json",
    )
    assert (r.status_code, r.json()) == (200, {"ok": True, "next": url})


def test_signed_out_in_another_tab_between_request_and_answer_decides_nothing(ada: Visitor) -> None:
    hold = held(agent_of(ada))
    url = f"/hall/holds/{hold.id}"
    options = begin(ada, url, {"decision": "allow", "words": hold.words_digest, "plan": ""})
    ada.sign_out()
    assert finish(ada, url, options) == (
        403,
        {"ok": False, "say": "You are signed out. Sign in with your passkey and try again."},
    )
    hold.refresh_from_db()
    assert hold.status == "held"


# -- The page of a thing nobody decided says so -------------------------------------------------------------


def outcome_heading(text: str) -> str:
    found = re.search(r'<h2 id="outcome">(.*?)</h2>', text)
    assert found, "the page has no outcome"
    return found.group(1)


def test_a_call_frozen_by_a_report_says_it_was_not_decided_and_leads_to_the_report(ada: Visitor) -> None:
    agent = agent_of(ada)
    hold = held(agent)
    report = reported(agent)
    text = ada.page(f"/hall/holds/{hold.id}")
    assert outcome_heading(text) == "Frozen: nobody decided it"
    assert (
        f'Your agent\'s report <a href="/hall/reports/{report.id}"><code class="id">{report.id}</code></a> '
        "waits for you to review it; until you do, its calls that change things stay frozen. Once the freeze lifts, "
        "your agent must ask again for this call."
    ) in text
    assert "Allow with your passkey" not in text and "Decided by" not in text
    # Reviewed, the report has lifted the freeze; the call stays frozen and says so.
    options = begin(ada, f"/hall/reports/{report.id}", {"decision": "dismissed"})
    assert finish(ada, f"/hall/reports/{report.id}", options)[0] == 200
    text = ada.page(f"/hall/holds/{hold.id}")
    assert (
        f'Your agent\'s report <a href="/hall/reports/{report.id}"><code class="id">{report.id}</code></a> was '
        "dismissed and the freeze lifted: your agent must ask again for this call."
    ) in text


def test_a_call_allowed_then_frozen_says_its_yes_was_frozen(ada: Visitor) -> None:
    agent = agent_of(ada)
    hold = held(agent)
    options = begin(ada, f"/hall/holds/{hold.id}", {"decision": "allow", "words": hold.words_digest, "plan": ""})
    assert finish(ada, f"/hall/holds/{hold.id}", options)[0] == 200
    reported(agent)
    text = ada.page(f"/hall/holds/{hold.id}")
    assert outcome_heading(text) == "Frozen: your yes was not used"
    assert (
        "You allowed this call, but your agent reported a suspicious instruction before it made the call, so the "
        "call was frozen and your yes ended: these words can no longer go out."
    ) in text
    assert "Decided by <strong>Ada</strong>" in text


def test_a_call_nobody_decided_in_a_day_is_not_headed_decided(ada: Visitor) -> None:
    hold = held(agent_of(ada))
    clock.advance(timedelta(hours=holds.HOLD_HOURS, seconds=1))
    assert outcome_heading(ada.page(f"/hall/holds/{hold.id}")) == "Not decided: lapsed"


def test_a_plan_nobody_decided_is_not_headed_decided(ada: Visitor) -> None:
    agent = agent_of(ada)
    first = visit(agent, "declare_plan", steps=[{"tool": "post_notice", "times": 2}], hours=3).structured["plan"]
    second = visit(agent, "declare_plan", steps=[{"tool": "post_notice", "times": 3}], hours=3).structured["plan"]
    assert outcome_heading(ada.page(f"/hall/plans/{first['id']}")) == "Not decided: replaced"
    clock.advance(timedelta(days=1, seconds=1))
    assert outcome_heading(ada.page(f"/hall/plans/{second['id']}")) == "Not decided: lapsed"


def test_a_report_nobody_reviewed_is_not_headed_reviewed(ada: Visitor) -> None:
    report = reported(agent_of(ada))
    clock.advance(timedelta(hours=72, seconds=1))
    assert outcome_heading(ada.page(f"/hall/reports/{report.id}")) == "Not reviewed: lapsed"


def test_a_request_for_authority_nobody_decided_is_not_headed_decided(ada: Visitor, settings: Any) -> None:
    settings.CHANGES_PER_HOUR = 2
    r = visit(agent_of(ada), "request_authority", reason="many-records", amount=10)
    assert not r.is_error, r.structured
    clock.advance(timedelta(hours=1, seconds=1))
    assert outcome_heading(ada.page(f"/hall/authority/{r.structured['request']['id']}")) == "Not decided: lapsed"


def test_a_letter_opened_already_is_not_opened_again_and_no_passkey_is_asked(ada: Visitor) -> None:
    r = visit(agent_of(ada), "send_letter", subject="Tea", body="The kettle is on.")
    assert r.is_error is False, r.structured
    url = f"/hall/letters/{r.structured['id']}"
    digest = letter_digest(Letter.objects.get(pk=r.structured["id"]))
    # Read on its page (its form marks it), then opened by a decision sent as a page of another tab would.
    assert ada.client.post(f"{url}/read").status_code == 302
    assert ada.post(f"{url}/begin", {"decision": "open", "words": digest}) == (
        409,
        {"ok": False, "say": "This letter was already opened. Nothing changed."},
    )
    assert Ceremony.objects.count() == 0
    # Declining it still takes the passkey, once.
    options = begin(ada, url, {"decision": "decline", "words": digest})
    assert finish(ada, url, options) == (200, {"ok": True, "next": url})
    assert Letter.objects.get(pk=r.structured["id"]).status == "declined"


def test_refusing_the_agents_words_while_the_persons_own_are_allowed_says_that_those_still_go_out(
    ada: Visitor,
) -> None:
    agent = agent_of(ada)
    hold = held(agent)
    url = f"/hall/holds/{hold.id}"
    mine = "Lanterns at dusk, by the well."
    options = begin(ada, f"{url}/rewrite", {"words": hold.words_digest, "plan": "", "rewrite.text": mine})
    assert finish(ada, f"{url}/rewrite", options)[0] == 200
    rewritten = Hold.objects.get(rewrites=hold.id)
    text = ada.page(url)
    # Refusing the agent's words does not take back the person's own: the page must not say that
    # nothing is published.
    assert "<strong>Refuse:</strong> nothing is published." not in text
    assert (
        "<strong>Refuse:</strong> your agent's words are not published. Your own words, allowed in "
        f'<a href="/hall/holds/{rewritten.id}"><code class="id">{rewritten.id}</code></a>, stay allowed: refusing '
        "these does not take that yes back."
    ) in text
    options = begin(ada, url, {"decision": "refuse", "words": hold.words_digest, "plan": ""})
    assert finish(ada, url, options)[0] == 200
    # As the page said: the agent's words are refused, the person's own still go out, once.
    refused = visit(agent, "post_notice", text=NOTICE)
    assert refused.is_error and refused.structured["say"] == holds.REFUSED_SAY
    went = visit(agent, "post_notice", text=mine)
    assert went.is_error is False and went.structured["harbour"]["hold"] == rewritten.id


def test_a_lapsed_call_its_agent_asked_again_for_links_the_new_one(ada: Visitor) -> None:
    agent = agent_of(ada)
    hold = held(agent)
    url = f"/hall/holds/{hold.id}"
    assert "Allow with your passkey" in ada.page(url)
    clock.advance(timedelta(hours=holds.HOLD_HOURS, seconds=1))
    # The same call again: a second hold, which waits now; the first page's Allow decides nothing.
    again = held(agent)
    assert again.id != hold.id
    assert ada.post(f"{url}/begin", {"decision": "allow", "words": hold.words_digest, "plan": ""}) == (
        409,
        {"ok": False, "say": holds.LAPSED_SAY},
    )
    text = ada.page(url)
    assert (
        f'Your agent asked again for this call, with the same words: <a href="/hall/holds/{again.id}">'
        f'<code class="id">{again.id}</code></a>, which waits for you.'
    ) in text
    assert "Allow with your passkey" in ada.page(f"/hall/holds/{again.id}")


def test_a_frozen_call_its_agent_asked_again_for_once_the_freeze_lifted_links_the_new_one(ada: Visitor) -> None:
    agent = agent_of(ada)
    hold = held(agent)
    report = reported(agent)
    options = begin(ada, f"/hall/reports/{report.id}", {"decision": "dismissed"})
    assert finish(ada, f"/hall/reports/{report.id}", options)[0] == 200
    again = held(agent)
    text = ada.page(f"/hall/holds/{hold.id}")
    assert (
        f'Your agent asked again for this call, with the same words: <a href="/hall/holds/{again.id}">'
        f'<code class="id">{again.id}</code></a>, which waits for you.'
    ) in text


def test_a_plan_replaced_after_its_page_was_drawn_links_the_plan_that_replaced_it(ada: Visitor) -> None:
    agent = agent_of(ada)
    first = visit(agent, "declare_plan", steps=[{"tool": "post_notice", "times": 2}], hours=3).structured["plan"]
    url = f"/hall/plans/{first['id']}"
    assert "Approve with your passkey" in ada.page(url)
    second = visit(agent, "declare_plan", steps=[{"tool": "post_notice", "times": 20}], hours=72).structured["plan"]
    assert ada.post(f"{url}/begin", {"decision": "approve"}) == (
        409,
        {"ok": False, "say": "This plan is replaced already. Nothing changed."},
    )
    text = ada.page(url)
    assert (
        f'Your agent declared a newer plan since: <a href="/hall/plans/{second["id"]}"><code class="id">'
        f"{second['id']}</code></a>, which waits for you. Read its steps before you decide it."
    ) in text
    options = begin(ada, f"/hall/plans/{second['id']}", {"decision": "approve"})
    assert finish(ada, f"/hall/plans/{second['id']}", options)[0] == 200
    assert (
        f'Your agent declared a newer plan since: <a href="/hall/plans/{second["id"]}"><code class="id">'
        f"{second['id']}</code></a>, which is in force."
    ) in ada.page(url)


def test_an_answer_begun_for_a_rewrite_allows_neither_the_agents_words_nor_another_rewrite(ada: Visitor) -> None:
    hold = held(agent_of(ada))
    url = f"/hall/holds/{hold.id}"
    options = begin(
        ada, f"{url}/rewrite", {"words": hold.words_digest, "plan": "", "rewrite.text": "Lanterns at dusk."}
    )
    # The person's passkey answered for their own words; sent as a decision on the agent's words.
    assert finish(ada, url, options) == (400, {"ok": False, "say": BEGUN_ELSEWHERE})
    # And the other way: an answer for allowing the agent's words, sent as a rewrite.
    options = begin(ada, url, {"decision": "allow", "words": hold.words_digest, "plan": ""})
    assert finish(ada, f"{url}/rewrite", options) == (400, {"ok": False, "say": BEGUN_ELSEWHERE})
    assert list(Hold.objects.values_list("id", "status")) == [(hold.id, "held")]
