"""Eight remembers at once into a box with room for one more key: exactly one is kept. On PostgreSQL
the owner's passport is locked and the box read in one message (models.lock_passport_then), two
statements, so the read that follows the lock sees the key a call before it committed while it waited;
each thread's connection has the hot statements prepared, as a worker's has after its first calls.
Without the lock (measured: the read in the lock's message, the lock left out) two or more are kept."""

import threading
from collections import Counter
from typing import Any

import pytest
from django.db import connection, connections
from django.utils import timezone

from clockford.town import desk, limits
from clockford.town.models import _LOCK_PASSPORT, Footstep, Passport
from clockford.town.prepared import prepared
from districts.post_office.models import Note
from districts.post_office.services import MAX_KEYS
from districts.registry import TOOLS

pytestmark = pytest.mark.django_db(transaction=True)

CROWD = 8


def test_the_last_key_goes_to_one_call_of_eight(settings: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite runs one writer at a time: calls cannot meet inside the box")
    # Without the Bank's hourly allowance: its draw locks the passport's ledger row first, and would
    # line the calls up before they reach the box.
    settings.CHANGES_PER_HOUR = 0
    now = timezone.now()
    owner = Passport.objects.create(issued_at=now, last_seen=now)
    for i in range(MAX_KEYS - 1):
        assert not desk.run(TOOLS["remember"], {"key": f"k{i:02d}", "value": "x"}, owner, None).is_error
    start = threading.Barrier(CROWD)
    replies: list[desk.Rendered | None] = [None] * CROWD
    ready: list[bool] = [False] * CROWD
    errors: list[str] = []

    def call(i: int) -> None:
        try:
            me = Passport.objects.get(pk=owner.pk)  # its own copy, on its own connection
            desk.run(TOOLS["remember"], {"key": "k00", "value": "warm"}, me, None)  # its texts met
            limits.count(f"192.0.2.{i}", None)  # a statement outside any call: the texts prepared
            ready[i] = prepared(_LOCK_PASSPORT).startswith("EXECUTE ")
            start.wait()
            replies[i] = desk.run(TOOLS["remember"], {"key": f"new-{i}", "value": "x"}, me, None)
        except Exception as exc:
            errors.append(f"{i}: {exc!r}")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=call, args=(i,)) for i in range(CROWD)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and all(ready)
    done = [r for r in replies if r is not None]
    assert len(done) == CROWD
    kept = Counter("kept" if not r.is_error else r.structured["say"] for r in done)
    assert kept == {"kept": 1, "Your P.O. box is full (64 keys). Use forget first.": CROWD - 1}
    assert Note.objects.filter(box=owner.id).count() == MAX_KEYS
    outcomes = Counter(Footstep.objects.filter(number__in=[r.footstep for r in done]).values_list("outcome", flat=True))
    assert outcomes == {"ok": 1, "refused:box-full": CROWD - 1}
