"""Words as a person reads them: the queue's one-line previews and the decision pages draw the same
characters as tokens, by one rule."""

from hall import shown

WORDS = "Meet\u200b at\u202e noon\x07.\tThen\nhome."


def test_a_preview_and_a_page_draw_the_same_hidden_and_control_characters() -> None:
    assert shown.preview(WORDS) == "Meet⟦U+200B⟧ at⟦U+202E⟧ noon⟦U+0007⟧. Then home."
    page = shown.marked(WORDS)
    assert page.count('<mark class="hidden-char"') == 3
    assert '<mark class="hidden-char" title="A hidden character">⟦U+200B⟧</mark>' in page
    assert '<mark class="hidden-char" title="A control character">⟦U+0007⟧</mark>' in page
    # Tabs and line breaks are shown as they are, and nothing hidden reaches the page itself.
    assert "\t" in page and "\n" in page
    assert not any(ch in page for ch in "\u200b\u202e\x07")


def test_words_are_escaped_and_a_preview_is_cut_on_one_line() -> None:
    assert str(shown.marked("<b>&")) == "&lt;b&gt;&amp;"
    long = shown.preview("word " * 100, cap=20)
    assert len(long) == 20 and long.endswith("…")


def test_an_international_domain_is_shown_as_the_dns_spells_it() -> None:
    assert shown.punycode("https://bücher.example/x") == "https://xn--bcher-kva.example/x"
    assert shown.punycode("https://example.org") is None


def test_a_preview_draws_only_the_beginning_of_long_words(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A preview draws enough of the text for its line, not the whole of it (a letter's body, on every
    row of the queue), and says the same as drawing it all."""
    drawn: list[int] = []
    whole = shown.shown_text

    def counting(text: str, as_is: str = "\n\t") -> str:
        drawn.append(len(text))
        return whole(text, as_is)

    def reference(text: str, cap: int = shown.PREVIEW_CHARS) -> str:
        one_line = " ".join(whole(text).split())
        return one_line if len(one_line) <= cap else one_line[: cap - 1].rstrip() + "…"

    monkeypatch.setattr(shown, "shown_text", counting)
    body = "The errand is done.\u200b " * 5000
    assert shown.preview(body) == reference(body)
    assert max(drawn) <= 4 * shown.PREVIEW_CHARS
    spaced = "a" + " " * 3000 + "b\u200b" + "\n" * 900 + "end " * 40
    for text in (spaced, WORDS, "", " " * 700, "word " * 28, "word " * 29, "x" * 140, "x" * 141):
        for cap in (20, 140):
            assert shown.preview(text, cap) == reference(text, cap), (text[:30], cap)


STACKED = '<mark class="hidden-char" title="A combining mark past the fourth on one letter">⟦U+{:04X}⟧</mark>'


def test_a_letter_keeps_four_combining_marks_and_each_past_the_fourth_is_drawn_as_its_token() -> None:
    marks = "\u0301\u0316\u0300\u0317\u0302\u0318"  # six marks on one letter, above and below
    page = shown.marked(f"q{marks}q")
    assert page == f"q{marks[:4]}{STACKED.format(0x0302)}{STACKED.format(0x0318)}q"
    # What a script stacks is drawn as it is: Vietnamese (two marks), Hebrew with cantillation (four).
    for kept in ("Vie\u0323\u0302t", "\u05d1\u05bc\u05b8\u0591\u05bd"):
        assert shown.marked(kept) == kept and not shown.stacked(kept)
    # A hidden character's token is a letter of its own: the marks after it are counted again.
    again = shown.marked("q\u0301\u0301\u0301\u0301\u200b\u0301\u0301\u0301\u0301")
    assert again == (
        'q\u0301\u0301\u0301\u0301<mark class="hidden-char" title="A hidden character">⟦U+200B⟧</mark>'
        "\u0301\u0301\u0301\u0301"
    )
    assert shown.stacked(f"q{marks}") and not shown.stacked("q\u0301\u0301\u0301\u0301\u200b\u0301")


def test_a_field_with_a_stacked_letter_says_so() -> None:
    field = shown.shown_field("text", "Z" + "\u0301" * 50)
    assert field.text.count("⟦U+0301⟧") == 46
    assert [(f.kind, f.words, f.passages) for f in field.flags] == [
        (
            "stacked-marks",
            "A letter with more than four combining marks stacked on it: each past the fourth is drawn above "
            "as ⟦U+…⟧, so none draws over the page.",
            [],
        )
    ]
    assert shown.shown_field("text", "Vie\u0323\u0302t").flags == []
