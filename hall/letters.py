"""Letters from a person's agents: the list, unopened first, and one page per letter with its notes,
marked read by a POST from that page, and declined once with a passkey (hall/decide.py). A declined
letter's words are dropped; the page says so before the click.

Drawing the page changes nothing (nothing is decided by a GET, HALL.md): a link prefetcher, a mail
scanner or a browser's prerender may load it without the person. The page's own form marks the letter
read; its script (static/hall/read.js) sends that form once the page is in view, and without script the
person presses its button.

A letter's words are drawn exactly (hall/shown.py). The page's digest of them goes with the decision:
a note that left the P.O. box between the page and the passkey changes the letter, and the decision
fails with LETTER_CHANGED rather than sign words the person did not see.
"""

from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render

from districts.post_office import services as post_office
from hall import passkeys
from hall.decide import Decidable, ceremonies, found
from hall.http import fetched, signed_in_page, signed_in_post
from hall.models import Account
from hall.queue import next_waiting
from hall.shown import marked, preview, shown_field, shown_fields, whose

# The Post Office says this when do_decide_letter refuses; begin says it first, before any passkey is
# asked for, so that a person never signs something the town will not take.
LETTER_CHANGED = (
    "The letter changed after the page showed it (a note it carried left the P.O. box), so nothing was "
    "decided. Reload the page and read it again."
)
NO_LETTER = "No letter to you has that number."
# The Letters page, a page at a time: letters are kept for ever, and the page listed every one.
LETTERS_PER_PAGE = 50
JUST_READ = "Marked read now that you have opened it."


_letter = found(post_office.access_letter, NO_LETTER)


@signed_in_page
def letter_list(request: HttpRequest, account: Account) -> HttpResponse:
    page = Paginator(post_office.letters_for(account), LETTERS_PER_PAGE).get_page(request.GET.get("page"))
    rows = [(letter, preview(letter.subject, 80)) for letter in page]
    return render(request, "hall/letters.html", {"letters": rows, "page": page, "nav": "letters"})


@signed_in_page
@fetched(_letter)
def letter_page(request: HttpRequest, account: Account, letter: Any) -> HttpResponse:
    marked_by = letter.marked or None
    return render(
        request,
        "hall/letter.html",
        {
            "letter": letter,
            "subject": shown_field("subject", letter.subject),
            "body": shown_field("body", letter.body),
            "notes": shown_fields([(str(n.get("key", "")), str(n.get("value", ""))) for n in letter.notes]),
            "marked_by": marked_by,
            "whose": whose(marked_by["label"]) if marked_by else "",
            "passage": marked(marked_by.get("passage", "")) if marked_by else "",
            "digest": post_office.letter_digest(letter),
            "declinable": letter.status in post_office.DECLINABLE,
            "next_item": next_waiting(account, letter.id),
            "nav": "letters",
        },
    )


@signed_in_post
@fetched(_letter)
def letter_read(request: HttpRequest, account: Account, letter: Any) -> HttpResponseBase:
    """The person has the letter in view: it is read, leaves the queue, and the agent's show_passport
    counts it read. Reading decides nothing, so no passkey is asked; a letter already read or declined
    is left as it is."""
    if letter.status == "held" and post_office.do_read_letter(letter, account).status == "opened":
        messages.success(request, JUST_READ)
    return redirect("hall:letter", letter.id)


def _decided(letter: Any, account: Account, begun: dict[str, str], approval: passkeys.Approval) -> str:
    post_office.do_decide_letter(letter, account, begun["decision"], approval.statement, approval.assertion)
    if begun["decision"] == "open":
        return "Opened. The letter stays here for you to read."
    return "Declined. The letter's words were dropped; only that it was sent stays on record."


def _undecidable(letter: Any) -> str | None:
    # A letter read on its page may still be declined (_cannot says when it may not be opened).
    if letter.status in post_office.DECLINABLE:
        return None
    return f"This letter was already {letter.status}. Nothing changed."


def _cannot(letter: Any, decision: str) -> str | None:
    """A letter is opened once: one read on its page (or opened in another tab) is refused before any
    passkey is asked for, as do_decide_letter would refuse it after."""
    if decision == "open" and letter.status != "held":
        return f"This letter was already {letter.status}. Nothing changed."
    return None


LETTER = Decidable(
    kind="letter",
    fetch=_letter,
    decisions=post_office.LETTER_DECISIONS,
    undecidable=_undecidable,
    unchanged=lambda letter, shown: shown == post_office.letter_digest(letter),
    changed=LETTER_CHANGED,
    statement=post_office.letter_statement,
    decide=_decided,
    cannot=_cannot,
)
letter_begin, letter_finish = ceremonies(LETTER)
