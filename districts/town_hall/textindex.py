"""The Directory's text index: an in-process SQLite FTS5 index of the searchable lots, built once per
census seal beside the owner map (ranking.Census), the same on every database the town runs on.

Why in-process: the Directory's candidates must not depend on the database. PostgreSQL's full text
ranked them differently from SQLite's: ts_rank_cd has no inverse document frequency (a word half the
census holds counts as much as a word ten lots hold), and its `english` configuration parses and stems
words otherwise than FTS5's porter tokenizer (host names and paths stay whole, its stop words are
dropped). The same FTS5 index, asked the same question, gives the same candidates with the same bm25
relevance on both; and it answers from memory, without a round trip to the database. The database's
own full-text index (town_hall_lot_fts, town_hall_lot_search) stays, for the bench's plain keyword
baseline.

Each process keeps one index per seal: 12,000 lots take a few megabytes and well under a second to
build. Searches share it under a lock (each takes well under a millisecond).
"""

import sqlite3
import threading
from collections.abc import Iterable

# The same tokenizer as the database's FTS5 table (town_hall migration 0002); the query weighs the
# columns as services.search_sqlite does: a word in the name counts 4, in the title 3, in the description 1.
TOKENIZE = "porter unicode61 remove_diacritics 2"
# Terms this long also match longer words ("postgres" finds "postgresql"); shorter ones whole words.
PREFIX_FROM = 5


def fts_query(terms: list[str]) -> str:
    """One FTS5 query that matches a lot holding any of the terms (each a run of letters and digits)."""
    return " OR ".join(f'"{t}"*' if len(t) >= PREFIX_FROM else f'"{t}"' for t in terms)


class TextIndex:
    """The searchable lots' name words, title and description in an FTS5 table in memory (rowid = lot)."""

    def __init__(self, rows: Iterable[tuple[int, str, str, str]]) -> None:
        self.lock = threading.Lock()
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        self.db.execute(f"CREATE VIRTUAL TABLE lots USING fts5(name, title, description, tokenize = '{TOKENIZE}')")
        self.db.executemany("INSERT INTO lots (rowid, name, title, description) VALUES (?, ?, ?, ?)", rows)
        # One b-tree segment: every query then reads one list per term.
        self.db.execute("INSERT INTO lots (lots) VALUES ('optimize')")
        self.db.commit()

    def search(self, terms: list[str], limit: int, count: bool = True) -> tuple[int, list[tuple[int, float]]]:
        """(how many lots hold any of the terms, the best `limit` as (lot, bm25 relevance)), best first."""
        if not terms:
            return 0, []
        query = fts_query(terms)
        with self.lock:
            if not count:
                found = self.db.execute(
                    "SELECT rowid, bm25(lots, 4.0, 3.0, 1.0) AS r FROM lots WHERE lots MATCH ? ORDER BY r, rowid "
                    "LIMIT ?",
                    (query, limit),
                ).fetchall()
                return 0, [(int(n), -float(r)) for n, r in found]
            # One pass over the matches gives the count too, as a window over them.
            found = self.db.execute(
                "SELECT n, r, count(*) OVER () FROM (SELECT rowid AS n, bm25(lots, 4.0, 3.0, 1.0) AS r FROM lots "
                "WHERE lots MATCH ?) ORDER BY r, n LIMIT ?",
                (query, limit),
            ).fetchall()
        matches = found[0][2] if found else 0
        return int(matches), [(int(n), -float(r)) for n, r, _ in found]
