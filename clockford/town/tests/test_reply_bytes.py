"""What the gauge counts of a reply (desk.reply_bytes): its bytes as sent, and a digest that leaves the
footstep out, so that a reply equal to an earlier one but for its number is seen as a repeat."""

import hashlib
from typing import Any

import pydantic_core

from clockford.town import desk
from clockford.town.tooling import Part


def rendered(fields: dict[str, Any], footstep: int | None, is_error: bool = False) -> desk.Rendered:
    return desk.render("Done.", fields, [Part("note", "agent-written", own=True)], footstep, is_error)


def test_bytes_are_the_reply_as_sent() -> None:
    r = rendered({"note": "café"}, 12)
    text, data, _ = desk.reply_bytes(r)
    assert data == len(r.structured_json()) and b'"footstep":12' in r.structured_json()
    assert text == len(r.text.encode("utf-8"))


def test_the_digest_leaves_the_footstep_out() -> None:
    digest = desk.reply_bytes(rendered({"note": "a"}, 12))[2]
    assert desk.reply_bytes(rendered({"note": "a"}, 913))[2] == digest
    assert desk.reply_bytes(rendered({"note": "b"}, 12))[2] != digest
    assert desk.reply_bytes(rendered({"note": "a"}, 12, is_error=True))[2] != digest
    assert desk.reply_bytes(rendered({"note": "a"}, None))[2] == digest  # no number at all: the same reply


def test_a_footstep_in_the_fields_is_not_the_one_left_out() -> None:
    """Fields may hold footsteps of their own (a list of events): only the reply's own number goes."""
    inner = {"events": [{"footstep": 12, "provenance": "x"}]}
    digest = desk.reply_bytes(rendered(inner, 12))[2]
    assert desk.reply_bytes(rendered(inner, 13))[2] == digest
    assert desk.reply_bytes(rendered({"events": [{"footstep": 11, "provenance": "x"}]}, 12))[2] != digest


def test_a_reply_shaped_otherwise_is_written_again_without_its_number() -> None:
    """A field named like the envelope's moves the footstep from its place: the digest is the same as
    the reply written without its number."""
    r = rendered({"provenance": "mine"}, 40)
    r2 = rendered({"provenance": "mine"}, 41)
    assert desk.reply_bytes(r)[2] == desk.reply_bytes(r2)[2]
    rest = {k: v for k, v in r.structured.items() if k != "footstep"}
    expected = b"0" + pydantic_core.to_json(rest)
    assert desk.reply_bytes(r)[2] == hashlib.sha256(expected).hexdigest()
