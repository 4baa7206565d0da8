"""The hall's browser sessions: Django's database sessions (SESSION_ENGINE), kept under the SHA-256 of
their keys, and written so that two requests of one session at the same moment do not lose what each
other kept.

A session's key is the signed-in person's credential: the browser's cookie holds it, and whoever
holds it is signed in. So the town never stores it. Each row (hall.models.BrowserSession) is kept
under the key's SHA-256 (`digest`), hashed here, wherever the store is given a key (loading, asking
whether a key is taken, saving, deleting); the key itself goes only into the cookie. The database and
every backup hold digests, and a digest sent as a cookie is no key at all (longer than any key the
town makes, it is never looked up); as any unknown key, it is a session signed out.

Django saves a session's whole dict at the end of a request that changed it. Two requests of one
session at once (two tabs, a page's live redraw beside a click, Approve pressed in one tab while
another loads) each save their own copy, and the one saved last wins: what the other kept is lost.
So what a request begins for the person is not kept in the dict:

- a passkey ceremony is a row of its own (hall.models.Ceremony), bound to its session by the same
  digest its session is kept under, and found by (session, purpose); what the page showed when an
  approval was asked for (hall/decide.py) is kept on its ceremony;
- the few small things still kept in the dict (when the hall last saw the person, hall/lifetime.py;
  the passkey requests a session answered or replaced, hall/passkey_changes.py; a GitHub sign-in for a
  deed, hall/deeds.py) are written by `change`: into the stored session alone, under its row's lock,
  over what is stored now, not over the request's own copy of the rest.

A session's ceremonies go with it. Signing out flushes the session, and signing in cycles its key
(against session fixation): both delete the old key's row, and with it that key's ceremonies. A
ceremony begun signed out is not carried over into the signed-in session: a sign-in is its own
ceremony, spent by then, and one begun in another tab (a sign-up, an approval) is answered there as
expired; the person presses the button again.
"""

from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.sessions.backends.base import SessionBase
from django.contrib.sessions.backends.db import SessionStore as DatabaseStore
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models, router, transaction
from django.utils import timezone

from clockford.credentials import secret_digest
from hall.models import BrowserSession, Ceremony

# Django makes keys of 32 characters, and its own table held none longer than 40. A longer cookie (a
# digest of 64, copied from the database) names no session, and is neither hashed nor looked up.
LONGEST_KEY = 40


def bound(session: SessionBase) -> str:
    """The digest a row kept for `session` is bound to. A session never stored is stored now, to have a
    key: its cookie is sent with the answer."""
    if session.session_key is None:
        session.save()
    return secret_digest(str(session.session_key))


def bound_if_stored(session: SessionBase) -> str | None:
    """As `bound`, or None for a session that was never stored (which has begun nothing)."""
    return secret_digest(session.session_key) if session.session_key else None


def change(session: SessionBase, key: str, how: Callable[[Any], Any]) -> Any:
    """Set `key` to how(what the stored session holds under it, or None), or remove it where `how` gives
    None, in the stored session alone and under its row's lock: what another request of this session
    stored since this one read it stays. This request's copy follows without being marked changed, so
    writing it does not save the whole of it. Returns what `key` held."""
    if not isinstance(session, SessionStore) or session.session_key is None:
        # Not a session of this store (none stored yet): kept in the dict, saved with it.
        was = session.get(key)
        _put(session, key, how(was))
        return was
    model = session.model
    using = router.db_for_write(model)
    with transaction.atomic(using=using):
        row = session.rows(session.session_key).using(using).select_for_update().first()
        if row is None or row.expire_date <= timezone.now():
            was = session.get(key)
            _put(session, key, how(was))
            return was
        stored = session.decode(row.session_data)
        was = stored.get(key)
        value = how(was)
        _put(stored, key, value)
        row.session_data = session.encode(stored)
        row.save(update_fields=["session_data"], using=using)
    # The request's own copy, so it reads what it wrote; written past SessionBase's __setitem__, which
    # would mark it modified and have the whole of it saved at the end of the request.
    _put(session._get_session(), key, value)  # type: ignore[attr-defined]
    return was


def stored(session: SessionBase, key: str) -> Any:
    """What the stored session holds under `key` now: another request of this session may have changed
    it since this one read the session."""
    if not isinstance(session, SessionStore) or session.session_key is None:
        return session.get(key)
    row = session.rows(session.session_key).first()
    return session.decode(row.session_data).get(key) if row is not None else session.get(key)


def _put(data: Any, key: str, value: Any) -> None:
    if value is None:
        data.pop(key, None)
    else:
        data[key] = value


class SessionStore(DatabaseStore):
    """Django's database sessions, each row kept under its key's digest (never the key), whose deletion
    (signing out, a sign-in's new key) takes the session's ceremonies with it. Every method of Django's
    store that names a key to the database is here, synchronous and asynchronous alike."""

    @classmethod
    def get_model_class(cls) -> type[BrowserSession]:
        return BrowserSession

    def _validate_session_key(self, key: str | None) -> bool:
        return bool(key) and 8 <= len(str(key)) <= LONGEST_KEY

    def rows(self, session_key: str) -> "models.QuerySet[BrowserSession]":
        """The row of the session with this key (none or one)."""
        return BrowserSession.objects.filter(session_key=secret_digest(session_key))

    def _get_session_from_db(self) -> BrowserSession | None:
        # As Django's, by the digest: an unknown or expired key leaves the store without one.
        row = self.rows(self.session_key).filter(expire_date__gt=timezone.now()).first() if self.session_key else None
        if row is None:
            self._session_key = None
        return row

    async def _aget_session_from_db(self) -> BrowserSession | None:
        return await sync_to_async(self._get_session_from_db)()

    def exists(self, session_key: str) -> bool:
        return self.rows(session_key).exists()

    async def aexists(self, session_key: str) -> bool:
        return await sync_to_async(self.exists)(session_key)

    def create_model_instance(self, data: dict[str, Any]) -> AbstractBaseSession:
        # Django's, its key drawn (or kept) as ever, then stored as its digest. A drawn key whose digest
        # is taken fails the insert, and create draws another.
        row = super().create_model_instance(data)
        row.session_key = secret_digest(row.session_key)
        return row

    async def acreate_model_instance(self, data: dict[str, Any]) -> AbstractBaseSession:
        row = await super().acreate_model_instance(data)
        row.session_key = secret_digest(row.session_key)
        return row

    def delete(self, session_key: str | None = None) -> None:
        key = session_key or self.session_key
        if key:
            self.rows(key).delete()
            Ceremony.objects.filter(session=secret_digest(key)).delete()

    async def adelete(self, session_key: str | None = None) -> None:
        await sync_to_async(self.delete)(session_key)
