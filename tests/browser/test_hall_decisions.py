"""Deciding a held call in a real browser: an agent's post_notice, made over real MCP, waits in the
owner's queue; its page draws a zero-width space and a right-to-left override as visible tokens;
Allow with Chromium's virtual passkey lets exactly that call through; and a call whose words change
in the database after its page was drawn is not decided."""

from playwright.sync_api import expect

from tests.browser.conftest import Person, owner_with_agent
from tests.support import RawSession, Town

WORDS_CHANGED = (
    "The words of this call changed after the page showed them, so nothing was decided. Reload the page "
    "and read them again."
)
NOTICE = "Lanterns at the \u200bwell at noon, \u202etoday\u202c."

CHANGE_WORDS = """
from clockford.town import holds
from clockford.town.models import Hold
changed = {{"text": "Lanterns at the well at midnight."}}
n = Hold.objects.filter(pk={hold!r}).update(arguments=changed, words_digest=holds.words_digest("post_notice", changed))
print(n)
"""


def held(agent: RawSession, text: str) -> str:
    result = agent.call("post_notice", {"text": text})
    assert result["isError"] is True, result
    hold = result["structuredContent"]["hold"]
    assert hold["status"] == "held", hold
    return str(hold["id"])


def statuses(agent: RawSession) -> dict[str, str]:
    shown = agent.call("show_passport")["structuredContent"]
    return {h["id"]: h["status"] for h in shown["harbour"]["held"]}


def test_an_owner_allows_a_held_notice_and_a_changed_one_is_not_decided(person: Person, hall_town: Town) -> None:
    p = person
    agent = owner_with_agent(p, hall_town)

    hold_id = held(agent, NOTICE)
    p.goto("/hall/")
    expect(p.page).to_have_title("(1) Waiting for you · Clockford")
    row = p.page.locator(f'#queue [data-item="{hold_id}"]')
    expect(row).to_contain_text("Your agent wants to publish a notice on the Tavern board")
    expect(row).to_contain_text("errand-runner")
    expect(row).to_contain_text("⟦U+200B⟧")

    row.locator("a").first.click()
    expect(p.page.locator("h1")).to_have_text("Your agent wants to publish a notice on the Tavern board")
    words = p.page.locator('pre.words[data-field="text"]')
    expect(words).to_have_text("Lanterns at the ⟦U+200B⟧well at noon, ⟦U+202E⟧today⟦U+202C⟧.")
    expect(words.locator("mark.hidden-char")).to_have_text(["⟦U+200B⟧", "⟦U+202E⟧", "⟦U+202C⟧"])
    # The characters themselves never reach the page, so nothing is reordered or hidden from the eye.
    body = p.page.content()
    assert "\u200b" not in body and "\u202e" not in body
    expect(p.page.locator(".flag-hidden code")).to_have_text(["⟦U+200B⟧", "⟦U+202E⟧", "⟦U+202C⟧"])

    p.page.click("button:has-text('Allow with your passkey')")
    expect(p.page.locator(".flash")).to_contain_text("Allowed. Your agent may make exactly this call once, until")
    expect(p.page.locator("#outcome")).to_have_text("Decided: allowed")
    expect(p.page.locator("main")).to_contain_text("signed with a passkey.")
    assert statuses(agent)[hold_id] == "allowed"
    # The same call again goes through, once, carrying who allowed it.
    went = agent.call("post_notice", {"text": NOTICE})
    assert went["isError"] is False, went
    assert went["structuredContent"]["harbour"]["hold"] == hold_id
    assert statuses(agent)[hold_id] == "used"

    # A second call: its page is drawn, then its words change in the database.
    second = held(agent, "Lanterns at the well at noon.")
    p.goto(f"/hall/holds/{second}")
    expect(p.page.locator('pre.words[data-field="text"]')).to_have_text("Lanterns at the well at noon.")
    changed = hall_town.manage("shell", "--no-imports", "-c", CHANGE_WORDS.format(hold=second))
    assert changed.stdout.strip() == "1", changed.stderr
    p.page.click("button:has-text('Allow with your passkey')")
    expect(p.page.locator("form.ceremony .say").first).to_have_text(WORDS_CHANGED)
    assert statuses(agent)[second] == "held"
    # Reloaded, the page shows the words as they are now, still waiting.
    p.page.reload()
    expect(p.page.locator('pre.words[data-field="text"]')).to_have_text("Lanterns at the well at midnight.")
    expect(p.page.locator("button:has-text('Allow with your passkey')")).to_be_visible()
    agent.delete()
