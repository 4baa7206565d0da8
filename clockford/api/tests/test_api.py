"""The read API in process: every endpoint's answer against its schema and the town's own data, the
OpenAPI document validated, proofs that verify, reads only with CORS, the town's request limits and
security headers, and no private value in any answer."""

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from openapi_spec_validator import validate

from clockford.town import archive, merkle
from clockford.town.models import Footstep
from clockford.town.tests.test_archive import make_footsteps
from districts.testing import new_passport, outcome, visit
from districts.town_hall import ingest
from districts.town_hall.tests.base import listing
from tests import fixtures
from tests.support import clear_of_a_window_edge

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[3]


def get(client: Client, path: str, **headers: str) -> tuple[int, Any]:
    r = client.get(path, headers=headers)
    body = r.json() if r["Content-Type"].startswith("application/json") else r.content.decode()
    return r.status_code, body


@pytest.fixture
def demo_census() -> None:
    fixtures.demo_census()


@pytest.fixture
def folded() -> list[int]:
    numbers = make_footsteps(40)
    archive.fold(limit=10)
    archive.fold(limit=15)
    archive.fold_all()
    return numbers


def test_the_openapi_document_validates_and_types_every_endpoint(client: Client) -> None:
    status, doc = get(client, "/api/openapi.json")
    assert status == 200
    validate(doc)  # OpenAPI 3.1, by openapi-spec-validator
    paths = doc["paths"]
    assert set(paths) == {
        "/api/",
        "/api/map",
        "/api/feed",
        "/api/counts",
        "/api/census",
        "/api/census/lots",
        "/api/census/lots/{lot}",
        "/api/archive/checkpoint",
        "/api/archive/checkpoints",
        "/api/archive/checkpoints/{size}",
        "/api/archive/proof/{footstep}",
        "/api/archive/consistency",
    }
    for route, methods in paths.items():
        assert set(methods) == {"get"}, route
        for status_code, answer in methods["get"]["responses"].items():
            schema = answer["content"]["application/json"]["schema"]
            assert "$ref" in schema, (route, status_code)  # a named, typed schema, never a bare object
        # Every answer an endpoint gives is described: the door's refusal of a NUL (400) on each, and
        # the refusal of an argument it cannot read (422, with pydantic's detail) on each that takes one.
        # They were not, and a client made from the description met answers it did not know.
        answers = methods["get"]["responses"]
        assert answers["400"]["content"]["application/json"]["schema"]["$ref"].endswith("/Refusal"), route
        if methods["get"].get("parameters"):
            assert answers["422"]["content"]["application/json"]["schema"]["$ref"].endswith("/Unreadable"), route
        else:
            assert "422" not in answers, route
    assert set(doc["components"]["schemas"]["Unreadable"]["properties"]) == {"say", "detail"}
    assert client.get("/api/docs").status_code == 200


ARGUMENTS = {"lot": "0", "size": "40", "footstep": None, "page": "1", "first": "10", "second": "40"}
DOCS_ROW = re.compile(r"^\| `GET (/api/[^`?]*)(?:\?([^`]*))?` \|", re.MULTILINE)


def test_the_index_names_every_endpoint_the_docs_list_and_each_answers(
    client: Client, demo_census: None, folded: list[int]
) -> None:
    """/api led to /api/, a 404: it is the index of the endpoints, each with its query's arguments."""
    assert client.get("/api").headers["Location"] == "/api/"
    status, index = get(client, "/api/")
    assert status == 200
    assert (index["name"], index["docs"], index["openapi"]) == ("Clockford read API", "/api/docs", "/api/openapi.json")
    named = {e["path"]: e["query"] for e in index["endpoints"]}
    listed = {
        where: [arg.split("=")[0] for arg in query.split("&")] if query else []
        for where, query in DOCS_ROW.findall((ROOT / "docs" / "api.md").read_text())
    }
    assert named == {where: query for where, query in listed.items() if where != "/api/"}
    assert len(named) == 11 and all(e["summary"] for e in index["endpoints"])
    given = {**ARGUMENTS, "footstep": str(folded[0])}
    for where, query in named.items():
        url = re.sub(r"\{(\w+)\}", lambda m: given[m.group(1)], where)
        url += "?" + "&".join(f"{q}={given[q]}" for q in query) if query else ""
        status, answer = get(client, url)
        assert status == 200, (url, answer)
    assert get(client, index["docs"])[0] == get(client, index["openapi"])[0] == 200


def test_api_without_its_slash_is_the_apis_own_redirect(client: Client) -> None:
    """Django's slash-adding redirect was made outside the API's middleware: no CORS header (a page
    elsewhere could not follow it), and a POST was redirected rather than refused."""
    r = client.get("/api", headers={"Origin": "https://elsewhere.example"})
    assert (r.status_code, r["Location"], r["Access-Control-Allow-Origin"]) == (301, "/api/", "*")
    r = client.post("/api")
    assert (r.status_code, r.content, r["Allow"]) == (405, b"The API only reads: use GET.", "GET, HEAD, OPTIONS")
    assert client.options("/api").status_code == 204


@pytest.mark.parametrize("url", ["/api/", "/api/census", "/api/feed?page=1", "/api/archive/checkpoint"])
def test_a_reader_that_holds_the_answer_is_answered_304(client: Client, folded: list[int], url: str) -> None:
    """A witness asking for the latest checkpoint again was sent it whole each time: If-None-Match was
    not read."""
    first = client.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag.startswith('"')
    again = client.get(url, headers={"If-None-Match": f'W/{etag}, "other"', "Origin": "https://e.example"})
    assert (again.status_code, again.content, again["ETag"], again["Access-Control-Allow-Origin"]) == (
        304,
        b"",
        etag,
        "*",
    )
    assert client.head(url, headers={"If-None-Match": etag}).status_code == 304
    head = client.head(url)
    assert (head.status_code, head.content, head["ETag"]) == (200, b"", etag)
    assert client.get(url, headers={"If-None-Match": '"other"'}).status_code == 200


def test_a_refusal_carries_no_etag(client: Client) -> None:
    assert "ETag" not in client.get("/api/census/lots/999")
    assert "ETag" not in client.get("/api/feed?page=x")


def test_the_census_and_its_lots(client: Client, demo_census: None) -> None:
    status, census = get(client, "/api/census")
    assert status == 200
    assert census["servers"] == 34 and census["seal"]["holds"] == 34
    assert census["census"].startswith("Clockford demo census")
    status, page = get(client, "/api/census/lots?page=1")
    assert status == 200 and page["lots"] == 34 and page["pages"] == 1
    assert [x["lot"] for x in page["items"]] == list(range(34))
    status, lot = get(client, "/api/census/lots/30")
    assert status == 200
    assert lot["server"]["house"]["class"] in "ABCDEF"
    assert lot["server"]["integrity"]["score"] == 100 - sum(d["points"] for d in lot["deductions"])
    assert lot["seal"]["verified"] is True and lot["seal"]["root"] == census["seal"]["root"]
    assert get(client, "/api/census/lots/999") == (404, {"say": "No lot by that number."})


def test_a_lot_whose_listing_gives_odd_package_fields_is_served(client: Client) -> None:
    """A package whose registryType, identifier or version is a number, an object or a list, as a
    registry's odd entry may give: the record said them as given, and the API's schema (words or
    null) refused the lot with a 500. They read as absent."""
    odd = {"registryType": 5, "identifier": {"a": 1}, "version": [1], "transport": {"type": 7}}
    ingest.import_items([listing("com.a/odd-package", packages=[odd])], "tests")
    status, lot = get(client, "/api/census/lots/0")
    assert status == 200, lot
    assert lot["server"]["package"] == {"registryType": None, "identifier": None, "version": None, "transport": None}


def test_checkpoints_and_their_proofs_verify(client: Client, folded: list[int]) -> None:
    status, latest = get(client, "/api/archive/checkpoint")
    assert status == 200 and latest["size"] == 40
    assert latest["checkpoint"] == archive.checkpoint_body(40, bytes.fromhex(latest["root"])).decode()
    status, page = get(client, "/api/archive/checkpoints")
    assert [c["size"] for c in page["items"]] == [40, 25, 10]
    status, proof = get(client, f"/api/archive/proof/{folded[7]}")
    assert status == 200 and proof["verifies"] is True and proof["size"] == 40
    status, c = get(client, "/api/archive/consistency?first=10&second=40")
    assert status == 200 and c["verifies"] is True
    hashes = [bytes.fromhex(x) for x in c["proof"]]
    assert merkle.verify_consistency(10, 40, bytes.fromhex(c["first"]["root"]), bytes.fromhex(latest["root"]), hashes)
    assert get(client, "/api/archive/consistency?first=11&second=40") == (
        404,
        {"say": "The town signed no checkpoint of size 11."},
    )
    assert get(client, "/api/archive/checkpoints/41")[0] == 404
    # Two sizes the town signed, in the wrong order: arguments it cannot use together, 422 (it was 404,
    # as for a checkpoint the town lacks).
    assert get(client, "/api/archive/consistency?first=40&second=10") == (
        422,
        {"say": "The first size must be no larger than the second. What each endpoint takes is at /api/docs."},
    )


def test_a_damaged_archive_gives_no_proof_and_no_500(client: Client, folded: list[int]) -> None:
    """Leaves cut from under the latest checkpoint: a proof against it cannot be made, and the API says
    so in words (503), where it answered 500 (an IndexError) for a proof near the end."""
    from clockford.town.models import ArchiveLeaf
    from clockford.town.tests.test_archive import as_an_attacker

    with as_an_attacker("town_archiveleaf"):
        ArchiveLeaf.objects.filter(index__gte=33).delete()
    said = {
        "say": "The Archive in this database does not hold the 40 leaves its checkpoint signs, so no proof can be "
        "given; `manage.py archive verify` says what is wrong."
    }
    for number in (folded[31], folded[2]):
        assert get(client, f"/api/archive/proof/{number}") == (503, said)
    assert get(client, "/api/archive/consistency?first=25&second=40") == (503, said)
    # Below the cut, the tree of 25 is whole: its proofs still hold.
    status, c = get(client, "/api/archive/consistency?first=10&second=25")
    assert status == 200 and c["verifies"] is True


@pytest.mark.parametrize("number", ["99999999999999999999999", "9223372036854775808"])
def test_a_footstep_number_beyond_the_archive_is_not_found(client: Client, number: str) -> None:
    assert get(client, f"/api/archive/proof/{number}") == (
        404,
        {"say": f"Footstep #{number} is not in the tree (yet)."},
    )


@pytest.mark.parametrize("number", ["0", "-1", "-99999999999999999999999"])
def test_a_footstep_number_below_one_is_none_there_can_be(client: Client, number: str) -> None:
    """Footsteps are numbered from 1: "not in the tree (yet)" promised one that can never come."""
    assert get(client, f"/api/archive/proof/{number}") == (
        404,
        {"say": f"There is no footstep #{number}: footsteps are numbered from 1."},
    )


@pytest.mark.parametrize(
    ("url", "say"),
    [
        ("/api/feed?page=abc", "page (in the query): input should be a valid integer"),
        ("/api/census/lots?page=0", "page (in the query): input should be greater than or equal to 1"),
        ("/api/census/lots/1e3", "lot (in the path): input should be a valid integer"),
        # A number is its digits alone: "1_0" was read as lot 10, and "1.0", "+1", "01 " as lot 1.
        ("/api/census/lots/1_0", "lot (in the path): input should be a valid integer"),
        ("/api/census/lots/1.0", "lot (in the path): input should be a valid integer"),
        ("/api/census/lots/+1", "lot (in the path): input should be a valid integer"),
        ("/api/archive/proof/1_0", "footstep (in the path): input should be a valid integer"),
        ("/api/archive/checkpoints/%201", "size (in the path): input should be a valid integer"),
        ("/api/feed?page=1_0", "page (in the query): input should be a valid integer"),
        ("/api/census/lots?page=%2B1", "page (in the query): input should be a valid integer"),
        ("/api/archive/consistency?first=1.0&second=2", "first (in the query): input should be a valid integer"),
        ("/api/archive/consistency?first=x", "first (in the query): input should be a valid integer"),
        ("/api/archive/consistency?first=1", "second (in the query): field required"),
    ],
)
def test_an_argument_it_cannot_read_is_refused_in_words(client: Client, url: str, say: str) -> None:
    status, body = get(client, url)
    assert status == 422
    assert body["say"].startswith("The API could not read ") and say in body["say"], body
    assert body["say"].endswith("What each endpoint takes is at /api/docs.")
    assert body["detail"] and all("loc" in e and "msg" in e for e in body["detail"])


def test_reads_only_with_cors_for_any_origin(client: Client) -> None:
    r = client.get("/api/census", headers={"Origin": "https://elsewhere.example"})
    assert r["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in r
    # The town's own security headers, as on every page.
    assert r["X-Content-Type-Options"] == "nosniff"
    assert r["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in r["Content-Security-Policy"]
    head = client.head("/api/census")
    assert head.status_code == 200 and head.content == b"" and head["Access-Control-Allow-Origin"] == "*"
    assert int(head["Content-Length"]) == len(client.get("/api/census").content)
    pre = client.options("/api/census", headers={"Origin": "https://elsewhere.example"})
    assert pre.status_code == 204 and pre["Access-Control-Allow-Methods"] == "GET"
    for method in (client.post, client.put, client.delete, client.patch):
        r = method("/api/census")
        assert r.status_code == 405 and r.content == b"The API only reads: use GET."


@pytest.mark.parametrize("url", ["/api/feed?page=%00", "/api/census/lots/1%00", "/api/census?x=%00"])
def test_a_nul_in_an_api_request_is_refused_as_the_api_refuses(client: Client, url: str) -> None:
    """The town's door refuses a NUL anywhere in a request (clockford/nul.py); on the API, as the API
    refuses everything else, in JSON with CORS. It was text/plain without CORS, which a page on
    another origin could not even read."""
    r = client.get(url, headers={"Origin": "https://elsewhere.example"})
    assert r.status_code == 400 and r["Content-Type"] == "application/json"
    assert r.json() == {"say": "A request may hold no NUL character."}
    assert r["Access-Control-Allow-Origin"] == "*"


def test_the_api_is_counted_like_every_request(client: Client, settings: Any) -> None:
    settings.CLOCKFORD = {**settings.CLOCKFORD, "REQUESTS_PER_ADDRESS": 3, "REQUEST_WINDOW_SECONDS": 3600}
    clear_of_a_window_edge(3600, 5)
    statuses = [client.get("/api/census").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    r = client.get("/api/archive/checkpoint")
    assert r.content == b"Too many requests. Try again later." and int(r["Retry-After"]) >= 1


MARK = "PRIVATE-MARKER-7f3a"


def test_no_answer_shows_a_private_value(client: Client, demo_census: None) -> None:
    p = new_passport()
    # A marker in the private fields an agent can fill: a note, a letter to its person, a dispute of one
    # of its own footsteps, and a report.
    note = visit(p, "remember", key="diary", value=f"{MARK} a note")
    assert note.footstep is not None
    planted = [
        note,
        visit(p, "send_letter", subject=f"{MARK} subject", body=f"{MARK} a letter"),
        visit(p, "dispute", footstep=note.footstep, reason=f"{MARK} a dispute"),
        visit(p, "report_suspicious_instruction", quote=f"{MARK} a quote", where="enter"),
    ]
    # Each was taken (kept, or held for the person): the marker is in the town, just never public.
    assert [outcome(r).split(":")[0] for r in planted] == ["ok", "ok", "ok", "ok"], [outcome(r) for r in planted]
    visit(p, "context_gauge")
    visit(p, "look_around")
    archive.fold_all(settle=dt.timedelta(0))
    cp = archive.latest_checkpoint()
    assert cp is not None
    paths = [
        "/api/map",
        "/api/feed",
        "/api/counts",
        "/api/census",
        "/api/census/lots",
        "/api/census/lots/1",
        "/api/archive/checkpoint",
        "/api/archive/checkpoints",
        f"/api/archive/checkpoints/{cp.size}",
        f"/api/archive/consistency?first=1&second={cp.size}",
        "/api/openapi.json",
    ]
    numbers = list(Footstep.objects.values_list("number", flat=True))
    paths += [f"/api/archive/proof/{n}" for n in numbers]
    for path in paths:
        text = client.get(path).content.decode()
        assert MARK not in text, path
        assert p.id not in text, path  # not even which passport walked


def test_the_map_feed_and_counts_are_the_public_services_answers(client: Client, demo_census: None) -> None:
    from clockford.public import services as public

    p = new_passport()
    visit(p, "post_notice", text="Fresh bread at the Tavern tonight.")
    status, town_map = get(client, "/api/map")
    assert status == 200
    want = json.loads(json.dumps(public.the_map()))
    assert {k: v for k, v in town_map.items() if k != "at"} == {k: v for k, v in want.items() if k != "at"}
    status, feed = get(client, "/api/feed")
    assert status == 200 and feed == json.loads(json.dumps(public.the_feed(1)))
    assert get(client, "/api/counts") == (200, json.loads(json.dumps(public.daily_counts())))
