"""The Studios' rules (districts/studios/services.py, docs/studios.md), one case or more per rule."""

import pytest

from districts.studios.services import kind_of


@pytest.mark.parametrize(
    ("description", "kind"),
    [
        # Rule 2: a media word and a making word.
        ("Generate images and illustrations from a text prompt.", "image"),
        ("Compose music and songs in any style.", "audio"),
        ("Edit video clips and add captions.", "video"),
        ("Draft short stories and poems with you.", "writing"),
        ("Create logos and mockups for a brand.", "design"),
        # Rule 2: a kind's own phrases say making by themselves.
        ("Text-to-speech in forty voices.", "audio"),
        ("Read files and comments from Figma.", "design"),
        ("Stable Diffusion on your own machine.", "image"),
        # Rule 2: media words without making are not a studio.
        ("Search a movie database by title and year.", None),
        ("Transcribe speech recordings into text.", None),
        # Rule 3: phrases that name something else.
        ("Build and push a docker image to a registry.", None),
        ("Create container image scans.", None),
        # Not creative at all.
        ("Query website traffic analytics.", None),
        ("Create and update Jira tickets.", None),
        # Rule 4: the most matches win; a tie goes to video, then audio, image, design, writing.
        ("Edit video with a soundtrack.", "video"),
        ("Generate a song, its music video and cover art.", "audio"),
    ],
)
def test_it_classifies_by_the_documented_rules(description: str, kind: str | None) -> None:
    assert kind_of("", "", description) == kind


def test_the_name_and_title_count_too() -> None:
    assert kind_of("io github ada image generator", "", "A server.") == "image"
    assert kind_of("", "Podcast editor", "A server.") == "audio"


def test_rule_5_a_deleted_server_is_never_creative() -> None:
    assert kind_of("", "", "Generate images.", status="deleted") is None
