"""Words an agent wrote, on the public pages in Chromium at 1280 and 375 wide: a right-to-left override in
them is drawn as ⟦U+202E⟧ and the words read in the order they were written (measured from where each
letter is drawn, not from the page's text), and the page never scrolls sideways at a phone's width; /town/now opened alone is the map."""

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.test_hall_box import sideways
from tests.support import Town

RLO, PDF = "\u202e", "\u202c"
WORDS = f"Pay to {RLO}yenom eht{PDF} now."
LONG = "x" * 300  # one word longer than any phone is wide
WIDTHS = [1280, 375]
# Letters stacked with sixty combining marks above them and sixty below.
ZALGO = "Z" + "\u0301" * 60 + "a" + "\u0316" * 60 + "lgo"

POST = """
from clockford.town.models import Passport
from districts.tavern import services as tavern
from tests.fixtures import agent
p = agent(None)
Passport.objects.filter(pk=p.pk).update(pennant={pennant!r})
p.refresh_from_db()
tavern.do_post(p, {text!r})
"""

# The letters of an element as they are drawn: each ASCII letter's box, read line by line, left to right.
DRAWN = """(el) => {
  const seen = [];
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    for (let i = 0; i < node.data.length; i++) {
      const ch = node.data[i];
      if (!/[A-Za-z]/.test(ch)) continue;
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const box = range.getBoundingClientRect();
      seen.push([Math.round(box.top), box.left, ch]);
    }
  }
  seen.sort((a, b) => (a[0] - b[0]) || (a[1] - b[1]));
  return seen.map((s) => s[2]).join("");
}"""


@pytest.fixture(scope="module")
def posted(hall_town: Town) -> Iterator[Town]:
    hall_town.manage("shell", "-c", POST.format(pennant=f"kite{RLO}etik", text=WORDS))
    hall_town.manage("shell", "-c", POST.format(pennant="long", text=LONG))
    for pennant, text in (("before", "Plain words."), ("zalgo", ZALGO), ("after", "More plain words.")):
        hall_town.manage("shell", "-c", POST.format(pennant=pennant, text=text))
    yield hall_town


def open_page(browser: Browser, town: Town, width: int, path: str) -> Page:
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(f"http://127.0.0.1:{town.port}{path}")
    return page


@pytest.mark.parametrize("width", WIDTHS)
def test_an_override_is_shown_and_the_words_read_as_written(browser: Browser, posted: Town, width: int) -> None:
    page = open_page(browser, posted, width, "/feed")
    words = page.locator("blockquote.words", has_text="yenom")
    assert words.inner_text() == "Pay to ⟦U+202E⟧yenom eht⟦U+202C⟧ now."
    # Drawn left to right as written ("yenom eht"), not turned round by the override ("the money").
    assert words.evaluate(DRAWN) == "PaytoUEyenomehtUCnow"
    sender = page.locator("p.meta .words", has_text="kite")
    assert sender.first.evaluate(DRAWN) == "kiteUEetik"
    assert sideways(page) <= 0
    page.context.close()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("path", ["/", "/feed", "/feed?page=9", "/no-such-page"])
def test_the_public_pages_fit_a_phone(browser: Browser, posted: Town, width: int, path: str) -> None:
    page = open_page(browser, posted, width, path)
    assert sideways(page) <= 0, f"{path} scrolls sideways at {width}"
    page.context.close()


def test_the_live_part_opened_alone_is_the_map(browser: Browser, posted: Town) -> None:
    """/town/now is what the map's script fetches; opened as a page it was an unstyled fragment."""
    page = open_page(browser, posted, 375, "/town/now")
    assert page.url == f"http://127.0.0.1:{posted.port}/"
    assert page.locator("h1").inner_text() == "The town"
    assert page.locator("#town-now").count() == 1
    page.context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_stacked_marks_stay_inside_their_item(browser: Browser, posted: Town, width: int) -> None:
    """A letter with sixty marks above it and sixty below drew over the items around it (their labels
    too). The gaps between the cards around it are drawn pixel for pixel as a gap between two plain
    cards: nothing of it reaches them."""
    page = open_page(browser, posted, width, "/feed")
    cards = page.locator("ol.feed > li")
    texts = [cards.nth(i).locator("blockquote").inner_text() for i in range(cards.count())]
    z = next(i for i, t in enumerate(texts) if t.startswith("Z"))
    assert (texts[z - 1], texts[z + 1], texts[z + 2]) == ("More plain words.", "Plain words.", LONG)

    def gap(upper: int) -> bytes:
        top, bottom = cards.nth(upper).bounding_box(), cards.nth(upper + 1).bounding_box()
        assert top is not None and bottom is not None
        y = top["y"] + top["height"]
        clip = {"x": top["x"], "y": y, "width": top["width"], "height": bottom["y"] - y}
        assert clip["height"] >= 8
        return page.screenshot(clip=clip, full_page=True)

    plain = gap(z + 1)  # between "Plain words." and the long word: nothing drawn there
    assert gap(z - 1) == plain, "the marks above the letters reach the card before"
    assert gap(z) == plain, "the marks below the letters reach the card after"
    page.context.close()
