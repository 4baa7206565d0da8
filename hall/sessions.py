"""The hall's browser sessions: Django's, kept in the database (SESSION_ENGINE), so that two requests of
one session at the same moment do not lose what each other kept.

Django saves a session's whole dict at the end of a request that changed it. Two requests of one
session at once (two tabs, a page's live redraw beside a click, Approve pressed in one tab while
another loads) each save their own copy, and the one saved last wins: what the other kept is lost.
So what a request begins for the person is not kept in the dict:

- a passkey ceremony is a row of its own (hall.models.Ceremony), bound to its session by the SHA-256
  of the session's key (never the key, a sign-in's secret) and found by (session, purpose); what the
  page showed when an approval was asked for (hall/decide.py) is kept on its ceremony;
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

import hashlib
from collections.abc import Callable
from typing import Any

from django.contrib.sessions.backends.base import SessionBase
from django.contrib.sessions.backends.db import SessionStore as DatabaseStore
from django.db import router, transaction
from django.utils import timezone

from hall.models import Ceremony


def digest(session_key: str) -> str:
    return hashlib.sha256(session_key.encode()).hexdigest()


def bound(session: SessionBase) -> str:
    """The digest a row kept for `session` is bound to. A session never stored is stored now, to have a
    key: its cookie is sent with the answer."""
    if session.session_key is None:
        session.save()
    return digest(str(session.session_key))


def bound_if_stored(session: SessionBase) -> str | None:
    """As `bound`, or None for a session that was never stored (which has begun nothing)."""
    return digest(session.session_key) if session.session_key else None


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
        row = model.objects.using(using).select_for_update().filter(session_key=session.session_key).first()
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
    row = session.model.objects.filter(session_key=session.session_key).first()
    return session.decode(row.session_data).get(key) if row is not None else session.get(key)


def _put(data: Any, key: str, value: Any) -> None:
    if value is None:
        data.pop(key, None)
    else:
        data[key] = value


class SessionStore(DatabaseStore):
    """Django's database sessions, whose deletion (signing out, a sign-in's new key) takes the session's
    ceremonies with it."""

    def delete(self, session_key: str | None = None) -> None:
        key = session_key or self.session_key
        super().delete(session_key)
        if key:
            Ceremony.objects.filter(session=digest(key)).delete()
