"""Two server processes of one town: sessions live in the database, so either process serves any session."""

from collections.abc import Callable

from tests.e2e.test_http_rows import NOT_FOUND_SESSION, TOOLS_LIST, assert_plain, sql
from tests.support import RawSession, Town

TownFactory = Callable[..., Town]


def on(session: RawSession, town: Town) -> RawSession:
    """The same session, spoken to another process of the town."""
    session.url = town.mcp
    return session


def test_a_session_opened_on_one_process_is_served_by_the_other(town_factory: TownFactory) -> None:
    a = town_factory().start()
    b = town_factory(share=a).start()
    assert a.port != b.port

    s = RawSession(a.mcp, client_name="two-process-agent")
    first = s.call("show_passport")["structuredContent"]

    kept = on(s, b).call("remember", {"key": "where", "value": "kept on B"})
    assert kept["isError"] is False, kept
    assert kept["structuredContent"]["keys"] == 1
    got = on(s, a).call("recall", {"key": "where"})["structuredContent"]
    assert got["value"] == "kept on B"

    # One passport throughout: the footsteps of both processes count on it, in order.
    on_b = on(s, b).call("show_passport")["structuredContent"]
    on_a = on(s, a).call("show_passport")["structuredContent"]
    assert first["passport"] == on_b["passport"] == on_a["passport"]
    assert (first["footsteps"], on_b["footsteps"], on_a["footsteps"]) == (1, 4, 5)
    assert on_a["poBoxKeys"] == 1 and on_a["issuedAt"] == first["issuedAt"]
    assert on(s, b).call("look_around")["structuredContent"]["you"]["passport"] == first["passport"]
    rows = sql(b, "SELECT client_name FROM town_passport WHERE id = %s", (first["passport"],))
    assert rows == [("two-process-agent",)]

    # Ended on B, it is ended on A too.
    assert on(s, b).delete() == 200
    assert_plain(on(s, a).post(TOOLS_LIST), 404, NOT_FOUND_SESSION)
    assert on(s, a).delete() == 404


def test_a_restart_loses_no_session(town_factory: TownFactory) -> None:
    a = town_factory().start()
    s = RawSession(a.mcp)
    kept = s.call("remember", {"key": "k", "value": "before the restart"})["structuredContent"]
    a.stop()
    a.start()
    assert s.call("recall", {"key": "k"})["structuredContent"]["value"] == "before the restart"
    assert s.call("show_passport")["structuredContent"]["footsteps"] == 3
    assert kept["keys"] == 1
    s.delete()
