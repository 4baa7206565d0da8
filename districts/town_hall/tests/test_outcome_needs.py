"""The Directory on needs written as the outcome wanted, not the kind of server that brings it about
("let me know when the build breaks", "why my app got slow", "fewer fake signups", "back up the database
every night"), which the tenth generated evaluation
(tests/bench/directory_needs/tenth.py) holds: the outcome's own words ("breaks", "slow", "fake") are held
by no server that brings it about, and were searched as if they named one (vocabulary.OUTCOMES). Each
test is on a small census written here, or on the reading alone."""

import pytest

from districts.town_hall import services
from districts.town_hall.tests.base import found_names, listing, take

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("need", "searched"),
    [
        ("let me know when the build breaks", ["alerts", "build", "failures"]),
        ("tell us if the nightly backup failed.", ["alerts", "backup", "failures"]),
        ("a heads-up when a competitor changes their prices", ["alerts", "competitor", "price", "monitoring"]),
        ("ping me if the website goes down", ["alerts", "website", "uptime"]),
        ("find out why my app got slow", ["out", "why", "performance"]),
        ("my site is really slow", ["site", "performance"]),
        ("fewer fake signups on our forms", ["fewer", "captcha", "forms"]),
        ("back up the production database every night", ["backup", "production", "database"]),
        ("run this script nightly", ["run", "script"]),
        ("a weekly report of how many people visit our site", ["weekly", "report", "site", "visitors"]),
        ("all our customer calls written up as notes", ["all", "customer", "calls", "transcription"]),
        ("a note in my inbox with the day's meetings", ["note", "inbox", "calendar"]),
        ("pull the line items out of these scanned receipts", ["extract", "line", "items", "scanned", "receipts"]),
        ("answer the same customer questions", ["customer", "support"]),
        # "turn ... into" is left as written: read as convert, it ranked converters for "turn a street
        # address into latitude and longitude" and "turn my figma frames into code"
        ("turn these invoices into a spreadsheet", ["turn", "invoices", "spreadsheet"]),
        # the same words that name a thing, not an outcome, are searched as written
        ("fix broken links on my site", ["fix", "broken", "links", "site"]),
        ("a slow cooker recipe", ["slow", "cooker", "recipe"]),
        ("slow motion video", ["slow", "motion", "video"]),
        ("bot accounts on twitter", ["bot", "accounts", "twitter"]),
        ("text me when the package arrives", ["text", "package", "arrives"]),
        ("people visit paris in spring", ["people", "visit", "paris", "spring"]),
        ("pull request reviews", ["pull", "request", "reviews"]),
        ("break down the numbers", ["break", "down", "numbers"]),
        ("rerun the failed github actions job", ["rerun", "failed", "github", "actions", "job"]),
        ("turn a new feature on for some users only", ["turn", "new", "feature", "users"]),
    ],
)
def test_an_outcome_is_read_as_the_kind_of_server_that_brings_it_about(need: str, searched: list[str]) -> None:
    assert services.terms_of(services.untroubled(need)) == searched


def test_let_me_know_when_the_build_breaks_finds_build_alerts_not_a_server_that_writes_breaks(db: None) -> None:
    """It searched "build" and "breaks": a listing holding both words came first."""
    take(
        [
            listing("io.github.a/lego", description="Build with bricks, and see which set breaks first."),
            listing("io.github.b/ci-watch", description="Alerts on CI build failures and pipeline status."),
        ]
    )
    assert found_names("let me know when the build breaks")[0] == "io.github.b/ci-watch"


def test_fewer_fake_signups_finds_a_captcha_not_fake_data(db: None) -> None:
    take(
        [
            listing("io.github.a/faker", description="Fake names and fake signups for test data."),
            listing("io.github.b/turnstile", description="Captcha and bot protection for sign-up forms."),
        ]
    )
    assert found_names("fewer fake signups on our forms")[0] == "io.github.b/turnstile"


def test_why_my_app_got_slow_finds_performance_monitoring(db: None) -> None:
    take(
        [
            listing("io.github.a/slow-tv", description="Slow TV: long calm videos for apps."),
            listing("io.github.b/apm", description="Application performance monitoring: latency and traces."),
        ]
    )
    assert found_names("find out why my app got slow")[0] == "io.github.b/apm"


def test_back_up_the_database_every_night_finds_backups(db: None) -> None:
    take(
        [
            listing("io.github.a/night-sky", description="Every night's stars, back up to the year 1900."),
            listing("io.github.b/dumps", description="Database backup and restore: scheduled snapshots."),
        ]
    )
    assert found_names("back up the production database every night")[0] == "io.github.b/dumps"
