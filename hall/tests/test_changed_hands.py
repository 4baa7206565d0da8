"""A page drawn for one person, its form sent after the browser changed hands (hall/drawn.py): another tab
signed someone else in, or signed out. Over the hall's own HTTP with software passkeys: leniently, as the
views see it, and with the CSRF check a browser meets (a sign-in renews the token, so the old page's form
fails there first). Each asserts the exact words, that nothing of the other person's hold is said, and that
nothing was decided."""

import html
import json
import re
from typing import Any

import pytest
from django.conf import settings

from clockford.town.models import Hold, Plan
from districts.post_office.models import Letter
from hall import drawn
from hall.tests.conftest import Visitor
from hall.tests.test_decisions import a_letter, a_plan, agent_of, held_notice

pytestmark = pytest.mark.django_db

MARK = re.compile(r'<input type="hidden" name="drawn_for" value="([0-9a-f]{32})">')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
SIGNED_OUT = "You are signed out. Sign in with your passkey and try again."
NO_HOLD = "No call you decide for has that number."


def drawn_for(visitor: Visitor, url: str) -> tuple[str, str]:
    """The mark and the CSRF token the page's forms carry, each the same in every form of it."""
    r = visitor.client.get(url)
    assert r.status_code == 200, r.status_code
    text = r.content.decode()
    marks, tokens = set(MARK.findall(text)), set(CSRF.findall(text))
    assert len(marks) == 1 and len(tokens) == 1, (marks, tokens)
    # Every form of a decision page carries it: each ceremony and each plain form.
    assert text.count('name="drawn_for"') == text.count("<form") - text.count('action="/hall/signout"')
    return marks.pop(), tokens.pop()


def bea_signs_in_instead(visitor: Visitor) -> None:
    """In another tab of the same browser: the person signs out, and Bea makes an account and is signed in."""
    visitor.sign_out()
    status, data = visitor.sign_up("Bea")
    assert status == 200 and data["ok"] is True, data
    assert visitor.account is not None and visitor.account.name == "Bea"


def sent(visitor: Visitor, url: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    return visitor.post(url, body)


def form_sent(visitor: Visitor, url: str, fields: dict[str, str]) -> tuple[int, str]:
    r = visitor.client.post(url, fields)
    return r.status_code, html.unescape(r.content.decode())


def unchanged(hold: Hold) -> None:
    hold.refresh_from_db()
    assert (hold.status, hold.statement, hold.decided_at) == ("held", "", None)


def test_every_form_of_a_decision_page_carries_the_mark_of_its_person(ada: Visitor) -> None:
    agent = agent_of(ada)
    hold, plan, letter = held_notice(agent), a_plan(agent), a_letter(agent)
    assert ada.account is not None
    mine = drawn.mark(ada.account)
    for url in (f"/hall/holds/{hold.id}", f"/hall/plans/{plan.id}", f"/hall/letters/{letter.id}"):
        assert drawn_for(ada, url)[0] == mine
    # A page drawn for nobody (the front door) carries none.
    ada.sign_out()
    assert 'name="drawn_for"' not in ada.client.get("/hall/").content.decode()


def test_allow_refuse_and_rewrite_after_someone_else_signed_in_say_so_and_decide_nothing(ada: Visitor) -> None:
    hold = held_notice(agent_of(ada))
    url = f"/hall/holds/{hold.id}"
    mark, _ = drawn_for(ada, url)
    body = {"decision": "allow", "words": hold.words_digest, "plan": "", "drawn_for": mark}
    bea_signs_in_instead(ada)
    refused = (403, {"ok": False, "say": drawn.SOMEONE_ELSE})
    assert sent(ada, f"{url}/begin", body) == refused
    assert sent(ada, f"{url}/begin", {**body, "decision": "refuse"}) == refused
    rewrite = {"words": hold.words_digest, "plan": "", "rewrite.text": "Lanterns at dusk.", "drawn_for": mark}
    assert sent(ada, f"{url}/rewrite/begin", rewrite) == refused
    # Nothing of the hold is in the words, and the same form without its mark (a page drawn before the
    # hall marked its forms) is answered as before: Bea decides no such call.
    assert "Meet at the" not in drawn.SOMEONE_ELSE and hold.id not in drawn.SOMEONE_ELSE
    del body["drawn_for"]
    assert sent(ada, f"{url}/begin", body) == (404, {"ok": False, "say": NO_HOLD})
    unchanged(hold)


def test_a_passkey_answered_after_someone_else_signed_in_decides_nothing(ada: Visitor) -> None:
    hold = held_notice(agent_of(ada))
    url = f"/hall/holds/{hold.id}"
    mark, _ = drawn_for(ada, url)
    status, begun = sent(
        ada, f"{url}/begin", {"decision": "allow", "words": hold.words_digest, "plan": "", "drawn_for": mark}
    )
    assert status == 200, begun
    credential = ada.key.get(begun["options"])
    bea_signs_in_instead(ada)
    assert sent(ada, f"{url}/finish", {"credential": credential, "drawn_for": mark}) == (
        403,
        {"ok": False, "say": drawn.SOMEONE_ELSE},
    )
    unchanged(hold)


def test_a_plan_and_a_letter_after_someone_else_signed_in_say_so_and_change_nothing(ada: Visitor) -> None:
    agent = agent_of(ada)
    plan, letter = a_plan(agent), a_letter(agent)
    mark, _ = drawn_for(ada, f"/hall/plans/{plan.id}")
    bea_signs_in_instead(ada)
    assert sent(ada, f"/hall/plans/{plan.id}/begin", {"decision": "approve", "drawn_for": mark}) == (
        403,
        {"ok": False, "say": drawn.SOMEONE_ELSE},
    )
    # The plain forms of a decision page (ending a plan, marking a letter read) answer with a page.
    for url in (f"/hall/plans/{plan.id}/end", f"/hall/letters/{letter.id}/read"):
        status, text = form_sent(ada, url, {"drawn_for": mark})
        assert status == 403, (url, status)
        assert f'<div class="card card-bad" role="alert"><p>{drawn.SOMEONE_ELSE}</p></div>' in text
        assert plan.id not in text.replace(url, "") and "An odd notice" not in text
    plan.refresh_from_db()
    letter.refresh_from_db()
    assert (plan.status, plan.decided_at) == ("waiting", None)
    assert letter.status == "held"


def test_allow_after_the_person_signed_out_in_another_tab_says_the_page_was_drawn_before(ada: Visitor) -> None:
    hold = held_notice(agent_of(ada))
    url = f"/hall/holds/{hold.id}"
    mark, _ = drawn_for(ada, url)
    ada.sign_out()
    body = {"decision": "allow", "words": hold.words_digest, "plan": ""}
    assert sent(ada, f"{url}/begin", {**body, "drawn_for": mark}) == (403, {"ok": False, "say": drawn.SIGNED_OUT_SINCE})
    # Without the mark, as before.
    assert sent(ada, f"{url}/begin", body) == (403, {"ok": False, "say": SIGNED_OUT})
    unchanged(hold)


def test_the_same_person_signed_in_again_decides_and_a_mark_of_another_shape_is_no_mark(ada: Visitor) -> None:
    hold = held_notice(agent_of(ada))
    url = f"/hall/holds/{hold.id}"
    mark, _ = drawn_for(ada, url)
    ada.sign_out()
    assert ada.sign_in()[0] == 200
    body = {"decision": "refuse", "words": hold.words_digest, "plan": "", "drawn_for": mark}
    # A mark that is not 32 hex characters is none (a list, a number, a longer string).
    for other in (["x"], 7, mark + "0"):
        assert sent(ada, f"{url}/begin", {**body, "drawn_for": other})[0] == 200
    status, begun = sent(ada, f"{url}/begin", body)
    assert status == 200, begun
    assert sent(ada, f"{url}/finish", {"credential": ada.key.get(begun["options"]), "drawn_for": mark}) == (
        200,
        {"ok": True, "next": url},
    )


# -- With the CSRF check a browser meets ------------------------------------------------------------------


def csrf_post(visitor: Visitor, url: str, body: dict[str, Any], token: str | None = None) -> tuple[int, dict[str, Any]]:
    """A page's script's POST with its CSRF token in the header: the cookie's own, unless `token` is the
    token an older page was drawn with."""
    token = token or visitor.client.cookies[settings.CSRF_COOKIE_NAME].value
    r = visitor.client.post(url, json.dumps(body), content_type="application/json", HTTP_X_CSRFTOKEN=token)
    return r.status_code, r.json()


def strict_sign_up(visitor: Visitor, name: str) -> None:
    visitor.client.get("/hall/")
    options = csrf_post(visitor, "/hall/signup/begin", {"name": name})[1]["options"]
    status, data = csrf_post(visitor, "/hall/signup/finish", {"credential": visitor.key.create(options)})
    assert status == 200 and data["ok"] is True, data


def strict_sign_out(visitor: Visitor) -> None:
    token = visitor.client.cookies[settings.CSRF_COOKIE_NAME].value
    assert visitor.client.post("/hall/signout", {"csrfmiddlewaretoken": token}).status_code == 302


def test_with_the_csrf_check_the_old_pages_forms_say_who_is_signed_in_now() -> None:
    ada = Visitor(enforce_csrf=True)
    strict_sign_up(ada, "Ada")
    agent = agent_of(ada)
    hold, plan = held_notice(agent), a_plan(agent)
    url = f"/hall/holds/{hold.id}"
    mark, token = drawn_for(ada, url)
    body = {"decision": "allow", "words": hold.words_digest, "plan": "", "drawn_for": mark}
    # Bea signs in in another tab: her sign-in renewed the CSRF token, so the old page fails its check.
    strict_sign_out(ada)
    strict_sign_up(ada, "Bea")
    assert csrf_post(ada, f"{url}/begin", body, token) == (403, {"ok": False, "say": drawn.SOMEONE_ELSE})
    r = ada.client.post(f"/hall/plans/{plan.id}/end", {"csrfmiddlewaretoken": token, "drawn_for": mark})
    assert r.status_code == 403 and drawn.SOMEONE_ELSE in html.unescape(r.content.decode())
    # Without the mark, the check's own words, as before.
    r = ada.client.post(f"/hall/plans/{plan.id}/end", {"csrfmiddlewaretoken": token})
    assert r.status_code == 403 and "This page was open too long" in html.unescape(r.content.decode())
    # Signed out again: the old page says so.
    strict_sign_out(ada)
    assert csrf_post(ada, f"{url}/begin", body, token) == (403, {"ok": False, "say": drawn.SIGNED_OUT_SINCE})
    unchanged(hold)
    assert Plan.objects.get(pk=plan.id).status == "waiting" and not Letter.objects.exists()


def test_with_the_csrf_check_the_same_person_signed_in_again_is_told_to_reload() -> None:
    ada = Visitor(enforce_csrf=True)
    strict_sign_up(ada, "Ada")
    hold = held_notice(agent_of(ada))
    url = f"/hall/holds/{hold.id}"
    mark, token = drawn_for(ada, url)
    strict_sign_out(ada)
    options = csrf_post(ada, "/hall/signin/begin", {})[1]["options"]
    assert csrf_post(ada, "/hall/signin/finish", {"credential": ada.key.get(options)})[0] == 200
    body = {"decision": "allow", "words": hold.words_digest, "plan": "", "drawn_for": mark}
    assert csrf_post(ada, f"{url}/begin", body, token) == (403, {"ok": False, "say": drawn.SIGNED_IN_AGAIN})
    # Reloaded, the page's new token works.
    mark, token = drawn_for(ada, url)
    assert csrf_post(ada, f"{url}/begin", body, token)[0] == 200
    unchanged(hold)
