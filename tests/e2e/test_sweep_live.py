"""The sweep in a live town: the town's own process tidies storage every CLOCKFORD_SWEEP_SECONDS, and
`manage.py sweep`, run beside a town that does not sweep itself, does the same and says what it removed."""

import time
from collections.abc import Callable

from tests.support import RawSession, Town

# A passkey ceremony that expired a minute ago: nothing will ever accept an answer to it.
PLANT = (
    "import datetime as dt; from django.utils import timezone; from hall.models import Ceremony; "
    "Ceremony.objects.create(purpose='signin', challenge=b'c', expires_at=timezone.now() - dt.timedelta(minutes=1))"
)
COUNT = "from hall.models import Ceremony; print(Ceremony.objects.count())"


def ceremonies(town: Town) -> int:
    return int(town.manage("shell", "-c", COUNT).stdout.split()[-1])


def test_the_towns_own_process_sweeps_by_itself(town_factory: Callable[..., Town]) -> None:
    town = town_factory(env={"CLOCKFORD_SWEEP_SECONDS": "1"}).start()
    # daphne sends no lifespan events: the town starts its loops (fold and sweep) on the first call.
    s = RawSession(town.mcp)
    assert s.call("look_around")["isError"] is False
    town.manage("shell", "-c", PLANT)
    deadline = time.monotonic() + 15
    while ceremonies(town) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert ceremonies(town) == 0, "the town's process did not sweep within 15 s"


def test_the_sweep_as_a_service_of_its_own(town_factory: Callable[..., Town]) -> None:
    town = town_factory(env={"CLOCKFORD_SWEEP_SECONDS": "0"}).start()
    s = RawSession(town.mcp)
    assert s.call("look_around")["isError"] is False
    town.manage("shell", "-c", PLANT)
    time.sleep(1.5)
    assert ceremonies(town) == 1  # the town itself does not sweep
    out = town.manage("sweep").stdout.splitlines()
    # Other rows may be due by then too (a tally row past its window, on a slow machine): the
    # ceremony is one of what it names, and its total is the sum of its lines.
    assert "  hall_ceremony: 1" in out
    counted = sum(int(line.rsplit(": ", 1)[1]) for line in out if line.startswith("  ") and ": " in line)
    assert out[-1] == f"Swept {counted} row{'' if counted == 1 else 's'} in all."
    assert ceremonies(town) == 0
