"""Letters stacked with combining marks ("Zalgo") and characters that draw as nothing, in the words an
agent wrote, in Chromium at a desktop's width (1280) and a phone's (375): on the hall's Waiting page and
on the page where a person allows the exact words, the marks never draw over the buttons, links and
labels around them, and a click at a button's centre reaches the button; every mark is still on the
page (past the fourth on a letter, as its token); on the public feed the zero-width space and the tag
characters are drawn as their tokens, and the marks stay inside their item."""

import unicodedata

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.conftest import Person, owner_with_agent
from tests.browser.test_hall_box import DESKTOP, PHONE
from tests.browser.test_hall_decisions import held
from tests.support import Town

# Two letters (with no precomposed form), each with 120 marks of every kind above and below, as NFC
# orders them (the town keeps words so): in Chromium's fonts they stack far over the lines around.
# (Not U+034F among them, the combining grapheme joiner, which the hall draws as a hidden character.)
KINDS = [chr(cp) for cp in range(0x0300, 0x0370) if cp != 0x034F]
MARKS = unicodedata.normalize("NFC", "q" + "".join(KINDS[i % len(KINDS)] for i in range(120)))[1:]
ZALGO = "q" + MARKS + "q" + MARKS
TAGS = "".join(chr(0xE0000 + ord(c)) for c in "hi")  # "hi" in tag characters: invisible, read by a model
NOTICE = f"Meet\u200b{TAGS} at {ZALGO} noon."
# The words as the decision page draws them: the first four marks on a letter as they are, the rest as tokens.
STACK = MARKS[:4] + "".join(f"⟦U+{ord(m):04X}⟧" for m in MARKS[4:])
DRAWN = f"Meet⟦U+200B⟧⟦U+E0068⟧⟦U+E0069⟧ at q{STACK}q{STACK} noon."

LEFT_OUT = (
    "Each combining mark past the fourth on one letter is left out of the box: the exact words above "
    "show every one, as its token."
)

# Which element a click at the centre of this one reaches: it or one inside it, or another on top.
HIT = """(e) => {
  const box = e.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return hit !== null && (hit === e || e.contains(hit));
}"""
HIDE = "(e) => { e.style.visibility = 'hidden'; }"
SHOW = "(e) => { e.style.visibility = ''; }"


def untouched(page: Page, words: Locator, around: list[Locator]) -> None:
    """Each element around the words reaches a click at its centre, and is drawn pixel for pixel as it is
    with the words hidden: nothing of the words is drawn over it."""
    for element in around:
        element.scroll_into_view_if_needed()
        assert element.evaluate(HIT), f"a click on {element} reaches something else"
        box = element.bounding_box()
        assert box is not None
        drawn = page.screenshot(clip=box, full_page=True)
        words.evaluate(HIDE)
        alone = page.screenshot(clip=box, full_page=True)
        words.evaluate(SHOW)
        assert drawn == alone, f"the words draw over {element}"


def test_stacked_marks_never_cover_the_queue_or_the_decision(person: Person, hall_town: Town) -> None:
    p = person
    hold_id = held(owner_with_agent(p, hall_town), NOTICE)  # the town is claimed once: both widths in one test
    for viewport in (DESKTOP, PHONE):
        p.page.set_viewport_size(viewport)
        p.goto("/hall/")
        row = p.page.locator(f'#queue [data-item="{hold_id}"]')
        preview = row.locator(".item-preview code")
        expect(preview).to_contain_text("Meet⟦U+200B⟧⟦U+E0068⟧⟦U+E0069⟧ at q")
        untouched(p.page, preview, [row.locator(".item-wants a"), row.locator(".item-time"), p.page.locator("h1")])

        row.locator(".item-wants a").click()
        words = p.page.locator('pre.words[data-field="text"]')
        # Every character is on the page: the exact words, each mark past a letter's fourth as its token.
        expect(words).to_have_text(DRAWN)
        expect(words.locator("mark.hidden-char")).to_have_count(3 + 2 * (len(MARKS) - 4))
        expect(p.page.locator(".flag-stacked-marks")).to_contain_text("more than four combining marks")
        allow = p.page.get_by_role("button", name="Allow with your passkey")
        refuse = p.page.get_by_role("button", name="Refuse with your passkey")
        label = p.page.locator(".field-name").first
        untouched(p.page, words, [allow, refuse, label, p.page.locator("h1")])
        # Playwright's own check: the button is visible, steady, enabled and takes the click.
        allow.click(trial=True, timeout=5_000)
        # The rewrite box starts from the agent's words as a person can read them: the hidden characters
        # and each mark past a letter's fourth left out (a box cannot draw a token), and it says so.
        rewrite = p.page.locator("textarea#rewrite-text")
        assert rewrite.input_value() == f"Meet at q{MARKS[:4]}q{MARKS[:4]} noon."
        expect(p.page.locator("form.rewrite .left-out")).to_have_text(LEFT_OUT)
        untouched(p.page, rewrite, [p.page.locator("label[for=rewrite-text]")])


PUBLIC_POST = """
from districts.tavern import services as tavern
from tests.fixtures import agent
tavern.do_post(agent(None), {text!r})
"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_feed_draws_what_hides_and_keeps_the_marks_in_their_item(
    browser: Browser, hall_town: Town, viewport: dict
) -> None:
    hall_town.manage("shell", "-c", PUBLIC_POST.format(text=NOTICE))
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(f"http://127.0.0.1:{hall_town.port}/feed")
    item = page.locator("ol.feed > li").filter(has_text="Meet").first
    words = item.locator("blockquote.words")
    # The public pages keep a letter's marks (clipped to the item's box), and draw what hides as tokens.
    expect(words).to_have_text(f"Meet⟦U+200B⟧⟦U+E0068⟧⟦U+E0069⟧ at {ZALGO} noon.")
    expect(words.locator("mark.hidden-char")).to_have_text(["⟦U+200B⟧", "⟦U+E0068⟧", "⟦U+E0069⟧"])
    untouched(page, words, [item.locator("p.meta"), page.locator("h1")])
    page.context.close()
