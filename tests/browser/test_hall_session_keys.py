"""A browser's session key is its person's sign-in: the cookie holds it, and the town keeps only its
SHA-256 (hall/sessions.py). In headless Chromium with a virtual authenticator, against two processes of
one live town: after a real sign-up, the cookie's key is in no column of any table, not in the SQLite
file, not in a backup; the person is signed in on either process; the stored digest sent as a cookie
is no session; signing out on the other process ends the session for both."""

import hashlib
import sqlite3
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.browser.conftest import Person
from tests.browser.test_hall_passkeys import sign_out, sign_up
from tests.e2e.test_http_rows import sql
from tests.e2e.test_session_keys import backup_text, text_anywhere
from tests.support import Town

TownFactory = Callable[..., Town]
COOKIE = "sessionid"  # Django's name on a town served over http (a shared town's is __Host-clockford-session)


def signed_in_on(browser: Browser, town: Town, cookie: str) -> bool:
    """Whether a browser of its own, holding only this session cookie, is signed in to the town's hall."""
    context = browser.new_context()
    try:
        base = f"http://localhost:{town.port}"
        context.add_cookies([{"name": COOKIE, "value": cookie, "url": base}])
        page = context.new_page()
        page.goto(base + "/hall/")
        return "Signed in as Ada" in (page.locator("footer").text_content() or "")
    finally:
        context.close()


def test_the_town_keeps_a_sign_ins_digest_never_its_key(
    browser: Browser, town_factory: TownFactory, tmp_path: Path
) -> None:
    a = town_factory().start()
    b = town_factory(share=a).start()
    p = Person(browser, a)
    try:
        p.device()
        sign_up(p, "Ada")
        (key,) = [c["value"] for c in p.context.cookies() if c["name"] == COOKIE]
        stored = hashlib.sha256(key.encode()).hexdigest()

        # Kept under its digest, and the key is nowhere: no column, not the SQLite file's bytes, no backup.
        assert text_anywhere(a, key) == []
        assert sql(a, "SELECT count(*) FROM hall_browsersession WHERE session_key = %s", (stored,)) == [(1,)]
        if "DATABASE_URL" not in a.env:
            database = Path(a.env["CLOCKFORD_SQLITE"])
            with sqlite3.connect(database) as conn:
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the WAL's pages written into the file
            for path in (database, database.with_name(database.name + "-wal")):
                assert not path.exists() or key.encode() not in path.read_bytes(), path
        saved = tmp_path / "town.backup"
        assert "Backed up" in a.manage("backup", str(saved)).stdout
        in_backup = backup_text(a, saved)
        assert stored.encode() in in_backup and key.encode() not in in_backup

        # Signed in on either process, page after page; the digest, sent as a cookie, opens nothing.
        for town in (a, b, a):
            p.page.goto(f"http://localhost:{town.port}/hall/")
            expect(p.page.locator("footer")).to_contain_text("Signed in as Ada")
        assert signed_in_on(browser, b, key)
        assert not signed_in_on(browser, a, stored) and not signed_in_on(browser, b, stored)

        # Signed out on the other process: the session is gone for both, and its key opens nothing.
        sign_out(p)
        assert sql(a, "SELECT count(*) FROM hall_browsersession WHERE session_key = %s", (stored,)) == [(0,)]
        assert not signed_in_on(browser, a, key) and not signed_in_on(browser, b, key)
        assert p.troubles == []
    finally:
        p.close()
