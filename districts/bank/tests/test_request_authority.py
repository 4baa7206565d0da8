"""request_authority: sign-in only, one request at a time, for a reason from the fixed list; the person
allows (this hour's ceiling rises) or refuses once; a request not decided within its hour lapses; the
outsider never reaches another's request."""

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.conf import settings

from clockford.town import clock
from clockford.town.holds import NotDecided
from clockford.town.models import Passport
from clockford.town.tooling import NotFound
from districts.bank import services
from districts.bank.models import AuthorityRequest
from districts.testing import outcome, visit
from hall.models import Account


def decide(request_id: str, decision: str, account: Account | None = None) -> AuthorityRequest:
    asked = AuthorityRequest.objects.get(pk=request_id)
    statement = services.request_statement(asked, decision)
    return services.do_decide_request(asked, account or asked.account, decision, statement, {})


def test_it_needs_sign_in(charlie: Passport) -> None:
    r = visit(charlie, "request_authority", reason="retries")
    assert r.is_error and outcome(r) == "refused:sign-in"
    assert r.structured["say"] == services.SIGN_IN_SAY
    assert not AuthorityRequest.objects.exists()


def test_a_request_waits_with_where_to_decide_and_draws_nothing(alice: Passport, hourly: Callable[..., None]) -> None:
    hourly(3)
    r = visit(alice, "request_authority", reason="many-records", amount=10)
    assert not r.is_error, r.structured
    request = r.structured["request"]
    assert request["status"] == "waiting" and request["amount"] == 10 and request["reason"] == "many-records"
    assert request["hallUrl"].endswith(f"/hall/authority/{request['id']}")
    assert r.structured["say"] == (
        f"Request {request['id']} for 10 more changes this hour waits for your person, who decides in the hall at "
        "hallUrl. It lapses when the hour ends; show_balance shows what became of it."
    )
    assert r.structured["hallUrl"] == request["hallUrl"] == f"{settings.HALL_URL}/hall/authority/{request['id']}"
    assert services.balance_of(alice).drawn == 0
    shown = visit(alice, "show_balance").structured
    assert set(shown) == {"say", "balance", "requests", "reasons", "rules", "footstep", "provenance"}
    assert shown["requests"][0]["id"] == request["id"]


def test_a_request_for_one_change_reads_in_plain_english(alice: Passport) -> None:
    # The say once read "for 1 more changes".
    r = visit(alice, "request_authority", reason="retries", amount=1)
    assert r.is_error is False
    assert r.structured["say"].startswith(f"Request {r.structured['request']['id']} for 1 more change this hour waits")


def test_the_reasons_amount_is_asked_when_none_is_named(alice: Passport) -> None:
    r = visit(alice, "request_authority", reason="retries")
    assert r.structured["request"]["amount"] == 10


def test_one_request_at_a_time(alice: Passport) -> None:
    first = visit(alice, "request_authority", reason="retries").structured["request"]
    r = visit(alice, "request_authority", reason="long-errand", amount=30)
    assert r.is_error and outcome(r) == "refused:one-at-a-time"
    assert first["id"] in r.structured["say"]
    decide(first["id"], "refuse")
    assert not visit(alice, "request_authority", reason="long-errand").is_error


def test_allowed_raises_this_hours_ceiling(alice: Passport, hourly: Callable[..., None]) -> None:
    hourly(2)
    for i in range(2):
        assert not visit(alice, "remember", key=f"k{i}", value="x").is_error
    assert outcome(visit(alice, "remember", key="k2", value="x")) == "refused:authority"
    asked = visit(alice, "request_authority", reason="many-records", amount=10).structured["request"]
    decided = decide(asked["id"], "allow")
    assert decided.status == "allowed" and decided.statement and decided.decided_at is not None
    r = visit(alice, "remember", key="k2", value="x")
    assert not r.is_error, r.structured
    b = services.balance_of(alice)
    assert (b.of, b.drawn, b.left, b.granted) == (12, 3, 9, 10)
    assert visit(alice, "show_balance").structured["requests"][0]["status"] == "allowed"
    # Only this hour: the next refills to the hour's own amount.
    clock.advance(timedelta(hours=1))
    assert services.balance_of(alice).of == 2


def test_refused_changes_nothing_and_decides_once(alice: Passport, hourly: Callable[..., None]) -> None:
    hourly(2)
    asked = visit(alice, "request_authority", reason="retries", amount=5).structured["request"]
    assert decide(asked["id"], "refuse").status == "refused"
    with pytest.raises(NotDecided):
        decide(asked["id"], "allow")
    assert services.balance_of(alice).of == 2


def test_a_request_lapses_when_its_hour_ends(alice: Passport) -> None:
    asked = visit(alice, "request_authority", reason="retries").structured["request"]
    clock.advance(timedelta(hours=1))
    assert visit(alice, "show_balance").structured["requests"][0]["status"] == "lapsed"
    with pytest.raises(NotDecided):
        decide(asked["id"], "allow")
    assert not services.waiting_requests(alice.account).exists()
    assert not visit(alice, "request_authority", reason="retries").is_error


def test_a_statement_for_another_decision_decides_nothing(alice: Passport) -> None:
    asked = AuthorityRequest.objects.get(
        pk=visit(alice, "request_authority", reason="retries").structured["request"]["id"]
    )
    with pytest.raises(NotDecided):
        services.do_decide_request(asked, alice.account, "allow", services.request_statement(asked, "refuse"), {})
    assert services.status_of(asked) == "waiting"


def test_the_outsider_never_reaches_anothers_request(alice: Passport, db: None) -> None:
    asked = visit(alice, "request_authority", reason="retries").structured["request"]
    bob = Account.objects.create_account("Bob")
    with pytest.raises(NotFound):
        services.access_request(bob, asked["id"])
    assert not services.waiting_requests(bob).exists()
    assert services.waiting_requests(alice.account).count() == 1
