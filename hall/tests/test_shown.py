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
