"""Signed in, an account's boxes share one size allowance across its clients: 32 KB (000 section 07).
Each client's passport keeps a box of its own; an outsider's box counts for nothing."""

from django.utils import timezone

from clockford.town.models import Passport
from districts.post_office.models import Note
from districts.post_office.services import ACCOUNT_ALLOWANCE_BYTES, ALLOWANCE_BYTES
from districts.registry import START_PLACE
from districts.testing import outcome, visit
from hall.models import Account


def _agent(account: Account | None) -> Passport:
    now = timezone.now()
    return Passport.objects.create(
        issued_at=now, last_seen=now, place=START_PLACE, account=account, sign_in=account is not None
    )


def _fill(passport: Passport, notes: int) -> int:
    for i in range(notes):
        assert visit(passport, "remember", key=f"k{i}", value="x" * 3998).is_error is False
    return notes * 4000


def test_the_account_allowance_is_32_kb() -> None:
    assert ACCOUNT_ALLOWANCE_BYTES == 32 * 1024 == 2 * ALLOWANCE_BYTES


def test_two_clients_of_one_account_share_32_kb(db: None) -> None:
    account = Account.objects.create_account("Alice")
    alice, alice2 = _agent(account), _agent(account)
    used = _fill(alice, 5) + _fill(alice2, 3)  # 32,000 bytes: one box holds more than 16 KB
    rest = ACCOUNT_ALLOWANCE_BYTES - used
    assert visit(alice2, "remember", key="last", value="x" * (rest - 4)).is_error is False
    r = visit(alice, "remember", key="z", value="")
    assert r.is_error is True and outcome(r) == "refused:box-size"
    assert "size allowance (32 KB for your account across its clients)" in r.structured["say"]
    assert r.structured["keptBytes"] == ACCOUNT_ALLOWANCE_BYTES
    assert r.structured["allowanceBytes"] == ACCOUNT_ALLOWANCE_BYTES
    assert not Note.objects.filter(box=alice.id, key="z").exists()


def test_another_accounts_boxes_count_for_nothing(db: None) -> None:
    alice = _agent(Account.objects.create_account("Alice"))
    bob = _agent(Account.objects.create_account("Bob"))
    _fill(bob, 8)
    charlie = _agent(None)
    _fill(charlie, 4)
    assert visit(alice, "remember", key="mine", value="x" * 3998).is_error is False
