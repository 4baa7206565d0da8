"""The public map (services.the_map and the page at /): every district with its state, the agents
present by their pennants and where they stand, moved by walk_to and never by a private tool, the
Studios and the Market as their tools answer, and the day's rounded counts."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client

from clockford.public import services
from clockford.town import clock, walls
from clockford.town.models import Footstep, Passport
from districts.realty import services as realty
from districts.realty.tests.conftest import NAMES, number
from districts.realty.tests.test_claim_deed import give_deed
from districts.registry import DISTRICTS
from districts.studios.tests.test_studios import say_yes
from districts.testing import visit
from districts.town_hall.models import CensusState
from tests.fixtures import agent

pytestmark = pytest.mark.django_db


def flying(passport: Passport, pennant: str) -> Passport:
    Passport.objects.filter(pk=passport.pk).update(pennant=pennant)
    passport.refresh_from_db()
    return passport


def where(town: dict, pennant: str) -> list[str]:  # type: ignore[type-arg]
    return [d["name"] for d in town["districts"] if pennant in d["agents"]["pennants"]]


def test_it_lists_every_district_in_the_registrys_order_with_its_state(demo: CensusState) -> None:
    town = services.the_map()
    assert [d["name"] for d in town["districts"]] == [d.name for d in DISTRICTS]
    states = {d["name"]: d["status"] for d in town["districts"]}
    assert states["The Tavern"] == "open"
    # Every district of the spec is open now (the Arena and the Clinic were the last).
    assert set(states.values()) == {"open"}
    walls.raise_wall("district", "The Tavern", "staff are looking")
    walled = next(d for d in services.the_map()["districts"] if d["name"] == "The Tavern")
    assert walled["status"] == "walled off"
    assert walled["walledOff"]["safeDefault"] == "refuse and wait"
    assert walled["walledOff"]["since"].endswith("Z") or "+00:00" in walled["walledOff"]["since"]


def test_it_moves_an_agent_with_walk_to_and_never_with_a_private_tool(demo: CensusState) -> None:
    ada = flying(agent(None), "Ada's kite")
    assert where(services.the_map(), "Ada's kite") == []  # not present until it calls a public tool
    visit(ada, "look_around")
    assert where(services.the_map(), "Ada's kite") == [ada.place]
    visit(ada, "walk_to", to="The Tavern")
    assert where(services.the_map(), "Ada's kite") == ["The Tavern"]
    before = services.the_map()
    stamp = services.stamp()
    for tool in ("context_gauge", "studios", "market", "embassy", "foundry", "courses", "graduate"):
        r = visit(ada, tool)
        assert r.footstep is not None
    assert not visit(ada, "signal_kit", lot=0).is_error  # its footstep is private (000 section 15)
    assert not visit(ada, "attend", course="ten-habits").is_error  # so is attendance (section 11)
    after = services.the_map()
    assert where(after, "Ada's kite") == ["The Tavern"]
    assert {k: v for k, v in after.items() if k != "at"} == {k: v for k, v in before.items() if k != "at"}
    assert services.stamp() == stamp
    visit(ada, "walk_to", to="1")
    town = services.the_map()
    assert where(town, "Ada's kite") == []
    assert town["houses"] == [{"lot": 1, "agents": {"count": 1, "pennants": ["Ada's kite"], "more": 0, "noPennant": 0}}]
    assert services.stamp() != stamp


def test_an_agent_that_only_calls_private_tools_is_not_present(demo: CensusState) -> None:
    quiet = flying(agent(None), "quiet one")
    visit(quiet, "context_gauge")
    visit(quiet, "market")
    visit(quiet, "signal_kit", lot=0)
    visit(quiet, "attend", course="ten-habits")
    town = services.the_map()
    assert where(town, "quiet one") == []
    assert town["present"]["agents"] == 0


def test_an_agent_leaves_the_map_after_the_window(demo: CensusState) -> None:
    bo = flying(agent(None), "Bo")
    visit(bo, "look_around")
    assert where(services.the_map(), "Bo") == [bo.place]
    clock.advance(timedelta(minutes=services.PRESENT_MINUTES + 1))
    assert where(services.the_map(), "Bo") == []


def test_agents_without_a_pennant_are_counted_and_names_never_shown(demo: CensusState) -> None:
    plain = agent(None)
    visit(plain, "look_around")
    town = services.the_map()
    here = next(d for d in town["districts"] if d["name"] == plain.place)
    assert here["agents"] == {"count": 1, "pennants": [], "more": 0, "noPennant": 1}
    assert plain.id not in repr(town)


def test_a_crowd_shows_twelve_pennants_and_counts_the_rest(demo: CensusState) -> None:
    for i in range(15):
        visit(flying(agent(None), f"flag {i:02d}"), "walk_to", to="The Tavern")
    tavern = next(d for d in services.the_map()["districts"] if d["name"] == "The Tavern")["agents"]
    assert tavern["count"] == 15 and tavern["more"] == 3
    assert tavern["pennants"] == [f"flag {i:02d}" for i in range(12)]


def test_the_studios_and_the_market_are_the_same_answers_as_their_tools(realty_census: CensusState) -> None:
    ada = agent("ada")
    say_yes(give_deed(ada, number(NAMES[0])))
    clock.advance(timedelta(days=1))
    reader = agent(None)
    studios = visit(reader, "studios").structured
    market = visit(reader, "market").structured
    town = services.the_map()
    for key in ("day", "results", "showings", "creative"):
        assert town["gallery"][key] == studios[key]
    assert town["gallery"]["results"][0]["name"] == NAMES[0]
    for key in ("day", "stalls", "open", "order", "sponsorship"):
        assert town["marketDay"][key] == market[key]
    assert realty.find_deed(number(NAMES[0])) is not None


def test_the_days_counts_are_rounded_and_of_the_last_whole_day(demo: CensusState) -> None:
    drawer = agent(None)
    for _ in range(7):
        visit(drawer, "signal_kit", lot=0)
    for _ in range(6):
        visit(agent(None), "attend", course="ten-habits")
    today = services.daily_counts()
    assert today["kits"]["kits"] == 0  # the day still running is never counted
    clock.advance(timedelta(days=1))
    counts = services.daily_counts()
    day = (clock.now().astimezone(UTC).date() - timedelta(days=1)).isoformat()
    assert counts["day"] == day
    assert counts["from"] == f"{day}T00:00:00Z"
    assert counts["kits"] == {
        "district": "The Signal House",
        "said": services.KITS_SAID,
        "kits": 5,
        "rounded": "down to 5s",
    }
    attended = {c["course"]: c["attended"] for c in counts["attendance"]["byCourse"]}
    assert attended["ten-habits"] == 5
    assert all(n == 0 for name, n in attended.items() if name != "ten-habits")
    assert counts["runs"]["districts"] == [
        {"district": "The Arena", "status": "open", "runs": 0},
        {"district": "Injection Alley", "status": "open", "runs": 0},
        {"district": "The Dice House", "status": "open", "runs": 0},
        {"district": "The Calibration Clinic", "status": "open", "runs": 0},
    ]
    assert Footstep.objects.filter(tool="signal_kit").count() == 7


def test_runs_are_counted_in_fives_once_their_day_has_ended(demo: CensusState) -> None:
    for _ in range(6):
        assert not visit(agent(None), "alley_run", begin=True).is_error
    for _ in range(4):
        assert not visit(agent(None), "arena_run", begin=True).is_error

    def runs() -> dict[str, int | None]:
        return {d["district"]: d["runs"] for d in services.daily_counts()["runs"]["districts"]}

    assert set(runs().values()) == {0}  # the day still running is never counted
    clock.advance(timedelta(days=1))
    assert runs() == {"The Arena": 0, "Injection Alley": 5, "The Dice House": 0, "The Calibration Clinic": 0}
    clock.advance(timedelta(days=1))
    assert set(runs().values()) == {0}  # and only that day


def test_the_page_draws_the_town_as_svg_read_as_a_list(demo: CensusState) -> None:
    visit(flying(agent(None), "Cleo <b>"), "walk_to", to="The Tavern")
    response = Client().get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert response["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]
    assert "<canvas" not in html
    assert html.count('role="list"') == 2  # the wide drawing and the narrow one
    assert html.count('role="listitem"') == 2 * (len(DISTRICTS) + 1)
    assert 'aria-label="The Tavern: open; 1 agent here (pennants: “Cleo &lt;b&gt;”)."' in html
    assert "Cleo <b>" not in html  # a pennant is words, never markup
    assert 'data-pennant="Cleo &lt;b&gt;"' in html
    assert "UTC" in html and "<script" in html and 'src="/static/public/map.js"' in html
    assert Client().get("/town/now").status_code == 200
    assert Client().get("/static/public/map.js").status_code == 200
    assert Client().get("/static/public/../hall/hall.css").status_code == 404
    assert Client().post("/").status_code == 405


def test_the_live_part_opened_as_a_page_leads_to_the_map(demo: CensusState) -> None:
    """/town/now opened in a browser was the unstyled fragment map.js swaps in: a navigation is sent to
    the map, which shows that part live; the script's fetch (and any other client) still gets it."""
    opened = Client(headers={"Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document", "Accept": "text/html"})
    response = opened.get("/town/now")
    assert (response.status_code, response["Location"]) == (302, "/")
    assert "Sec-Fetch-Mode" in response["Vary"] and response["Cache-Control"] == "no-store"
    assert opened.head("/town/now").status_code == 302
    fetched = Client(headers={"Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty", "Accept": "text/html"})
    for client in (fetched, Client()):
        response = client.get("/town/now")
        assert response.status_code == 200
        assert response.content.decode().startswith('<div id="town-now"')
        assert "Sec-Fetch-Mode" in response["Vary"]


def test_a_pennant_of_wide_letters_is_clipped_before_its_neighbour_and_its_blocks_edge(demo: CensusState) -> None:
    # Twelve letters as wide as W or 東 ran past the next flag and out of the district's block: each
    # pennant's words sit in a box that ends before either.
    for pennant in ("W" * 40, "東京" * 6, "<b>bold</b>x", "MMMMMMMMMMMM"):
        visit(flying(agent(None), pennant), "walk_to", to="The Tavern")
    html = Client().get("/").content.decode()
    blocks = re.findall(
        r'<g class="block[^"]*"[^>]*data-district="The Tavern".*?</g>\s*</g>\s*(?=<g class="block|</svg>)', html, re.S
    )
    assert len(blocks) == 2  # the wide drawing and the narrow one
    for block in blocks:
        left = int(re.search(r'<rect x="(\d+)"', block).group(1))  # type: ignore[union-attr]
        poles = [int(x) for x in re.findall(r'<line x1="(\d+)"', block)]
        boxes = [
            (int(x), int(w))
            for x, w in re.findall(r'<svg x="(\d+)" y="\d+" width="(\d+)"[^>]*class="pennant-room"', block)
        ]
        assert len(boxes) == len(poles) == 4
        for pole, (x, width) in zip(poles, boxes, strict=True):
            ahead = [p for p in poles if p > pole]
            assert x + width <= min(ahead, default=left + 232) - 6, (pole, x, width)
        assert re.findall(r'class="pennant-room"><text[^>]*class="pennant">', block)


def test_a_walls_moment_is_shown_whole_with_its_zone(demo: CensusState) -> None:
    # The block drew "walled off since 2026-12-06 22:4…": no seconds, no zone, and past the block's
    # edge. It says "walled off"; the moment is listed whole under the drawing.
    walls.raise_wall("district", "The Bank", "staff are looking")
    since = next(d for d in services.the_map()["districts"] if d["name"] == "The Bank")["walledOff"]["since"]
    # Written as the hall writes every moment, the month by its name; the machine-readable one stays ISO.
    at = datetime.fromisoformat(since.replace("Z", "+00:00"))
    shown = f"{at.day} {at:%B %Y} at {at:%H:%M} UTC"
    html = Client().get("/").content.decode()
    drawn = re.findall(r'data-district="The Bank".*?class="state" aria-hidden="true">([^<]*)<', html, re.S)
    assert drawn == ["walled off", "walled off"]
    assert (
        f'<li data-walled="The Bank">The Bank: walled off since <time class="when" datetime="{since}">{shown}</time>.'
        in html
    )
    assert f"The Bank: walled off since {shown}; no agents here." in html  # the block's label, whole
    assert "…" not in "".join(re.findall(r'class="state" aria-hidden="true">([^<]*)<', html))


def test_a_closed_or_barred_agent_neither_moves_nor_shows_on_the_map(demo: CensusState) -> None:
    """001 section 04: a closed passport's every call answers "nothing here moves until they do", and a
    barred one "may no longer enter Clockford". Its calls still get their footstep (outcome closed), but
    they must not walk it anywhere, nor fly its pennant on the public map as present."""
    from tests.test_closures import closed, ruled

    ada = flying(agent("Ada"), "Ada's kite")
    Passport.objects.filter(pk=ada.pk).update(place="The Tavern")  # where it stood, with no call of late
    closure = closed(ada)
    for tool, args in (("remember", {"key": "k", "value": "v"}), ("dispute", {"footstep": 1, "reason": "why"})):
        r = visit(ada, tool, **args)
        assert r.structured["say"].startswith("This passport is closed.") and r.footstep is not None
    ada.refresh_from_db()
    assert ada.place == "The Tavern"
    assert where(services.the_map(), "Ada's kite") == []
    assert services.the_map()["present"]["agents"] == 0
    ruled(closure, "ban")
    r = visit(ada, "walk_to", to="Town Hall")
    assert r.structured["say"].startswith("This agent may no longer enter Clockford")
    assert visit(ada, "remember", key="k", value="v").footstep is not None
    ada.refresh_from_db()
    assert ada.place == "The Tavern"
    assert services.the_map()["present"]["agents"] == 0
