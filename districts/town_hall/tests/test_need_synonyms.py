"""The Directory on kinds of need the seventh generated evaluation (tests/bench/directory_needs/seventh.py)
found misread: a kind not wanted named by another of its names ("not TV" of servers that write
"television"), another language's "without" in an English need ("recipes senza wine"), a need stated as
a trouble ("my invoices are a mess"). Each test is on a small census written here."""

import pytest

from districts.town_hall import services
from districts.town_hall.tests.base import found_names, listing, take

pytestmark = pytest.mark.django_db


def test_a_kind_not_wanted_leaves_out_the_servers_that_name_it_otherwise(db: None) -> None:
    """ "movies, not TV" left the servers of television in, "news, no crypto" those of bitcoin and
    web3, "news, not social media" those of twitter and reddit."""
    take(
        [
            listing("io.github.a/films", description="Movie recommendations and film reviews."),
            listing("io.github.b/screens", description="Movie and television show recommendations."),
            listing("io.github.c/headlines", description="News headlines from around the world."),
            listing("io.github.d/coins", description="Bitcoin and web3 news headlines."),
            listing("io.github.e/feeds", description="News headlines trending on twitter and reddit."),
        ]
    )
    assert found_names("movie recommendations, not TV") == ["io.github.a/films"]
    assert set(found_names("news headlines, no crypto")) == {"io.github.c/headlines", "io.github.e/feeds"}
    assert set(found_names("news headlines without social media")) == {"io.github.c/headlines", "io.github.d/coins"}


def test_one_member_of_a_kind_not_wanted_leaves_out_only_its_own_servers(db: None) -> None:
    """A need that does not want Reddit may want the rest of social media; one that does not want
    bitcoin may want the other coins."""
    take(
        [
            listing("io.github.a/social-twitter", description="Search posts on twitter."),
            listing("io.github.b/social-reddit", description="Search posts on reddit."),
        ]
    )
    assert found_names("search social posts, not reddit") == ["io.github.a/social-twitter"]


@pytest.mark.parametrize(
    ("need", "excluded"),
    [
        ("news headlines ohne sports", (("sports",),)),
        ("recipes senza wine", (("wine",),)),
        ("job listings sans freelance", (("freelance",),)),
        ("weather forecasts zonder aviation", (("aviation",),)),
        # the kind must be common English words the vocabulary does not translate
        ("chat sin anuncios", (("anuncios",),)),
    ],
)
def test_another_language_s_without_takes_a_kind_in_everyday_english(
    need: str, excluded: tuple[tuple[str, ...]]
) -> None:
    """A need mixing languages read "ohne" and "senza" before a kind in English as words to search:
    "recipes senza wine" searched senza and wine, and ranked wine servers first."""
    assert services.excluded_of(need) == excluded


@pytest.mark.parametrize(
    ("need", "searched"),
    [
        ("my invoices are a mess", ["invoices"]),
        ("our bookmarks are total chaos", ["bookmarks"]),
        ("I'm drowning in PDFs", ["pdfs"]),
        ("I keep forgetting my meetings", ["forgetting", "meetings"]),
        ("the build keeps breaking", ["build", "breaking"]),
        ("I never know how much we spent this month", ["spent", "month"]),
        ("my inbox is overflowing and I can't keep up", ["inbox", "overflowing"]),
        # "keep" that names a thing stays
        ("Google Keep notes", ["google", "keep", "notes"]),
        ("keep a log of my runs", ["keep", "log", "runs"]),
    ],
)
def test_a_need_stated_as_a_trouble_searches_what_it_is_about(db: None, need: str, searched: list[str]) -> None:
    take([listing("io.github.a/invoices", description="Create and send invoices.")])
    assert services.words_searched(need) == searched


def test_a_trouble_s_verb_brings_the_words_servers_use(db: None) -> None:
    """ "spent" and "forgetting" name no server; the vocabulary reads them as expenses and reminders."""
    take(
        [
            listing("io.github.a/monthly", description="Monthly reports of your team's work."),
            listing("io.github.b/ledger", description="Track expenses against a budget."),
            listing("io.github.c/notes", description="Notes of your meetings and video calls."),
            listing("io.github.d/nudge", description="Reminders before your meetings."),
        ]
    )
    assert found_names("I never know how much we spent")[0] == "io.github.b/ledger"
    assert found_names("I keep forgetting my meetings")[0] == "io.github.d/nudge"


def test_a_product_before_compatible_names_an_interface_not_its_maker_s_servers(db: None) -> None:
    """ "S3-compatible object storage" ranked AWS's servers first: S3's maker is AWS."""
    take(
        [
            listing("io.github.aws/aws-mcp", description="Call AWS services: S3, EC2 and more."),
            listing("io.github.aws/ecs-mcp", description="Run containers on AWS."),
            listing("io.github.x/buckets", description="Object storage for backups, S3-compatible."),
        ]
    )
    assert found_names("store backups in S3-compatible object storage")[0] == "io.github.x/buckets"
    assert found_names("AWS S3 buckets")[0] == "io.github.aws/aws-mcp"


def test_what_a_need_does_without_brings_no_product(db: None) -> None:
    """ "no cloud" is searched (the servers that say "no cloud" are wanted), but the clouds the
    vocabulary brings for "cloud" (AWS, Azure) were ranked first for "web analytics, self-hosted, no
    cloud"."""
    take(
        [
            listing("com.microsoft/azure", description="Manage Azure resources."),
            listing("io.github.aws/aws-mcp", description="Call AWS services."),
            listing("io.github.x/counter", description="Privacy-friendly web analytics you host yourself."),
        ]
    )
    assert found_names("web analytics, self-hosted, no cloud")[0] == "io.github.x/counter"
