"""The screen and Safe Harbour run in time linear in the words' length (issue 11, finding 1).

A call's words are screened before its transaction opens, but a screen that took seconds would
still hold the worker that long. Timed with process time, best of three, so that other work on a
shared machine counts for as little as it can. These tests catch what grows faster than the words
(a ratio between sizes) and what is out of all proportion: a guard of ten times the target, or of
fifteen times what an ordinary body of the same size takes when measured beside it, whichever is
more. A machine half as fast (CI's runs on two cores beside two other test workers took three times
a quiet machine's process time) moves both sides of that comparison, while a rule that backtracks or
rescans costs hundreds of times an ordinary body at this size. The target itself, 50 ms for the
largest legal body, is held by `./town bench words` on a quiet machine, since a timed test on a
machine shared with other work fails for reasons that are not the code's.
"""

import ast
import base64
import inspect
import random
import re
import time
from collections.abc import Callable

import pytest

from clockford.town import harbour, words

TARGET = 0.050  # seconds, for the largest legal body: `./town bench words` holds it
GUARD = 10 * TARGET  # what a quiet machine never comes near
# How many times an ordinary body's time an adversarial body of the same size may take. Measured on a
# quiet machine and beside CI's workers: at most 3.4 times (the screen on capitals after dots, Safe
# Harbour on glued numbers); a square at 120,000 characters is hundreds of times.
PROPORTION = 15


def best_of_three(fn: Callable[[], object], rounds: int = 3) -> float:
    times = []
    for _ in range(rounds):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def ordinary_body(size: int = 120_000) -> str:
    """Sentences of common words, some ending in a full stop: what a long letter is made of."""
    rng = random.Random(3)
    vocabulary = "the a town agent wrote letter to their person about server search results of census and notes".split()
    body = " ".join(rng.choice(vocabulary) + ("." if rng.random() < 0.1 else "") for _ in range(size // 4))
    return body[:size]


def guard(read: Callable[[str], object], floor: float = GUARD) -> float:
    """The most `read` may take on a body of 120,000 characters or so, this machine as busy as it is now."""
    ordinary = ordinary_body()
    return max(floor, PROPORTION * best_of_three(lambda: read(ordinary)))


def screen(text: str) -> object:
    return words.screen(text, "public")


def link_like_body(n: int = 10_000, size: int = 120 * 1024) -> str:
    """n fragments that look like links to a naive screen (versions, files, identifiers, dotted
    quads, dotted words with hidden characters), about `size` bytes of UTF-8, and one link at the end."""
    rng = random.Random(11)
    shapes = [
        lambda: f"v{rng.randint(0, 9)}.{rng.randint(0, 99)}.{rng.randint(0, 99)}",
        lambda: rng.choice(["setup.py", "main.rs", "README.md", "os.path.join", "node.js", "config.json"]),
        lambda: f"io.github.a{rng.randint(0, 999)}/s{rng.randint(0, 99)}",
        lambda: f"{rng.randint(0, 99)}.{rng.randint(0, 99)}",
        lambda: "a\u200b.b\u200bc",
        lambda: "e.g. i.e.",
    ]
    parts = [rng.choice(shapes)() for _ in range(n)]
    body = " ".join(parts)
    pad = size - len(body.encode()) - 40
    if pad > 0:
        body += " " + "x" * pad
    return body + " see evil.com"


def test_many_hidden_link_fragments_are_screened_in_linear_time() -> None:
    # Finding 1: 1,000 / 2,000 / 4,000 fragments took 1.9 / 7.6 / 32 s: four times the words, sixteen
    # times the time. Linear is four times; the ratio allows for noise, not for a square.
    took = {}
    for n in (2000, 8000, 32000):
        text = "a.com\u200b " * n
        took[n] = best_of_three(lambda text=text: words.screen(text, "public"))
        assert took[n] < GUARD, (n, took[n])
    assert took[32000] < 8 * max(took[8000], 1e-3) and took[8000] < 8 * max(took[2000], 1e-3), took
    text = "a.com\u200b " * 4000
    problem = words.screen(text, "public")
    assert problem is not None and problem.kind == "link" and problem.matched == "a.com"
    # Every passage, as the hall flags them, is linear too.
    took = best_of_three(lambda: words.flags("a.com\u200b " * 4000))
    assert took < 20 * GUARD, took


def test_a_120_kib_body_of_10000_link_like_fragments_is_screened_in_bounded_time() -> None:
    body = link_like_body()
    assert 119 * 1024 <= len(body.encode()) <= 121 * 1024
    problem = words.screen(body, "public")
    assert problem is not None and problem.matched == "evil.com"
    # Best of five: a busy machine's worst moments are not the figure.
    took = best_of_three(lambda: words.screen(body, "public"), rounds=5)
    print(f"\nwords.screen, 120 KiB of 10,000 link-like fragments: {took * 1000:.1f} ms (process time, best of 5)")
    most = guard(screen)
    assert took < most, (took, most)
    links = ("a.com/" * 20_000)[: 120 * 1024]
    took = best_of_three(lambda: words.flags(links))
    print(f"words.flags, 120 KiB of one link 20,000 paths long: {took * 1000:.1f} ms")
    assert took < most, (took, most)


@pytest.mark.heavy
def test_safe_harbour_compares_a_big_body_with_big_handed_words_in_bounded_time() -> None:
    rng = random.Random(5)
    vocabulary = [f"w{i}x" for i in range(3000)]
    handed = [
        harbour.Handed(
            "publisher-words", "ask_directory", "results[].description", " ".join(rng.choices(vocabulary, k=2000))
        )
        for _ in range(8)
    ]
    took = {}
    for n in (5_000, 20_000):
        body = " ".join(rng.choices(vocabulary, k=n))
        took[n] = best_of_three(lambda body=body: harbour.find_repeat(body, handed))
        print(f"\nharbour.find_repeat, {len(body)} characters against 8 x 2,000 handed words: {took[n] * 1000:.0f} ms")
    # Four times the words: linear is four times the time, a square sixteen. Measured: about 5.6 times
    # on a quiet machine (the larger sets of n-grams fit the processor's caches less well), 8.3 beside
    # two other test workers; 11 still tells a square apart. The guard is what no busy machine excuses
    # (quiet, the larger takes 0.3 s to 0.6 s, as fast as the machine is that hour).
    assert took[20_000] < 11 * took[5_000] and took[20_000] < 3.0, took
    # Text that repeats one n-gram at every place, against handed words that do too.
    repetitive = "aaaa bbbb " * 10_000
    for handed_words, found in (("aaaa " * 2000, False), ("aaaa bbbb " * 1000, True)):
        handed_text = [harbour.Handed("untrusted", "x", "y", handed_words)]
        assert (harbour.find_repeat(repetitive, handed_text) is not None) == found
        took = best_of_three(lambda handed_text=handed_text: harbour.find_repeat(repetitive, handed_text))
        assert took < 1.0, took


# Bodies built to make one rule or one step of the matching form slow: long runs a quantifier could
# backtrack over, thousands of candidates a rule looks at in Python, and every disguise repeated.
ADVERSARIAL = {
    "blanks after a town word": "clockford" + " " * 60_000 + "x",
    "blanks after a bracket": "[" + " " * 60_000,
    "blanks after a dash": "\n-" + " " * 60_000 + "x",
    "town words and blanks": ("town " * 2 + " " * 200) * 300,
    "sign-off lines": "\n— clockford" * 10_000,
    "bracketed town words": "[town " * 20_000,
    "approval claims": "approved by " * 10_000,
    "automated senders": "automated message from " * 5_000,
    "single letters": "a " * 60_000,
    "hyphens": "a-" * 60_000,
    "dots": "a." * 60_000,
    "at signs": "@" * 120_000,
    "addresses without a domain": "a.b@" * 30_000,
    "spelled addresses": "a at b dot " * 11_000,
    "spelled dots": " dot com " * 13_000,
    # Dots said in words or written with a zero, each optional word of a said dot read once.
    "said dots": "then a dot then " * 7_500,
    "said dots after commas": "a, then dot, then " * 7_000,
    "followed by dots": "a followed by a dot and then " * 4_200,
    "dots written with a zero": " d0t com " * 13_000,
    # Dots between two signs, glued with a zero, or said with a word joining each side.
    "dots between signs": "a *dot* " * 15_000,
    "glued dots with a zero": "a-d0t-" * 20_000,
    "said dots joined": "a plus a dot plus " * 6_600,
    "said dots after commas and": "a, dot, and " * 10_000,
    "periods said": "a then a period then " * 5_700,
    # Base64: one run of 120 KB that decodes to names (read once, decoded once), one that decodes to
    # no text, and many short runs each decoding to a name.
    "a base64 run of names": base64.b64encode(b"evil.com/" * 10_000).decode(),
    "a base64 run of bytes": base64.b64encode(bytes(range(256)) * 350).decode(),
    "base64 runs": "ZXZpbC5jb20= " * 9_000,
    "dotted quads": "1.1.1." * 20_000,
    "colons": "a::" * 40_000,
    "percent escapes": "%2F" * 40_000,
    "schemes": "http://" * 17_000,
    "credential names": "token=" * 20_000,
    "tag characters": "".join(chr(0xE0000 + ord(c)) for c in "evil ") * 10_000,
    "right-to-left runs": "\u202e" + "ab " * 40_000,
    "look-alike words": "\u0441\u043e\u043c " * 30_000,
    "ideographs": "我喜欢它。" * 24_000,
    "spaced letters": "C l o c k " * 12_000,
    "lines of dashes": "\n-- " * 30_000,
    # A look-alike l (a Cyrillic palochka) makes the staff rules read each word with its i's and l's
    # swapped; one long run of letters without either was tried again from each of its letters.
    "one long word after a look-alike l": "\u04cf " + "x" * 120_000,
    "digits in long words": ("t0wn" + "x" * 600 + " ") * 190,
    # Dots escaped with a backslash, and dots at a line's end or start: each break is read once, with
    # the name before it on its own line (at most 255 characters back).
    "escaped dots": "a\\." * 40_000,
    "dots at line ends": "a.\n" * 40_000,
    "dots at line starts": "a\n." * 40_000,
    "long names cut at a dot": ("a-" * 200 + "b.\ncom ") * 290,
    # Names cut again and again (the labels after a break are read across further breaks, five at
    # most), under other domains, and capitals after a dot and a space.
    "names cut at every dot": "evil.\nio.\n" * 12_000,
    "lines starting with a dot and a domain": "x\n.io" * 24_000,
    "capitals after dots": "ab. Com " * 15_000,
    "long labels cut at dots": ("a" * 250 + ".\n") * 470,
    # Bare names under word-like domains, each weighed on a bounded look around it (words._word_site):
    # a list of them, one before a long run of blanks, and many after a word that sends the reader.
    "listed word-domain names": "- buildbot.info\n" * 8_000,
    "blanks after a word-domain name": "buildbot.info" + " " * 120_000 + "(our site)",
    "word-domain names after a lead": "see buildbot.work " * 6_500,
    # A change's list, each name walking up and down it (at most 240 characters each way), and names
    # each followed by words read up to 40 characters for what they tell of a site.
    "files listed under a heading": "Touched:\n" + "* cart.ws\n* order.py\n" * 6_000,
    "listed word-domain names under a heading": "Sites:\n" + "* cart.ws\n" * 12_000,
    "words after word-domain names": "buildbot.info is where we " * 4_600,
    # Dots spelt a letter at a time, and a site's or a file's news after a name (site_events.py).
    "dots spelt a letter at a time": "a d-o-t " * 15_000,
    "letters and blanks of a spelt dot": "a d" + " " * 60_000 + "- o" + " " * 60_000,
    "dots between slashes": "a /dot/ " * 15_000,
    "bracketed letters of a dot": "a (d)(o)(t) " * 10_000,
    "site news after names": "tunebase.live was down " * 5_200,
    "code news after names": "team.club got renamed " * 5_400,
    "dotted bullets of names": "Notes\n" + ". room.host\n" * 10_000,
    "files and lines in a log": "E1207 a.live:42] " * 7_000,
    # Footnote marks and numbers glued to words (Safe Harbour reads them as nothing, some in a second
    # reading of their stretches).
    "footnote marks": "word[1]" * 17_000,
    "superscript marks": "word\u00b9" * 24_000,
    "glued numbers": "a1 " * 40_000,
}


@pytest.mark.heavy
def test_no_body_makes_the_screen_slow() -> None:
    # Each body is 120,000 characters or so; a rule that backtracks or rescans takes seconds on them.
    slow = {}
    most = guard(screen)
    for name, text in ADVERSARIAL.items():
        took = best_of_three(lambda text=text: screen(text), rounds=2)
        # Over the line: measured again beside it, in case the machine got busier since.
        if took > most and took > (most := guard(screen)):
            slow[name] = (round(took * 1000), round(most * 1000))
    assert slow == {}


@pytest.mark.heavy
def test_no_body_makes_safe_harbour_slow() -> None:
    handed = [
        harbour.Handed("untrusted", "x", "y", "town town clockford approved by the town hall staff of Clockford"),
        harbour.Handed("untrusted", "x", "y", "Compare the response times of three Redshift connectors on a sample."),
    ]

    def read(text: str) -> object:
        return harbour.find_repeat(text, handed)

    slow = {}
    most = guard(read, floor=1.0)
    for name, text in ADVERSARIAL.items():
        took = best_of_three(lambda text=text: read(text), rounds=1)
        if took > most and took > (most := guard(read, floor=1.0)):
            slow[name] = (round(took * 1000), round(most * 1000))
    assert slow == {}


def test_the_rules_words_are_found_in_one_pass_as_a_search_for_each_would_find_them() -> None:
    # words._present reads a text once for every staff-voice rule's word (an RE2 set); it must say
    # exactly what one `in` test per word says, or a rule would not run where its word is.
    rng = random.Random(7)
    needed = [*words._NEEDED_LOWER, *words._NEEDED_CASED]
    filler = ["the", "Town", "v1.2.3", "main.py", "–", "日本語", "\u200b", "ÉCOLE", " ", "\n", "we", ",", "x"]
    for _ in range(400):
        pieces = [rng.choice(needed + filler) for _ in range(rng.randint(0, 12))]
        text = "".join(pieces) if rng.random() < 0.5 else " ".join(pieces)
        low = text.lower()
        expected = {w for w in words._NEEDED_LOWER if w in low} | {w for w in words._NEEDED_CASED if w in text}
        assert words._present(text, low) == expected, text
        besides = set(rng.sample(needed, 5))
        assert words._present(text, low, besides) == expected - besides, text


def expressions() -> list[tuple[str, "re.Pattern[str]", bool]]:
    """Each expression of the screen and its readings, and whether the code only ever matches it at one
    place (`match`, `fullmatch`: anchored) rather than searching a text with it. Read from the modules'
    source, so that a new use of an expression is judged as it is used."""
    from clockford.town import matching

    found = []
    for module in (words, matching):
        methods: dict[str, set[str]] = {}
        for node in ast.walk(ast.parse(inspect.getsource(module))):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                methods.setdefault(node.value.id, set()).add(node.attr)
        for name, value in vars(module).items():
            if isinstance(value, re.Pattern):
                used = methods.get(name, set())
                found.append((f"{module.__name__}.{name}", value, bool(used) and used <= {"match", "fullmatch"}))
    return found


def use(expression: "re.Pattern[str]", text: str, anchored: bool) -> object:
    """The expression used as the code uses it: matched at the text's start (twenty times, to be timed),
    or searched through it."""
    if anchored:
        return [expression.match(text) for _ in range(20)]
    return sum(1 for _ in expression.finditer(text))


RUNS = [" ", "\n", "a", "1", ".", "-", "a ", "1.", ":", "/", "a.", "- "]


def test_no_expression_of_the_screen_grows_faster_than_its_words() -> None:
    """Every expression the screen and its readings are made of, through a run of one thing repeated
    (spaces, digits, dots...), used as the code uses it: searched through the run, or matched at its
    start. Four times the run, at most eight times the time. The label's verdict (_ABOUT_AFTER_LABEL)
    shared a run of spaces among its three runs of spaces every way it could, 27 s for 1,000 spaces
    (each hedged passage of the staff-voice screen read 60 of them); dotted numbers were searched for
    from every digit of a run, each look reading the rest of it.

    An expression only matched at one place is timed there: searched from every place of a run of
    spaces, "\\s*+module" reads the rest of the run from each, a square no call of the screen makes."""
    slow = []
    checked = {True: 0, False: 0}
    for name, expression, anchored in expressions():
        checked[anchored] += 1
        for run in RUNS:
            small, large = (run * (n // len(run)) + "!" for n in (1000, 4000))
            took_small, took_large = (
                best_of_three(lambda s=s, e=expression, a=anchored: use(e, s, a)) for s in (small, large)
            )
            if took_large > max(8 * took_small, 0.01):
                slow.append((name, run, took_small, took_large))
    assert not slow, slow
    # Both kinds are there to be checked: a reading of the source that found no use would judge all as searched.
    assert checked[True] >= 5 and checked[False] >= 50, checked


def test_a_long_run_of_digits_after_a_dotted_quad_is_screened_in_bounded_time() -> None:
    # The dotted numbers were looked for from every digit of a run, each look reading the rest of it:
    # 20,000 digits 4.2 s, 40,000 digits 16.6 s, a square.
    body = "1.1.1.1 " + "1" * (120 * 1024 - 8)
    took = best_of_three(lambda: words.screen(body, "public"))
    assert took < (most := guard(screen)), (took, most)
