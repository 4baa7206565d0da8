"""The counts behind 001's "Too many requests. Try again later." in process (clockford/town/limits.py);
tests/e2e/test_limits.py sends the rows over HTTP, across two processes of one town."""

from typing import Any

import pytest
from django.db import connection

from clockford.face import checks
from clockford.face.tests.test_checks import every_road
from clockford.town import limits
from clockford.town.models import Tally
from tests.support import clear_of_a_window_edge, statements_seen

pytestmark = pytest.mark.django_db


@pytest.fixture
def small(settings: Any) -> dict[str, Any]:
    c = {
        **settings.CLOCKFORD,
        "REQUESTS_PER_ADDRESS": 3,
        "REQUESTS_PER_ACCOUNT": 2,
        "REQUEST_WINDOW_SECONDS": 60,
        "FAILURES_PER_ADDRESS": 2,
        "FAILURE_HOLD_SECONDS": 120,
    }
    settings.CLOCKFORD = c
    clear_of_a_window_edge(60, 2)
    return c


def test_limits_are_counted_after_the_token_and_before_any_session(small: dict[str, Any]) -> None:
    sessions = (checks.session_named, checks.token_owns_session, checks.session_there, checks.token_passport)
    for road in every_road():
        if road == checks.OTHER_METHODS:  # refused before anything is asked of the database
            continue
        counts = [c for c in (checks.within_limits, checks.count_later) if c in road]
        for count in counts:
            assert road.index(checks.token) < road.index(count)
        later = [i for i, c in enumerate(road) if c in sessions]
        assert counts and all(road.index(counts[0]) < i for i in later), road
    for route in checks.ROUTES.values():
        assert checks.within_limits in route or checks.count_later in route
    # A POST's count is taken with its first trip to the database: every road but the hottest begins
    # with it, and the hottest takes it in the desk's own trip (server.admit, tested over HTTP in
    # tests/e2e/test_limits.py).
    for name, road in checks.ROADS.items():
        assert name == "call" or road[0] is checks.within_limits


def test_an_address_is_over_after_its_limit_until_the_window_ends(small: dict[str, Any]) -> None:
    assert [limits.count("10.0.0.1", None) for _ in range(3)] == [None, None, None]
    over = limits.count("10.0.0.1", None)
    assert over is not None and 1 <= over.retry_after <= 60
    assert limits.count("10.0.0.2", None) is None  # another address, its own count


def test_an_account_is_counted_on_its_own_row_from_any_address(small: dict[str, Any]) -> None:
    assert limits.count("10.0.0.1", "7") is None
    assert limits.count("10.0.0.2", "7") is None
    assert limits.count("10.0.0.3", "7") is not None
    assert Tally.objects.get(pk="account:7").requests == 3


def test_a_new_window_starts_the_count_over(small: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    for _ in range(4):
        limits.count("10.0.0.1", None)
    later = limits.time.time() + 60
    monkeypatch.setattr(limits.time, "time", lambda: later)
    assert limits.count("10.0.0.1", None) is None
    assert Tally.objects.get(pk="address:10.0.0.1").requests == 1


def test_failures_hold_an_address_back_across_windows(small: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    assert limits.failed("10.0.0.1") is None
    held = limits.failed("10.0.0.1")
    assert held is not None and 110 <= held.retry_after <= 120
    # Held back even for a request that is otherwise fine, and still in the next window.
    later = limits.time.time() + 60
    monkeypatch.setattr(limits.time, "time", lambda: later)
    over = limits.count("10.0.0.1", None)
    assert over is not None and over.retry_after <= 60
    assert limits.count("10.0.0.2", None) is None


def test_a_limit_of_zero_is_off(small: dict[str, Any]) -> None:
    small["REQUESTS_PER_ADDRESS"] = 0
    small["FAILURES_PER_ADDRESS"] = 0
    assert all(limits.count("10.0.0.1", None) is None for _ in range(10))
    assert all(limits.failed("10.0.0.1") is None for _ in range(10))


def test_session_limits_of_zero_are_off(settings: Any) -> None:
    """As every limit of the town: 0 is off (SESSIONS_PER_ADDRESS at 0 answered every initialize 500)."""
    from clockford.face import sessions

    settings.CLOCKFORD = {**settings.CLOCKFORD, "SESSIONS_IN_TOWN": 0, "SESSIONS_PER_ADDRESS": 0}
    opened = [sessions.open_session("10.0.0.1", "a") for _ in range(3)]
    assert not any(isinstance(s, sessions.NoRoom) for s in opened)
    assert sessions.room_in_town() is None


def test_room_in_town_is_read_on_initialize_before_any_passport_is_made() -> None:
    road = checks.ROADS["initialize"]
    assert road.index(checks.room_in_town) < road.index(checks.token_passport)
    for name, other in checks.ROADS.items():
        if name != "initialize":
            assert checks.room_in_town not in other  # the sessions already open go on


def test_the_town_is_full_at_its_ceiling_and_closed_to_visitors_by_staff(settings: Any) -> None:
    from clockford.face import sessions
    from clockford.town.models import TownState

    settings.CLOCKFORD = {**settings.CLOCKFORD, "SESSIONS_IN_TOWN": 2, "SESSIONS_PER_ADDRESS": 10}
    assert sessions.room_in_town() is None
    sessions.open_session("10.0.0.1", "a")
    ended = sessions.open_session("10.0.0.2", "b")
    assert sessions.room_in_town() == "full"
    assert not isinstance(ended, sessions.NoRoom) and sessions.end_session(ended.sid)
    assert sessions.room_in_town() is None
    TownState.welcome(False)
    assert sessions.room_in_town() == "closed to visitors"
    TownState.welcome(True)
    assert sessions.room_in_town() is None


def test_held_reads_the_hold_without_counting(small: dict[str, Any]) -> None:
    assert limits.held("10.0.0.1") is None
    assert not Tally.objects.filter(pk="address:10.0.0.1").exists()
    limits.failed("10.0.0.1")
    limits.failed("10.0.0.1")
    over = limits.held("10.0.0.1")
    assert over is not None and 110 <= over.retry_after <= 120
    assert Tally.objects.get(pk="address:10.0.0.1").requests == 0


def test_a_count_that_cannot_be_taken_is_lost_never_the_request(
    small: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.db import OperationalError

    class Locked:
        """A database whose lock is not had in time: every statement is refused."""

        vendor = "postgresql"

        def cursor(self) -> Any:
            raise OperationalError("database is locked")

    for _ in range(3):
        limits.count("10.0.0.1", None)
    limits.failed("10.0.0.2")  # the statements are built (and kept) before the lock is lost
    monkeypatch.setattr(limits, "connection", Locked())
    assert limits.count("10.0.0.1", None) is None  # over its limit, but the count could not be taken
    assert limits.failed("10.0.0.1") is None


def test_the_sweep_takes_rows_that_read_as_no_row(small: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    import datetime as dt

    from clockford.town import sweep

    limits.count("10.0.0.1", "7")
    limits.failed("10.0.0.2")
    limits.failed("10.0.0.2")  # held back for 120 s
    now = limits.time.time()
    assert limits.tidy(dt.datetime.fromtimestamp(now, dt.UTC)) == {"town_tally": 0}  # the window is current
    later = now + 61
    monkeypatch.setattr(limits.time, "time", lambda: later)
    # The window has passed: the counts go, the hold stays until it ends.
    assert sweep.run(dt.datetime.fromtimestamp(later, dt.UTC))["town_tally"] == 2
    assert list(Tally.objects.values_list("key", flat=True)) == ["address:10.0.0.2"]
    assert limits.held("10.0.0.2") is not None


READ = "SELECT 'found', %s UNION ALL SELECT 'again', %s"


def test_a_count_and_a_read_beside_it(small: dict[str, Any]) -> None:
    """limits.count_and_read, as the desk's trip for a tools/call uses it (server.admit): the request is
    counted exactly as count() counts it, and the read's rows come back whatever the verdict."""
    for _ in range(3):
        over, rows = limits.count_and_read("10.0.0.9", READ, ["a", "b"])
        assert over is None and sorted(rows) == [("again", "b"), ("found", "a")]
    over, rows = limits.count_and_read("10.0.0.9", READ, ["a", "b"])
    assert over is not None and 1 <= over.retry_after <= 60 and len(rows) == 2
    assert Tally.objects.get(pk=limits.address_key("10.0.0.9")).requests == 4
    assert limits.count_and_read("10.0.0.8", "SELECT 1 WHERE %s = 'no'", ["yes"]) == (None, [])


def test_on_postgresql_one_statement_counts_and_reads(small: dict[str, Any]) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite sends the count and the read apart: neither is a round trip there")
    with statements_seen() as sent:
        over, rows = limits.count_and_read("10.0.0.7", READ, ["a", "b"])
    assert over is None and len(rows) == 2
    assert len(sent) == 1


@pytest.mark.django_db(transaction=True)
def test_on_postgresql_a_count_does_not_wait_for_the_disk(small: dict[str, Any]) -> None:
    """A count commits without waiting for its flush to disk, and only the count: the connection's next
    transaction (a call's, whose footstep must not be lost) waits as before."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's commits are the town's pragma's (synchronous=NORMAL), count or call")
    with statements_seen() as sent:
        over, rows = limits.count_and_read("10.0.0.6", READ, ["a", "b"])
    assert over is None and len(rows) == 2 and Tally.objects.get(pk=limits.address_key("10.0.0.6")).requests == 1
    assert len(sent) == 1 and sent[0].startswith("SET LOCAL synchronous_commit TO OFF; WITH counted AS (")
    with connection.cursor() as c:
        c.execute("SHOW synchronous_commit")
        assert c.fetchone()[0] == "on"


def test_an_ipv6_address_counts_by_its_64_and_a_mapped_ipv4_as_its_ipv4(small: dict[str, Any]) -> None:
    """Every limit per address counted each IPv6 address alone, and a host usually holds a whole /64:
    one host had 2^64 limits of its own. Now a /64 is one address, as is an IPv4 address however it is
    written."""
    assert [
        limits.counted_as(a)
        for a in ("203.0.113.7", "::ffff:203.0.113.7", "2001:DB8:a:b:1:2:3:4", "fe80::1%eth0", "::1", "unknown")
    ] == ["203.0.113.7", "203.0.113.7", "2001:db8:a:b::/64", "fe80::/64", "::1", "unknown"]
    # An IPv4 address carried in an IPv6 one is that address (each IPv4 host had one bucket between them
    # all), and a 6to4 host is counted by the /48 it holds.
    assert [limits.counted_as(a) for a in ("64:ff9b::203.0.113.7", "64:ff9b::198.51.100.1", "::203.0.113.7", "::")] == [
        "203.0.113.7",
        "198.51.100.1",
        "203.0.113.7",
        "::/64",
    ]
    assert (
        limits.counted_as("2002:cb00:7107:1:2::3")
        == limits.counted_as("2002:cb00:7107:ffff::9")
        == "2002:cb00:7107::/48"
    )
    # Requests on /mcp.
    assert [limits.count(a, None) for a in ("2001:db8:a:b::1", "2001:db8:a:b::2", "2001:db8:a:b:ffff::3")] == [None] * 3
    assert limits.count("2001:db8:a:b:1:2:3:4", None) is not None
    assert limits.count("2001:db8:a:c::1", None) is None  # the next /64
    assert Tally.objects.get(pk="address:2001:db8:a:b::/64").requests == 4
    assert [limits.count(a, None) for a in ("::ffff:10.0.0.9", "10.0.0.9", "::ffff:a00:9")] == [None] * 3
    assert limits.count("10.0.0.9", None) is not None
    # Failures, and the hold they bring.
    assert limits.failed("2001:db8:e:f::1") is None
    assert limits.failed("2001:db8:e:f::2") is not None
    assert limits.held("2001:db8:e:f:9::9") is not None and limits.held("2001:db8:e:10::1") is None
    # The hall's passkey ceremonies.
    small["CEREMONIES_PER_ADDRESS"] = 1
    assert limits.count_ceremony("2001:db8:c::1") is None
    assert limits.count_ceremony("2001:db8:c::2") is not None


def test_sessions_per_address_count_an_ipv6_address_by_its_64(settings: Any) -> None:
    from clockford.face import sessions

    settings.CLOCKFORD = {**settings.CLOCKFORD, "SESSIONS_PER_ADDRESS": 1}
    opened = sessions.open_session("2001:db8:5:6::1", "a")
    assert not isinstance(opened, sessions.NoRoom) and opened.session.address == "2001:db8:5:6::/64"
    assert isinstance(sessions.open_session("2001:db8:5:6:7::1", "b"), sessions.NoRoom)
    assert sessions.sessions_from("2001:db8:5:6::99") == 1
    assert not isinstance(sessions.open_session("2001:db8:5:7::1", "c"), sessions.NoRoom)
    assert not isinstance(sessions.open_session("::ffff:192.0.2.1", "d"), sessions.NoRoom)
    assert isinstance(sessions.open_session("192.0.2.1", "e"), sessions.NoRoom)
