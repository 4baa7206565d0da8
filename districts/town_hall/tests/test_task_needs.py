"""The Directory on needs written as tasks, which the tenth generated evaluation
(tests/bench/directory_needs/tenth.py) holds: a chore that keeps coming back ("I keep having to ...",
"every week I end up having to ... by hand"), whose words of how often and how searched as if they named
a kind of server; the app an asker calls its own ("store secrets for my app" ranked App Store servers);
a chore named by what it handles ("sign a contract"); and a brand that only a lot or two serve, misspelled
("webflw" is Webflow). Each test is on a small census written here, or on the reading alone."""

import pytest

from districts.town_hall import services
from districts.town_hall.tests.base import found_names, listing, take

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("need", "searched"),
    [
        ("I keep having to copy numbers from emails into a spreadsheet", ["copy", "numbers", "emails", "spreadsheet"]),
        ("every week I end up having to rename the exports", ["rename", "exports"]),
        ("I'm tired of having to tag invoices by hand", ["tag", "invoices"]),
        ("why do I always have to rotate the logs myself?", ["why", "always", "rotate", "logs"]),
        ("answer the same questions over and over again", ["answer", "same", "questions"]),
        # the asker's own app is where the thing goes, not a kind of server
        ("store secrets for my app", ["store", "secrets"]),
        ("send push notifications to our mobile app's users", ["send", "push", "notifications", "mobile", "users"]),
        # an app that is not the asker's, and "my app store listing", keep the word
        ("a budgeting app for my team", ["budgeting", "app", "team"]),
        ("update my app store listing", ["update", "app", "store", "listing"]),
        # "having" and "end" that say what, not how often
        ("a server having the ticket's history", ["having", "ticket", "history"]),
    ],
)
def test_a_chore_s_words_of_how_often_and_the_asker_s_own_app_are_not_searched(need: str, searched: list[str]) -> None:
    assert services.terms_of(services.untroubled(need)) == searched


def test_store_secrets_for_my_app_finds_a_secrets_vault_not_app_stores(db: None) -> None:
    take(
        [
            listing("io.github.a/app-store-connect", description="App Store Connect: apps, builds and reviews."),
            listing("io.github.b/app-store-builder", description="Build an app store listing for your app."),
            listing("io.github.c/keeper", description="A vault for secrets and credentials."),
        ]
    )
    assert services.read_need("store secrets for my app")[0] == ["store", "secrets"]
    assert found_names("store secrets for my app")[0] == "io.github.c/keeper"


def test_a_chore_named_by_what_it_handles_brings_the_kind_of_server_that_does_it(db: None) -> None:
    """ "sign a contract with a client online" found servers of clients and of anything online first:
    a listing of electronic signatures writes "sign", seldom "contract"."""
    take(
        [
            listing("io.github.a/portal", description="An online client portal for agencies."),
            listing(
                "io.github.b/esign",
                description="Sign documents with an electronic signature: agreement templates and signing links.",
            ),
        ]
    )
    assert found_names("sign a contract with a client online")[0] == "io.github.b/esign"


def test_a_word_no_lot_holds_is_read_as_a_brand_one_or_two_lots_name(db: None) -> None:
    take(
        [
            listing("com.webflow/mcp", description="Sites, pages and CMS collections."),
            listing("io.github.p/webflow", description="Webflow tools."),
            listing("io.github.q/analytics", description="Funnels from Mixpanel."),
            listing("io.github.r/mixpanel-lite", description="Funnels and events."),
        ]
    )
    assert services.words_searched("publish the new page on webflw") == ["publish", "new", "page", "webflow"]
    assert services.words_searched("see the signup funnel in mixpanle") == ["see", "signup", "funnel", "mixpanel"]
    assert found_names("publish the new page on webflw")[0] == "com.webflow/mcp"
    # a word one edit from a word only descriptions hold ("funnels" names no lot) stays as written
    assert services.words_searched("funnelz") == ["funnelz"]
