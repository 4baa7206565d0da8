"""listen over real HTTP on a live town that restarts between pages: every message reaches the listener
at least once, none is skipped, and a page that was not acknowledged before the restart comes again
after it (000 section 08: "Until you pass next back as since, the same items come again").

The listener is an MCP session on the town (no sign-in: listen works without it). The writer is a
second process of the same town, a Django shell that broadcasts through the channels service on the
town's own database while the server stops and starts; its person's yes is taken as given (the hold is
tested with broadcast). SQLite by default; PostgreSQL when DATABASE_URL names it.
"""

import subprocess
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_http_rows import sql
from tests.support import PYTHON, ROOT, RawSession, Town, make_town

CHANNELS = ("lamps", "wells", "roads")
ROUNDS = 40

SETUP = textwrap.dedent(
    """
    from datetime import timedelta
    from django.db import transaction
    from django.utils import timezone
    from clockford.town import clock
    from clockford.town.models import Passport
    from districts.switchboard import channels
    from hall.models import Account

    now = timezone.now()
    writer = Passport.objects.create(
        issued_at=now, last_seen=now, account=Account.objects.create_account("Writer"), sign_in=True,
        client_name="restart-writer",
    )
    for name in {channels!r}:
        with transaction.atomic():
            channels.do_broadcast(writer, name, "opening " + name)
    print(writer.id)
    """
)

WRITE = textwrap.dedent(
    """
    import time
    from datetime import timedelta
    from pathlib import Path
    from django.db import transaction
    from clockford.town import clock
    from clockford.town.models import Passport
    from districts.switchboard import channels

    writer = Passport.objects.get(pk={writer!r})
    # At least {rounds} rounds, and on until the listener has seen the town restart three times.
    n = 0
    while n < {rounds} or not Path({done!r}).exists():
        clock.advance(timedelta(seconds=61))  # past each channel's minute
        for name in {channels!r}:
            with transaction.atomic():
                channels.do_broadcast(writer, name, f"live {{n}} on {{name}}")
            time.sleep(0.02)
        n += 1
    """
)


@pytest.fixture
def town(tmp_path: Path) -> Iterator[Town]:
    t = make_town(tmp_path).start()
    yield t
    t.close()


def shell(town: Town, code: str) -> "subprocess.Popen[str]":
    return subprocess.Popen(
        [PYTHON, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=town.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def listen(s: RawSession, **args: Any) -> dict[str, Any]:
    result = s.call("listen", args)
    assert result["isError"] is False, result
    return dict(result["structuredContent"])


def test_every_message_arrives_across_restarts(town: Town) -> None:
    setup = shell(town, SETUP.format(channels=CHANNELS))
    out, err = setup.communicate(timeout=120)
    assert setup.returncode == 0, err
    writer_id = out.strip().splitlines()[-1]

    s = RawSession(town.mcp, client_name="restart-listener")
    joined = listen(s, join=list(CHANNELS))
    assert joined["watching"] == sorted(CHANNELS)

    done = town.var / "listener-done"
    writer = shell(town, WRITE.format(writer=writer_id, rounds=ROUNDS, channels=CHANNELS, done=str(done)))
    got: list[int] = []
    acked = 0
    restarts = 0
    again_checked = False
    since: int | None = None
    try:
        while True:
            finished = writer.poll() is not None
            page = listen(s) if since is None else listen(s, since=since)
            seqs = [i["seq"] for i in page["items"]]
            acked = max(acked, page["since"])
            assert seqs == sorted(seqs) and all(q > acked for q in seqs), (acked, seqs)
            got.extend(seqs)
            if finished and not page["more"]:
                break
            if seqs and restarts < 3:
                # The town stops before this page is acknowledged: after the restart, the same items
                # come first again.
                town.stop()
                town.start()
                restarts += 1
                again = listen(s)
                assert [i["seq"] for i in again["items"]][: len(seqs)] == seqs
                assert again["items"][: len(seqs)] == page["items"]
                again_checked = True
                if restarts == 3:
                    done.touch()
            since = page["next"]
            time.sleep(0.05)
    finally:
        if writer.poll() is None:
            writer.kill()
        _, err = writer.communicate(timeout=60)
    assert writer.returncode == 0, err
    assert restarts == 3 and again_checked

    written = {
        row[0] for row in sql(town, "SELECT seq FROM switchboard_event WHERE kind = 'message' AND text LIKE 'live %%'")
    }
    assert len(written) >= ROUNDS * len(CHANNELS)
    assert set(got) == written
    s.delete()
