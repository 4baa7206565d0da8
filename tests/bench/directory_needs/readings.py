"""A generated evaluation of three ways the Directory misread a need, by kind. Written on 2026-12-07
(later) from the census snapshot, before the change it measures:

- `kind`: a kind of server named in everyday words after a negation ("weather forecasts, not
  aviation", "recipes but nothing about wine", "maps without any traffic"), in many forms; a server
  the unwanted pattern matches is never relevant, and `excluded5` is the share of the first five
  results that speak of it;
- `keep`: a negation before what a server may say it does without, or before a verb ("weather
  forecasts, no API key", "never miss a meeting reminder"): every word of these stays wanted;
- `english`: needs in English holding a word that is a negation in another language ("sin and cos",
  "sem and seo", "Open Sans"): the word keeps its English sense;
- `translation`: needs in other languages whose words the vocabulary translated wrongly ("carte
  bancaire" is a card, not a map; Portuguese "você" is "you", not a voice), and needs where the first
  sense is the right one ("carte de France" is a map).

The forms of `kind` and `keep`, and the needs of `english` and `translation`, are split by a fixed seed,
before any answer was read, into a dev half (readings-dev, the only one read for the change) and a
held-out half (readings-held, measured once at the end): a held-out `kind` need is asked in a form no
dev need uses. Rows are as negation.py writes them (`kind`, `need`, `best`, `relevant`, `excluded`),
their patterns matched as make.py matches them.

Run from the repository with the full census (../shared/census/registry-snapshot.json) imported:
`manage.py shell -c "from tests.bench.directory_needs.readings import main; main()"`.
"""

import random
from pathlib import Path

from tests.bench.directory_needs.make import census_lots, judged, write_halves

HERE = Path(__file__).resolve().parent
SEED = "readings:2026-12-07"

_MAIL = r"\b(e-?mails?|inbox|imap|smtp|gmail|outlook)\b"
_PAY = r"\bpayments?\b|\bcheckout\b|\bcards?\b"
_MAPS = r"\bmaps?\b|geocod|directions"

# (the need's wanted words, best (over the name), relevant, the kind it does not want, its pattern)
KINDS = [
    ("weather forecasts", r"weather|forecast", r"\bweather\b", "aviation", r"aviation|metar|\btaf\b"),
    ("recipes", r"recipe|food|cook|meal", r"\brecipes?\b", "wine", r"\bwines?\b|sommelier"),
    ("maps and directions", r"map|geo|direction|rout", _MAPS, "traffic", r"\btraffic\b"),
    ("news headlines", r"news", r"\bnews\b", "sports", r"\bsports?\b|football|soccer|\bnba\b|\bnfl\b"),
    ("music streaming", r"music|spotify|audio|sound", r"\bmusic\b", "podcasts", r"podcast"),
    ("flights and travel", r"flight|travel|trip", r"\bflights?\b|\btravel\b", "hotels", r"hotel|accommodation"),
    ("image generation", r"image|img|pic|art|draw", r"image generat|generat\w* images?", "video", r"\bvideos?\b"),
    ("movie recommendations", r"movie|film|tmdb|cinema", r"\bmovies?\b|\bfilms?\b", "television", r"television|\btv\b"),
    ("send emails", r"mail|smtp", _MAIL, "marketing", r"marketing|campaign"),
    ("text to speech", r"tts|speech|voice|speak", r"text[- ]to[- ]speech|\btts\b", "music", r"\bmusic\b"),
    ("sports scores", r"sport|score|league|football|nba", r"\bsports?\b", "betting", r"betting|\bodds\b|gambl|wager"),
    ("job listings", r"job|career|hire|work", r"\bjobs?\b|\bcareers?\b", "freelance", r"freelanc"),
]
FORMS = [
    "{w}, not {x}",
    "{w} but not {x}",
    "{w} without {x}",
    "{w} without any {x}",
    "{w}, no {x}",
    "{w} except {x}",
    "{w} but nothing about {x}",
    "{w}, nothing to do with {x}",
    "{w} excluding {x}",
    "{w} other than {x}",
    "{w} and not {x}",
    "{w} - not {x}",
    "{w} (no {x})",
    "{w}, I don't want {x}",
    "{w}, anything but {x}",
    "{w} minus {x}",
    "{w}, not about {x}",
    "{w}, but no {x} please",
    "{w}, except for {x}",
    "{w}, nothing related to {x}",
    "Not {x}: {w}",
    "{w}, {x} excluded",
]
# (the need's wanted words, best, relevant, what a server may do without or what the negation says of
# a verb): every word stays wanted, so the phrase is part of the need.
KEEPS = [
    ("weather forecasts", r"weather|forecast", r"\bweather\b", "API keys"),
    ("scrape websites", r"scrap|crawl", r"scrap\w+|crawl\w*", "getting blocked"),
    ("run python code", r"python|code|sandbox|exec", r"\bpython\b", "local setup"),
    ("geocode addresses", r"geo|map|address", r"geocod", "signup"),
    ("translate documents", r"translat|deepl", r"\btranslat\w*", "losing the formatting"),
]
KEEP_FORMS = [
    "{w}, no {x}",
    "{w} without {x}",
    "{w} that does not need {x}",
    "{w} w/o {x}",
    "{w} and no {x}",
    "{w}, never {x}",
    "{w} but no {x}",
    "{w}, avoid {x}",
]
_MATH = (r"math|calc", r"trigonometr|\bmath\w*|calculat")
_SEO = (r"seo|sem|ppc|keyword|ads", r"\bseo\b|\bsem\b|\bppc\b|keyword research")
_FONT = (r"font|typo", r"\bfonts?\b|typograph")
# An English need holding a word that is a negation in another language: (need, best, relevant).
ENGLISH = [
    ("sin and cos for trigonometry", *_MATH),
    ("compute sin, cos and tan of an angle", *_MATH),
    ("sin cos tan calculator", *_MATH),
    ("the sin of 30 degrees", *_MATH),
    ("plot sin and cosine curves", *_MATH),
    ("inverse sin and cos functions in math", *_MATH),
    ("sin and cosine values for my homework", *_MATH),
    ("evaluate sin x plus cos x", *_MATH),
    ("sem and seo campaigns", *_SEO),
    ("sem and ppc ads reporting", *_SEO),
    ("compare sem and seo keyword data", *_SEO),
    ("sem, seo and google ads audits", *_SEO),
    ("Open Sans and Roboto fonts", *_FONT),
    ("Noto Sans and Inter webfonts", *_FONT),
    ("pick a sans-serif font", *_FONT),
    ("sans serif fonts for a poster", *_FONT),
    ("Fira Sans and Lato font pairing", *_FONT),
    ("Comic Sans alternatives for a typeface", *_FONT),
]
_CARD = (r"stripe|paypal|pay|checkout|card|square|adyen|mollie", _PAY)
_SIGN = (r"sign|docusign", r"signatur\w*|e-?sign\w*|docusign")
_CLI = (r"cli|command|terminal|shell", r"command[- ]line|\bcli\b|\bterminal\b")
_NFE = (r"fiscal|nf|nota|invoice", r"nota fiscal|\bnf-?e\b|\bfiscal\b")
_MAP = (r"map|geo", _MAPS)
_MAILING = (r"mail|smtp", _MAIL)
# A need in another language whose words the vocabulary once translated wrongly, or rightly (the map
# sense kept): (need, best, relevant).
TRANSLATION = [
    ("paiement par carte bancaire", *_CARD),
    ("accepter les paiements par carte de crédit", *_CARD),
    ("Kartenzahlungen akzeptieren", *_CARD),
    ("Zahlung per Kreditkarte", *_CARD),
    ("betalingen met kaart", *_CARD),
    ("betalen met creditcard", *_CARD),
    ("pagos con tarjeta de crédito", *_CARD),
    ("pagamentos com cartão de crédito", *_CARD),
    ("pagamenti con carta di credito", *_CARD),
    ("Bezahlung mit Karte im Shop", *_CARD),
    ("firma digital de contratos", *_SIGN),
    ("firma electrónica de documentos", *_SIGN),
    ("firma digitale dei documenti", *_SIGN),
    ("assinatura digital de contratos", *_SIGN),
    ("assinatura eletrônica de documentos", *_SIGN),
    ("outil en ligne de commande pour git", *_CLI),
    ("strumento da linea di comando", *_CLI),
    ("ferramenta de linha de comando", *_CLI),
    ("emitir nota fiscal eletrônica", *_NFE),
    ("consultar notas fiscais", *_NFE),
    ("você pode enviar um email", *_MAILING),
    ("você consegue ler meus emails", *_MAILING),
    ("carte de France des restaurants", *_MAP),
    ("Karte von Berlin mit Adressen", *_MAP),
    ("kaart van Amsterdam met routes", *_MAP),
    ("afficher une carte avec des itinéraires", *_MAP),
]


def _split(items: list[str], rng: random.Random) -> tuple[set[str], set[str]]:
    """Items in two: the dev half's and the held-out half's."""
    order = list(items)
    rng.shuffle(order)
    return set(order[: len(order) // 2]), set(order[len(order) // 2 :])


def needs() -> list[tuple[str, str, str, str, str, str]]:
    """(half, kind, need, best, relevant, excluded) for every need, split by SEED."""
    rng = random.Random(SEED)
    out: list[tuple[str, str, str, str, str, str]] = []
    dev, held = _split(FORMS, rng)
    for w, best, relevant, x, excluded in KINDS:
        for half, chosen in (("dev", sorted(dev)), ("held", sorted(held))):
            for form in rng.sample(chosen, 4):
                out.append((half, "kind", form.format(w=w, x=x), best, relevant, excluded))
    dev, held = _split(KEEP_FORMS, rng)
    for w, best, relevant, x in KEEPS:
        for half, chosen in (("dev", sorted(dev)), ("held", sorted(held))):
            for form in rng.sample(chosen, 2):
                out.append((half, "keep", form.format(w=w, x=x), best, relevant, ""))
    for kind, rows in (("english", ENGLISH), ("translation", TRANSLATION)):
        order = list(rows)
        rng.shuffle(order)
        for i, (need, best, relevant) in enumerate(order):
            out.append(("dev" if i % 2 == 0 else "held", kind, need, best, relevant, ""))
    return out


def main() -> None:
    lots = census_lots()
    halves: dict[str, list[dict[str, object]]] = {"readings-dev": [], "readings-held": []}
    wrong: list[str] = []
    for half, kind, need, best, relevant, excluded in needs():
        names, bests = judged(lots, relevant, best, excluded)
        if not bests:
            wrong.append(f"{need!r}: no relevant server's name matches {best!r}")
        row = {"kind": kind, "need": need, "best": bests, "relevant": names, "excluded": excluded}
        halves[f"readings-{half}"].append(row)
    write_halves(halves, wrong)
    for half, rows in halves.items():
        print(half, {k: sum(1 for r in rows if r["kind"] == k) for k in dict.fromkeys(r["kind"] for r in rows)})
