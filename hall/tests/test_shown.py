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
