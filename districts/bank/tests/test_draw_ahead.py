"""The Bank's draw waits for the change's first statement (desk.Savepoint.lead_with), and still comes
first: a handler that refuses before it sends anything is answered by the Bank when the hour is spent,
as when the draw went before the handler; a change that sends nothing of its own still draws."""

from collections.abc import Callable

from clockford.town.models import Footstep, Passport
from districts.bank import services
from districts.post_office.models import Note
from districts.testing import outcome, visit

SPENT = "The Bank says no: your authority for this hour is spent"


def test_at_zero_the_banks_refusal_comes_before_the_handlers_own(alice: Passport, hourly: Callable[..., None]) -> None:
    hourly(1)
    assert not visit(alice, "remember", key="first", value="a note").is_error
    r = visit(alice, "forget", key="never-kept")  # the handler would find nothing under it
    assert r.is_error and r.structured["say"].startswith(SPENT) and outcome(r) == "refused:authority"
    assert services.balance_of(alice).drawn == 1


def test_a_refusal_of_the_handlers_own_with_the_hour_left_draws_nothing(
    alice: Passport, hourly: Callable[..., None]
) -> None:
    hourly(5)
    r = visit(alice, "hand_in", parcel="P-" + "4" * 12, action="give_back")  # no such parcel: the handler's own
    assert r.is_error and outcome(r).startswith("refused:") and not r.structured["say"].startswith(SPENT)
    assert services.balance_of(alice).drawn == 0
    assert Footstep.objects.filter(number=r.footstep).exists()


def test_each_change_draws_one_and_the_last_is_refused_whole(alice: Passport, hourly: Callable[..., None]) -> None:
    hourly(3)
    for i in range(3):
        assert not visit(alice, "remember", key=f"k{i}", value="a note").is_error
        assert services.balance_of(alice).drawn == i + 1
    r = visit(alice, "remember", key="k3", value="never kept")
    assert r.is_error and outcome(r) == "refused:authority"
    assert not Note.objects.filter(box=alice.id, key="k3").exists() and services.balance_of(alice).drawn == 3
