"""The hall's tidy for the sweep (clockford/town/sweep.py, docs/retention.md): rows every reader already
refuses or ignores, because they have expired.

- Ceremonies past `expires_at`: an answer to one is refused as expired, and one is gone anyway once
  answered; new ceremonies prune them too, this catches up when none begins.
- Spent authorization codes older than SPENT_KEPT: codes live a minute, so one presented a day later
  is refused as unknown either way (hall/oauth_validator.py prunes them on each new code as well).
- Browser sessions past their expiry date (hall.models.BrowserSession, each under its key's digest):
  Django reads an expired session as no session.
- OAuth tokens and grants, by django-oauth-toolkit's own clear_expired: expired access tokens and
  grants, and refresh tokens revoked or expired past REFRESH_TOKEN_EXPIRE_SECONDS. With reuse
  protection on, it keeps a revoked refresh token until then, so a replayed one is still caught.
"""

import datetime as dt

from django.db import models
from django.utils import timezone
from oauth2_provider.models import clear_expired, get_access_token_model, get_grant_model, get_refresh_token_model

from clockford.town import sweep
from hall.models import BrowserSession, Ceremony, SpentCode
from hall.oauth_validator import SPENT_KEPT


def _tokens() -> dict[str, int]:
    """What clear_expired removed, as the difference of counts: a token made meanwhile by a sign-in
    makes the count lower, never higher, than what went."""
    kinds: list[type[models.Model]] = [get_access_token_model(), get_refresh_token_model(), get_grant_model()]
    before = {m._meta.db_table: m._default_manager.count() for m in kinds}
    clear_expired()
    return {name: max(0, n - m._default_manager.count()) for (name, n), m in zip(before.items(), kinds, strict=True)}


def tidy(now: dt.datetime) -> dict[str, int]:
    # The hall reads these by the wall clock, not the town's (which a test may move): so does its tidy.
    now = min(now, timezone.now())
    return {
        Ceremony._meta.db_table: sweep.delete_in_batches(Ceremony.objects.filter(expires_at__lt=now)),
        SpentCode._meta.db_table: sweep.delete_in_batches(SpentCode.objects.filter(at__lt=now - SPENT_KEPT)),
        BrowserSession._meta.db_table: sweep.delete_in_batches(BrowserSession.objects.filter(expire_date__lt=now)),
        **_tokens(),
    }
