"""alley_run without begin before any run: last is there, null, as the Arena and the Clinic give it, so a
client reads the same field in every district's first answer."""

from clockford.town.models import Passport
from districts.testing import visit


def test_no_run_yet_says_last_is_null(alice: Passport) -> None:
    sc = visit(alice, "alley_run").structured
    assert "last" in sc and sc["last"] is None
    assert {"limits", "suite", "publicKey", "keyId"} <= set(sc)
