"""CLOCKFORD_BODY_SECONDS on every path, not only /mcp (clockford/face/deadline.py), as `./town up`
serves the town: uvicorn alone, which hands the town a body as it comes and sets no time limit of its
own. tests/e2e/test_http_rows.py holds /mcp's own row."""

from collections.abc import Callable

from hall.tests.oauth_agent import LiveWeb
from tests import support
from tests.support import Town, hall_of

TownFactory = Callable[..., Town]


def never_finished(town: Town, path: str, content_type: str) -> tuple[bytes, bytes, bytes, float]:
    """A hall page's (or /oauth's) POST whose body stops short, from the hall's own origin."""
    return support.never_finished(town, path, f"Content-Type: {content_type}\r\nOrigin: {hall_of(town)}\r\n", b"a=1&b=")


def test_a_hall_or_oauth_body_never_finished_is_answered_408_and_its_connection_closed(
    town_factory: TownFactory,
) -> None:
    """A hall page's POST, or /oauth's, whose body never finishes held its connection for ever under
    uvicorn; it now gets /mcp's answer in the same time. Whole bodies are served as before."""
    t = town_factory(env={"CLOCKFORD_BODY_SECONDS": "1"}, server="uvicorn").start()
    before = t.log.read_text(errors="replace")
    for path, content_type in (
        ("/hall/signin/begin", "application/x-www-form-urlencoded"),
        ("/oauth/register", "application/json"),
        ("/hall/no-such-page", "application/x-www-form-urlencoded"),  # Django reads a body before it routes
    ):
        status, headers, body, took = never_finished(t, path, content_type)
        assert status == b"HTTP/1.1 408 Request Timeout", (path, status, body[:200])
        assert body == b"The request's body did not arrive in time."
        assert b"connection: close" in headers.lower()
        assert 0.9 <= took < 5, (path, took)
    # A whole body, on the same town, is served as ever: the hall's sign-in ceremony begins.
    web = LiveWeb(hall_of(t))
    r = web.post("/hall/signin/begin")
    assert r.status == 200, r.text[:500]
    assert "Traceback" not in t.log.read_text(errors="replace")[len(before) :]
