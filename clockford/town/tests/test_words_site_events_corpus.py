"""The words screen on a bare site name told with what happened to it or what it is doing, on dots spelt
with signs between or around their letters, and on a site in another language's sentence; and on the
developer prose, file lists, versions, attribute chains and log lines that write the same words and
events of code (tests/corpus/site_events.py), by kind, in two halves: the rates are printed for both."""

import pytest

from clockford.town.tests.corpus import bars, site_events

pytestmark = pytest.mark.heavy


def test_the_rates_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    bars.print_rates(site_events.TALLY, "sites told with events, signed dots, other languages, and code", capsys)


def test_the_halves_share_no_text() -> None:
    bars.assert_halves_share_no_text(site_events.TALLY)


def test_each_kind_has_its_cases_in_each_half() -> None:
    for half in site_events.HALVES:
        tried = {kind: n for kind, (_, n) in site_events.rates(half).items()}
        assert tried == dict.fromkeys(site_events.SITE_KINDS + site_events.OTHER_KINDS, site_events.PER_KIND)
