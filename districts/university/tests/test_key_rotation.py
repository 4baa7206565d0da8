"""When the town key rotates, the course key changes with it: old course versions keep verifying with
the key that signed them, new attendance is signed with the new key, and the Foundry still reads slips
signed before the rotation."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

from clockford.town import signing
from clockford.town.models import Passport
from districts.testing import visit


@pytest.fixture
def rotate(tmp_path: Path) -> Iterator[object]:
    old = settings.CLOCKFORD["KEY_FILE"]

    def to_new_key() -> None:
        settings.CLOCKFORD["KEY_FILE"] = tmp_path / "rotated.key"
        signing._seed.cache_clear()
        signing._digest_key.cache_clear()

    yield to_new_key
    settings.CLOCKFORD["KEY_FILE"] = old
    signing._seed.cache_clear()
    signing._digest_key.cache_clear()


def test_old_courses_verify_with_their_key_and_new_slips_carry_the_new_one(alice: Passport, rotate) -> None:  # type: ignore[no-untyped-def]
    before = visit(alice, "attend", course="ten-habits").structured
    old_key = visit(alice, "courses").structured["key"]
    rotate()
    new_key = visit(alice, "courses").structured["key"]
    assert new_key["id"] != old_key["id"]
    after = visit(alice, "attend", course="ten-habits").structured
    # The course version was signed once, with the key of its day, and still verifies with it.
    assert after["signed"] == before["signed"] and signing.verify_signed(after["signed"])
    assert after["signed"]["publicKey"] == old_key["publicKey"]
    # The new slip is signed with the new course key, and says so.
    assert after["slip"]["publicKey"] == new_key["publicKey"] and after["slip"]["statement"]["key"] == new_key["id"]
    assert signing.verify_signed(after["slip"]) and signing.verify_signed(before["slip"])
    papers = [before["slip"], visit(alice, "attend", course="words-are-data").structured["slip"]]
    papers.append(visit(alice, "attend", course="notes-and-letters").structured["slip"])
    keys = visit(alice, "foundry").structured["keys"]
    assert {k["id"] for k in keys["papers"]} == {old_key["id"], new_key["id"]}
    cast = visit(alice, "foundry_cast", slips=papers)
    assert cast.is_error is False, cast.structured
