"""The sweep takes the notices past the number the board keeps; the board reads the same."""

from datetime import timedelta
from typing import Any

from clockford.town import clock
from clockford.town.models import Passport, new_id
from districts.tavern import services
from districts.tavern.models import Notice


def test_notices_past_the_board_go_and_the_board_reads_the_same(alice: Passport, settings: Any) -> None:
    start = clock.now() - timedelta(hours=1)
    # Some at the same moment: the board's order breaks ties by id, and so does the sweep.
    Notice.objects.bulk_create(
        Notice(id=new_id("N-"), passport=alice, text=f"notice {i}", at=start + timedelta(seconds=i // 3))
        for i in range(60)
    )
    settings.CLOCKFORD = {**settings.CLOCKFORD, "NOTICES_KEPT": services.READ_MAX}
    before = [n.pk for n in services.newest(services.READ_MAX)]

    assert services.tidy(clock.now()) == {"tavern_notice": 10}

    assert [n.pk for n in services.newest(services.READ_MAX)] == before
    assert set(Notice.objects.values_list("pk", flat=True)) == set(before)
    assert services.tidy(clock.now()) == {"tavern_notice": 0}
