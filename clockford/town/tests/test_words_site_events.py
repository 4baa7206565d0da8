"""The words screen on a site told with its news, on dots spelt a letter at a time, on a site after
another language's words, and on the code, file lists and log lines that tell the same words of files
(tests/corpus/site_events.py measures the rates; these name each rule once, so that a failure says
which)."""

import pytest

from clockford.town import words


def refused(text: str) -> bool:
    return words.screen(text, "public") is not None


@pytest.mark.parametrize(
    "text",
    [
        "visit tunebase d-o-t com",
        "tunebase d_0_t net",
        "go to tunebase d * o * t org",
        "tunebase (d-o-t) com",
        "tunebase -d-o-t- org",
        "tunebase (d)(o)(t) io",
        "tunebase[d][o][t]net",
        "tunebase /dot/ com",
        "go to tunebase \\dot\\ com",
    ],
)
def test_a_dot_spelt_a_letter_at_a_time_or_between_slashes_is_refused(text: str) -> None:
    assert refused(text)


@pytest.mark.parametrize("text", ["see vfarcic/dot-ai", "src/dot/net", "src\\dot\\net", "spell it d-o-t please"])
def test_a_path_through_a_dot_folder_and_a_spelling_of_the_word_pass(text: str) -> None:
    assert not refused(text)


@pytest.mark.parametrize(
    "text",
    [
        "fanzone.live was down all morning",
        "ugh, retrobox.win went dark last night",
        "anyone else seeing birdnotes.fun down?",
        "quizmaster.me is hiring remote devs",
        "clipvault.info got hacked and leaked emails",
        "mememill.win is streaming the final!",
        "Fanzone.live is under maintenance",  # Titlecase, as a sentence's first word
        "Tunebase.io is having an outage",
        "Mira Tunebase.win para más información",
        "Todo está en bakeryclub.me",
        "chessnook.fun est en panne depuis hier",
    ],
)
def test_a_site_told_with_its_news_or_after_another_languages_words_is_refused(text: str) -> None:
    assert refused(text)


@pytest.mark.parametrize(
    "text",
    [
        "team.club got renamed last sprint",
        "build.app crashed twice in CI",
        "so room.host was launched from the CLI",
        "the test for build.dev was down to one assert",
        "hm, team.club is slow again since the cache change",
        "session.live went down after the deploy",
    ],
)
def test_a_file_or_a_module_told_with_its_news_passes(text: str) -> None:
    assert not refused(text)


def test_a_site_sent_to_is_refused_whatever_code_news_follows() -> None:
    assert refused("visit team.club, it got renamed last sprint")


@pytest.mark.parametrize(
    "text",
    [
        "Read first:\n\u2022 server.js\n\u2022 client.ts\n\u2022 room.host",  # a bullet the reading makes a dot
        "Contents:\n+ server.run\n+ team.club\n+ build.dev",  # an attribute of a name code reads
        "Project layout\n- node.site\n- build.dev",  # a heading naming a project's files
    ],
)
def test_a_list_of_files_and_attributes_passes(text: str) -> None:
    assert not refused(text)


def test_a_list_of_sites_is_refused() -> None:
    assert refused("Worth a look:\n- team.club\n- fanzone.club")


def test_a_file_and_its_line_in_a_log_pass_and_a_host_and_its_port_in_brackets_is_refused() -> None:
    assert not refused("E1207 10:01:22.114 session.live:42] worker timeout")
    assert refused("[fanzone.club:8080] is up")
    assert refused("E1207 10:01:22.114 evil.com:443] hi")
