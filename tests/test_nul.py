"""A NUL anywhere in a request to the town's pages is 001's "Bad request." (clockford/nul.py), before
any view reads it: on PostgreSQL each of these was a 500, the database refusing the character at
whichever query met it first (an OAuth client's id, a hold's id in a path, a passkey's id)."""

import json

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def refused(response: object) -> bool:
    """001's Bad request., or on OAuth's endpoints the same refusal as OAuth's clients read one."""
    status, content = getattr(response, "status_code", None), getattr(response, "content", b"")
    if status != 400:
        return False
    if content.startswith(b"{"):
        return json.loads(content) == {
            "error": "invalid_request",
            "error_description": "A request may hold no NUL character.",
        }
    return content == b"Bad request."


def test_a_nul_in_a_path_a_query_a_form_or_json_is_bad_request(client: Client) -> None:
    assert client.get("/").status_code == 200
    assert refused(client.get("/hall/holds/%00"))
    assert refused(client.get("/oauth/authorize", {"client_id": "\x00"}))
    assert refused(client.get("/", {"q\x00": "lamps"}))
    assert refused(client.post("/oauth/token", {"grant_type": "authorization_code", "code": "\x00", "client_id": "x"}))
    assert refused(
        client.post("/oauth/revoke", "token=a&client_id=%00", content_type="application/x-www-form-urlencoded")
    )
    registration = json.dumps({"redirect_uris": ["http://127.0.0.1:9/c\x00b"], "client_name": "Lamp"})
    assert refused(client.post("/oauth/register", registration, content_type="application/json"))
    body = json.dumps({"credential": {"id": "lamp\u0000"}})
    assert "\\u0000" in body
    assert refused(client.post("/hall/signin/finish", body, content_type="application/json"))
    assert refused(client.post("/hall/signin/finish", b'{"id": "a\x00"}', content_type="text/plain"))


def test_text_that_only_looks_like_one_goes_through(client: Client) -> None:
    # "%00" typed as text in a form is a percent sign and two zeros once decoded, not a NUL.
    response = client.post("/oauth/token", {"grant_type": "authorization_code", "code": "%00", "client_id": "x"})
    assert not refused(response), response.content
    assert client.get("/", {"q": "100%00"}).status_code == 200


def test_a_body_too_large_to_read_is_bad_request_without_a_traceback(
    client: Client, settings: object, caplog: pytest.LogCaptureFixture
) -> None:
    """Django refuses a body past DATA_UPLOAD_MAX_MEMORY_SIZE and logs a traceback for it: anyone could
    fill the log so. The town refuses it first, with the same words, and logs nothing."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000  # type: ignore[attr-defined]
    big = json.dumps({"credential": {"id": "x" * 2000}})
    with caplog.at_level("DEBUG"):
        assert refused(client.post("/hall/signin/finish", big, content_type="application/json"))
        response = client.post("/oauth/register", big, content_type="application/json")
    assert response.status_code == 400
    assert json.loads(response.content) == {
        "error": "invalid_request",
        "error_description": "The request is too large.",
    }
    assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records]


def test_a_form_that_cannot_be_read_is_bad_request_without_a_traceback(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    """A multipart body without its boundary, or a form or query of more than Django's 1,000 fields:
    Django refuses each as 001's "Bad request." and logged a traceback for it, which anyone could fill
    the log with. The door refuses them first, with the same words."""
    many = "&".join(f"f{i}=1" for i in range(1001))
    with caplog.at_level("DEBUG"):
        answers = [
            client.post("/status", "x", content_type="multipart/form-data"),
            client.post("/status", many, content_type="application/x-www-form-urlencoded"),
            client.get(f"/status?{many}"),
            client.get(f"/hall/?{many}"),
        ]
        oauth = client.post("/oauth/token", "x", content_type="multipart/form-data")
    for response in answers:
        assert (response.status_code, response.content) == (400, b"Bad request."), response.content
        assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert (oauth.status_code, json.loads(oauth.content)) == (
        400,
        {"error": "invalid_request", "error_description": "The request could not be read."},
    )
    # Django's own line for every 4xx ("Bad Request: /status") is the one line each leaves.
    lines = [r.getMessage() for r in caplog.records]
    assert not [r for r in caplog.records if r.exc_info] and len(lines) <= len(answers) + 1, lines
