"""The town's security headers on the answers given without Django: a Host the town does not answer to,
on any path, is refused with the same frame denial, CSP and nosniff as every page. /mcp's own answers
are checked on a real town (tests/e2e/test_http_rows.py): a call in process would start the town's
loops, which outlive a test."""

import pytest
from channels.testing import HttpCommunicator

from clockford.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

CSP = "default-src 'self'; frame-ancestors 'none'; object-src 'none'"


@pytest.mark.parametrize("path", ["/", "/feed", "/feed.atom", "/town/now", "/api/map", "/status", "/hall/", "/mcp"])
async def test_a_host_the_town_does_not_answer_to_is_refused_with_the_security_headers(path: str) -> None:
    answer = await HttpCommunicator(application, "GET", path, headers=[(b"host", b"evil.example")]).get_response()
    headers = {name.decode().lower(): value.decode() for name, value in answer["headers"]}
    assert (answer["status"], answer["body"]) == (403, b"This town answers only on this machine.")
    assert headers["x-frame-options"] == "DENY"
    assert headers["content-security-policy"] == CSP
    assert headers["x-content-type-options"] == "nosniff"


async def test_a_page_keeps_its_own_headers_once_each() -> None:
    answer = await HttpCommunicator(application, "GET", "/status", headers=[(b"host", b"127.0.0.1")]).get_response()
    names = [name.decode().lower() for name, _ in answer["headers"]]
    assert answer["status"] == 200
    for name in ("x-frame-options", "content-security-policy", "x-content-type-options"):
        assert names.count(name) == 1, name
