"""Calls in process through the real desk, as the face hands them over, for every district's tests
(after healthchecks' hc/test.py): personas are in districts/conftest.py."""

from typing import Any

from django.utils import timezone

from clockford.town import desk
from clockford.town.models import Footstep, Passport
from districts.registry import START_PLACE, TOOLS


def new_passport() -> Passport:
    now = timezone.now()
    return Passport.objects.create(issued_at=now, last_seen=now, place=START_PLACE)


def visit(passport: Passport, tool: str, **arguments: Any) -> desk.Rendered:
    """One call of `tool` by `passport`, with arguments the face has already let through. The passport
    is read anew first, as each HTTP request reads it (a person may have decided in between)."""
    passport.refresh_from_db()
    return desk.run(TOOLS[tool], arguments, passport, None)


def outcome(r: desk.Rendered) -> str:
    """The outcome code the Archive recorded for this reply's footstep."""
    assert r.footstep is not None
    return Footstep.objects.get(number=r.footstep).outcome
