"""docs/integrity.md documents exactly the rules the code has: ids, points and the field that clears each."""

import re
from pathlib import Path

from districts.town_hall import integrity

DOC = Path(__file__).resolve().parents[3] / "docs" / "integrity.md"
ROW = re.compile(r"^\| `([a-z-]+)` \| (\d+) \| *([a-z.]*) *\|", re.MULTILINE)


def documented() -> list[tuple[str, int, str | None]]:
    return [(rule, int(points), clears or None) for rule, points, clears in ROW.findall(DOC.read_text())]


def test_the_doc_lists_every_rule_of_the_code_in_order() -> None:
    assert documented() == [(r.id, r.points, r.clears) for r in integrity.RULES]


def test_the_checklist_fields_are_the_four_of_the_signal_house() -> None:
    assert {c for _, _, c in documented() if c} == set(integrity.CHECKLIST)


def test_the_doc_states_the_house_thresholds_the_code_uses() -> None:
    text = DOC.read_text()
    for floor, cls, meaning in integrity.CLASSES:
        assert f"`{cls}` {floor}" in text or (floor == 0 and f"`{cls}` below" in text)
        assert meaning[0].lower() + meaning[1:-1] in text
    assert f"at most {integrity.LAMP_DAYS} days" in text
    assert f"more than {integrity.STALE_DAYS} days" in text
    assert f"{integrity.SHARED_HOST_OTHERS} or more other lots" in text
