"""The town's own files carry an ETag of their bytes: a browser that has them is answered 304, and a file
that changes on disk gets a new ETag at once (each worker keeps a file's hash while its size and
modification time stay the same)."""

import os
from pathlib import Path

import pytest
from django.test import Client

from clockford import files


def test_a_file_it_has_is_answered_304(client: Client) -> None:
    first = client.get("/static/hall/hall.css")
    assert first.status_code == 200 and first["ETag"]
    again = client.get("/static/hall/hall.css", headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304 and again["ETag"] == first["ETag"]


@pytest.mark.parametrize("url", ["/static/hall/hall.css", "/static/public/map.js"])
def test_a_304_says_no_content_type_a_cache_would_keep(client: Client, url: str) -> None:
    # A cache replaces the headers of the file it kept with the 304's (RFC 9111 section 4.3.4): a 304
    # that said text/html would turn the kept script into a page nosniff refuses to run.
    etag = client.get(url)["ETag"]
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and not again.has_header("Content-Type")


@pytest.mark.parametrize("url", ["/static/hall/hall.css", "/static/public/map.js"])
def test_if_none_match_is_read_as_a_list_of_tags_compared_weakly(client: Client, url: str) -> None:
    etag = client.get(url)["ETag"]
    for given in (f"W/{etag}", f'"elsewhere", {etag}', f'W/"x",W/{etag}', "*"):
        again = client.get(url, headers={"If-None-Match": given})
        assert (again.status_code, again.content) == (304, b""), given
    for given in ('"elsewhere"', etag.strip('"'), f"{etag}x", ", ,", "\u00e9"):
        assert client.get(url, headers={"If-None-Match": given}).status_code == 200, given


def test_a_file_that_changes_gets_a_new_etag(tmp_path: Path) -> None:
    path = tmp_path / "style.css"
    path.write_text("body { color: black; }")
    data, etag = files._read(str(path))
    assert files._read(str(path)) == (data, etag)
    path.write_text("body { color: navy; }")
    os.utime(path, ns=(1, 1))  # even when the clock's grain hides the write, the time differs
    changed, new = files._read(str(path))
    assert changed == b"body { color: navy; }" and new != etag


@pytest.mark.parametrize("path", ["/static/hall/", "/static/hall/.", "/static/public/.", "/static/hall/%2e/"])
def test_a_directory_is_not_found(client: Client, path: str) -> None:
    assert client.get(path).status_code == 404


@pytest.mark.parametrize("path", ["/map", "/feed/x", "/Hall/", "/status/"])
def test_a_browser_is_told_where_to_go_and_a_client_gets_the_plain_words(client: Client, path: str) -> None:
    page = client.get(path, headers={"Accept": "text/html,application/xhtml+xml"})
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")
    body = page.content.decode()
    assert "The town has no page at this address." in body and 'href="/"' in body and 'href="/hall/"' in body
    plain = client.get(path)
    assert (plain.status_code, plain.content, plain["Content-Type"]) == (
        404,
        b"Not found.",
        "text/plain; charset=utf-8",
    )


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/mcpx", "/api/nothing", "/.well-known/nothing"])
def test_the_machines_paths_answer_plain_words_even_to_a_browser(client: Client, path: str) -> None:
    r = client.get(path, headers={"Accept": "text/html"})
    assert (r.status_code, r.content) == (404, b"Not found.")
