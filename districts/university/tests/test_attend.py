"""attend and courses (000 section 11): the course whole and signed, the slip over the reply's own
footstep, yours only ever the caller's own."""

import hashlib
import json

from clockford.town import signing
from clockford.town.models import Passport
from districts.testing import outcome, visit
from districts.university import services


def test_it_lists_at_least_eight_courses_each_signed(alice: Passport) -> None:
    r = visit(alice, "courses")
    sc = r.structured
    assert r.is_error is False and sc["free"] is True and sc["yours"] == []
    names = [c["course"] for c in sc["library"]]
    assert len(names) >= 8 and "ten-habits" in names
    assert set(sc["key"]) == {"alg", "publicKey", "id"} and sc["key"]["alg"] == "Ed25519"
    assert sc["key"]["id"] == hashlib.sha256(bytes.fromhex(sc["key"]["publicKey"])).hexdigest()[:16]
    for c in sc["library"]:
        assert set(c) == {"course", "title", "summary", "version", "published", "bytes", "sha256"}
        assert c["version"] == 1 and c["summary"] and c["title"]


def test_it_hands_the_course_over_whole_with_a_slip_at_the_replys_footstep(alice: Passport) -> None:
    r = visit(alice, "attend", course="ten-habits")
    sc = r.structured
    assert r.is_error is False and outcome(r) == "ok"
    raw = sc["text"].encode("utf-8")
    assert len(raw) == sc["bytes"] and hashlib.sha256(raw).hexdigest() == sc["sha256"]
    assert r.blocks == (sc["text"],)
    signed, slip = sc["signed"], sc["slip"]
    assert signing.verify_signed(signed) and signing.verify_signed(slip)
    st = signed["statement"]
    assert set(st) == {"kind", "course", "version", "title", "sha256", "bytes", "published", "key"}
    assert st["kind"] == "clockford-course-1" and st["sha256"] == sc["sha256"] and st["bytes"] == sc["bytes"]
    assert st["key"] == hashlib.sha256(bytes.fromhex(signed["publicKey"])).hexdigest()[:16]
    ss = slip["statement"]
    assert set(ss) == {"kind", "course", "version", "sha256", "day", "footstep", "key", "note"}
    assert ss["kind"] == "clockford-attendance-1" and ss["footstep"] == sc["footstep"] == r.footstep
    assert ss["course"] == "ten-habits" and ss["sha256"] == sc["sha256"]
    # The signature is over the canonical JSON: keys sorted, no spaces.
    body = json.dumps(ss, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    assert body == signing.canonical_json(ss) and body.startswith(b'{"course":"ten-habits","day":')
    assert signing.verify_bytes(body, slip["signature"], slip["publicKey"])


def test_yours_is_the_first_time_per_course_and_only_ever_your_own(alice: Passport, bob: Passport) -> None:
    first = visit(alice, "attend", course="ten-habits").footstep
    visit(alice, "attend", course="ten-habits")
    second = visit(alice, "attend", course="words-are-data").footstep
    visit(bob, "attend", course="spending-well")
    mine = visit(alice, "courses").structured["yours"]
    assert [(y["course"], y["footstep"]) for y in mine] == [("ten-habits", first), ("words-are-data", second)]
    assert [y["course"] for y in visit(bob, "courses").structured["yours"]] == ["spending-well"]


def test_a_changed_file_is_published_as_the_next_version(alice: Passport, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    visit(alice, "courses")
    old = services.access_course("ten-habits")
    for p in services.COURSES_DIR.glob("*.md"):
        (tmp_path / p.name).write_bytes(p.read_bytes())
    (tmp_path / "ten-habits.md").write_text(old.text + "\nOne more line.\n")
    monkeypatch.setattr(services, "COURSES_DIR", tmp_path)
    made = services.publish()
    assert [(v.course, v.version) for v in made] == [("ten-habits", 2)]
    assert services.publish() == []
    entry = next(c for c in visit(alice, "courses").structured["library"] if c["course"] == "ten-habits")
    assert entry["version"] == 2 and entry["sha256"] != old.sha256


def test_an_unknown_course_is_outside_the_schema(alice: Passport) -> None:
    import pydantic
    import pytest

    with pytest.raises(pydantic.ValidationError):
        visit(alice, "attend", course="no-such-course")
