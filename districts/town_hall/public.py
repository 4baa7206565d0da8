"""What anyone may read of the census, for the town's read API (clockford/api): the census's own
summary and seal, its lots a page at a time, and one lot's record with its deductions in full. All of
it is the census the town serves to every agent (look_around, enter, signal_kit): nothing private."""

from typing import Any

from districts.town_hall import services
from districts.town_hall.models import Lot

PAGE_SIZE = 100


def summary() -> dict[str, Any]:
    """The census's name, counts and seal, as look_around's town block has them, and its source line."""
    return {**services.town_summary(), "source": services.source_line()}


def lots_page(page: int) -> tuple[int, list[dict[str, Any]]]:
    """The census's lot count and one page (from 1) of its lots, in lot order."""
    start = (page - 1) * PAGE_SIZE
    rows = Lot.objects.order_by("number").values_list("record", flat=True)[start : start + PAGE_SIZE]
    items = [
        {
            "lot": r["lot"],
            "name": r["name"],
            "title": r["title"],
            "status": r["status"],
            "integrity": r["integrity"]["score"],
            "houseClass": r["house"]["class"],
            "lampLit": r["house"]["lampLit"],
        }
        for r in rows
    ]
    return Lot.objects.count(), items


def lot(value: int | str) -> dict[str, Any] | None:
    """One lot's sealed record, its deductions in full, its neighbours and its seal proof; None when
    the census holds no such lot."""
    found = services.find_lot(value)
    if found is None:
        return None
    return {
        "server": found.record,
        "deductions": found.deductions,
        "neighbors": services.neighbors(found),
        "note": services.enter_note(found),
        "seal": services.inclusion_proof(found.number),
    }
