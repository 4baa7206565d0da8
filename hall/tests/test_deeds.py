"""The hall's Realty pages, in process, with real stand-ins on loopback (tests/standins.py): a DNS
resolver and an HTTPS server for example.com, and a GitHub-style OAuth server. A person proves a
namespace and takes the deed with a passkey; a proof that is not there is refused; a deed whose proof
is removed lapses at its re-check; GitHub proof says when it is not configured; the Studios' yes is
signed; and another person never reaches someone's ask or deed."""

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings

from clockford.town import clock
from districts.realty import services as realty
from districts.realty.tests.conftest import NAMES, number, realty_census
from districts.testing import visit
from districts.town_hall.tests.base import listing
from districts.town_hall.tests.base import take as census_of
from hall import deed_proofs
from hall.tests.conftest import Visitor, agent_of
from tests.standins import GitHub, Resolver, Site

pytestmark = pytest.mark.django_db
__all__ = ["realty_census"]

DOMAIN = "example.com"


@pytest.fixture
def dns(settings: Any) -> Iterator[Resolver]:
    r = Resolver()
    settings.DEED_RESOLVER = r.address
    yield r
    r.close()


@pytest.fixture
def site(settings: Any, tmp_path: Path, dns: Resolver) -> Iterator[Site]:
    s = Site(tmp_path, [DOMAIN])
    dns.domains.add(DOMAIN)
    settings.CIMD_LOOPBACK_CA = str(s.ca)
    settings.DEED_LOOPBACK_PORT = s.port
    yield s
    s.close()


@pytest.fixture
def github(settings: Any) -> Iterator[GitHub]:
    g = GitHub()
    for key, value in g.env().items():
        setattr(settings, key.removeprefix("CLOCKFORD_"), value)
    yield g
    g.close()


def ask(visitor: Visitor, name: str) -> str:
    assert visitor.account is not None
    r = visit(agent_of(visitor.account), "claim_deed", server=name)
    assert r.structured["asked"] is True, r.structured
    return realty.asks_waiting(visitor.account)[0].id


def take(visitor: Visitor, ask_id: str, method: str) -> tuple[int, dict[str, Any]]:
    status, begun = visitor.post(f"/hall/deeds/asks/{ask_id}/begin", {"decision": method})
    if status != 200:
        return status, begun
    return visitor.post(f"/hall/deeds/asks/{ask_id}/finish", {"credential": visitor.key.get(begun["options"])})


def test_a_dns_record_proves_the_domain_and_its_removal_lapses_the_deed(
    ada: Visitor, realty_census: Any, dns: Resolver
) -> None:
    ask_id = ask(ada, NAMES[0])
    text = ada.page(f"/hall/deeds/asks/{ask_id}")
    token = realty.proof_token(ada.account, DOMAIN)
    assert f"clockford-deed={token}" in text and f"https://{DOMAIN}/.well-known/clockford-deed.json" in text
    # Nothing there yet: refused, nothing issued.
    status, refused = take(ada, ask_id, "dns")
    assert status == 409 and refused["say"].startswith(f"Refused: No TXT record clockford-deed={token} was found")
    assert realty.find_deed(number(NAMES[0])) is None
    # Another account's token proves nothing for Ada.
    dns.txt[DOMAIN] = ["clockford-deed=" + "0" * 32]
    assert take(ada, ask_id, "dns")[0] == 409
    dns.txt[DOMAIN] = ["v=spf1 -all", f"clockford-deed={token}"]
    assert take(ada, ask_id, "dns") == (200, {"ok": True, "next": "/hall/deeds"})
    deed = realty.find_deed(number(NAMES[0]))
    assert deed is not None and deed.method == "dns" and deed.account_id == ada.account.pk
    assert '"kind":"clockford-deed-1"' in deed.statement and deed.assertion is not None
    # Re-checked by the sweep once due: still there, checkedAt moves on.
    clock.advance(timedelta(hours=25))
    assert deed_proofs.recheck(clock.now()) == {}
    deed.refresh_from_db()
    assert deed.lapsed_at is None and deed.checked_at > deed.issued_at
    # The record is removed: the next re-check lapses the deed, and the lot is deeded to nobody.
    dns.txt[DOMAIN] = []
    clock.advance(timedelta(hours=25))
    deed_proofs.recheck(clock.now())
    deed.refresh_from_db()
    assert deed.lapsed_at is not None and deed.lapse.startswith("the proof is gone: No TXT record")
    assert realty.find_deed(number(NAMES[0])) is None
    assert "lapsed" in ada.page("/hall/deeds")


def test_an_https_file_proves_the_domain_fetched_only_there(ada: Visitor, realty_census: Any, site: Site) -> None:
    ask_id = ask(ada, NAMES[0])
    token = realty.proof_token(ada.account, DOMAIN)
    status, refused = take(ada, ask_id, "https")
    assert status == 409 and "could not be read" in refused["say"]
    site.files[(DOMAIN, "/.well-known/clockford-deed.json")] = {"clockford-deed": token}
    assert take(ada, ask_id, "https")[0] == 200
    deed = realty.find_deed(number(NAMES[0]))
    assert deed is not None and deed.method == "https"
    # The town asked the namespace's own domain for that one file, and nothing else.
    assert set(site.asked) == {(DOMAIN, "/.well-known/clockford-deed.json")}
    # Checking again from the hall finds it; removed, the deed lapses at once.
    ada.client.post(f"/hall/deeds/{deed.id}/check")
    deed.refresh_from_db()
    assert deed.lapsed_at is None
    del site.files[(DOMAIN, "/.well-known/clockford-deed.json")]
    ada.client.post(f"/hall/deeds/{deed.id}/check")
    deed.refresh_from_db()
    assert deed.lapsed_at is not None


def test_without_the_test_authority_loopback_is_never_fetched(
    ada: Visitor, realty_census: Any, site: Site, settings: Any
) -> None:
    settings.CIMD_LOOPBACK_CA = ""
    ask_id = ask(ada, NAMES[0])
    site.files[(DOMAIN, "/.well-known/clockford-deed.json")] = {
        "clockford-deed": realty.proof_token(ada.account, DOMAIN)
    }
    assert take(ada, ask_id, "https")[0] == 409
    assert site.asked == []


def test_github_sign_in_as_the_owner_proves_io_github(ada: Visitor, realty_census: Any, github: GitHub) -> None:
    ask_id = ask(ada, NAMES[1])
    github.users = {7: "someone-else"}
    github.signed_in = 7

    def sign_in_to_github() -> str:
        r = ada.client.post(f"/hall/deeds/asks/{ask_id}/github")
        assert r.status_code == 302 and r["Location"].startswith(f"{github.base}/login/oauth/authorize?")
        import urllib.request

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args: Any) -> None:
                return None

        opener = urllib.request.build_opener(NoRedirect)
        try:
            opener.open(r["Location"])
        except urllib.error.HTTPError as back:
            location = back.headers["Location"]
        back_path = location.split("localhost", 1)[1].split("/", 1)[1]
        followed = ada.client.get("/" + back_path)
        assert followed.status_code == 302
        return ada.page(followed["Location"])

    text = sign_in_to_github()
    assert "Refused: You signed in to GitHub as someone-else, not as ada." in text
    assert take(ada, ask_id, "github")[0] == 409
    github.users[8] = "Ada"
    github.signed_in = 8
    text = sign_in_to_github()
    assert "GitHub says you are Ada" in text and "Take the deed with your passkey" in text
    assert take(ada, ask_id, "github")[0] == 200
    deed = realty.find_deed(number(NAMES[1]))
    assert deed is not None and deed.evidence == {"githubId": 8, "login": "Ada"}
    # Renamed on GitHub: the re-check lapses it.
    github.users[8] = "ada-renamed"
    clock.advance(timedelta(hours=25))
    deed_proofs.recheck(clock.now())
    assert realty.find_deed(number(NAMES[1])) is None


def test_github_proof_not_configured_says_so(ada: Visitor, realty_census: Any, settings: Any) -> None:
    settings.GITHUB_CLIENT_ID = ""
    ask_id = ask(ada, NAMES[1])
    assert deed_proofs.GITHUB_NOT_CONFIGURED in ada.page(f"/hall/deeds/asks/{ask_id}")
    r = ada.client.post(f"/hall/deeds/asks/{ask_id}/github")
    assert r.status_code == 409


def test_the_studios_yes_is_signed_and_taking_it_back_is_not(ada: Visitor, realty_census: Any, dns: Resolver) -> None:
    ask_id = ask(ada, NAMES[0])
    dns.txt[DOMAIN] = [f"clockford-deed={realty.proof_token(ada.account, DOMAIN)}"]
    assert take(ada, ask_id, "dns")[0] == 200
    deed = realty.find_deed(number(NAMES[0]))
    assert deed is not None
    assert "A creative server by the Studios' rules (kind: image)." in ada.page("/hall/deeds")
    status, begun = ada.post(f"/hall/deeds/{deed.id}/show/begin", {"decision": "show"})
    assert status == 200
    assert ada.post(f"/hall/deeds/{deed.id}/show/finish", {"credential": ada.key.get(begun["options"])})[0] == 200
    assert realty.showing_of(deed) is not None
    assert "Shown in the Studios (kind: image)." in ada.page("/hall/deeds")
    ada.client.post(f"/hall/deeds/{deed.id}/unshow")
    assert realty.showing_of(deed) is None


def test_declining_an_ask(ada: Visitor, realty_census: Any) -> None:
    ask_id = ask(ada, NAMES[0])
    ada.client.post(f"/hall/deeds/asks/{ask_id}/decline")
    assert realty.asks_waiting(ada.account) == []
    assert take(ada, ask_id, "dns")[0] == 409


def test_another_person_never_reaches_the_ask_or_the_deed(ada: Visitor, realty_census: Any, dns: Resolver) -> None:
    ask_id = ask(ada, NAMES[0])
    bob = Visitor()
    assert bob.sign_up("Bob")[0] == 200
    bob.page(f"/hall/deeds/asks/{ask_id}", 404)
    assert take(bob, ask_id, "dns")[0] == 404
    dns.txt[DOMAIN] = [f"clockford-deed={realty.proof_token(ada.account, DOMAIN)}"]
    assert take(ada, ask_id, "dns")[0] == 200
    deed = realty.find_deed(number(NAMES[0]))
    assert deed is not None
    assert bob.client.post(f"/hall/deeds/{deed.id}/check").status_code == 404
    assert bob.post(f"/hall/deeds/{deed.id}/show/begin", {"decision": "show"})[0] == 404
    assert deed.id not in bob.page("/hall/deeds")


def test_githubs_return_without_the_session_cookie_comes_back_to_a_real_address(client: Any) -> None:
    """The first arrival from GitHub carries no session cookie (SameSite=Strict): the page it draws
    comes back to the same address from the hall, which must be an address, query or none."""
    for path, again in (
        ("/hall/deeds/github?code=c&state=s", "/hall/deeds/github?code=c&amp;state=s&amp;again=1"),
        ("/hall/deeds/github", "/hall/deeds/github?again=1"),
    ):
        page = client.get(path, HTTP_HOST=urlsplit(settings.HALL_URL).netloc)  # the hall's own name
        assert page.status_code == 200
        assert f'content="0;url={again}"' in page.content.decode(), page.content.decode()


NO_ASK_YET = "No ask waits for you. When one of your agents calls claim_deed, its ask appears here."
NO_SIGN_IN = "This town has no sign-in, so no agent asks for a deed here: a deed belongs to a person's account"


def test_the_deeds_page_of_a_town_without_sign_in_says_no_agent_asks_for_one(olive: Visitor, settings: Any) -> None:
    # claim_deed answers "needs a signed-in account" on such a town, so the page must not promise asks.
    settings.CLOCKFORD_SIGN_IN = False
    page = olive.page("/hall/deeds")
    assert NO_SIGN_IN in page and NO_ASK_YET not in page
    settings.CLOCKFORD_SIGN_IN = True
    page = olive.page("/hall/deeds")
    assert NO_ASK_YET in page and NO_SIGN_IN not in page


def test_a_lot_name_with_hidden_characters_is_drawn_with_them_shown(ada: Visitor) -> None:
    # A registry that does not check its names can list one with a right-to-left override: drawn as it
    # is, the name the person reads before proving it runs backwards from there.
    hostile = "io.github.acme/\u202ecod-rekcap"
    census_of([listing(hostile, description="Pack boxes.")])
    assert ada.account is not None
    r = visit(agent_of(ada.account), "claim_deed", server=hostile)
    assert r.structured["asked"] is True, r.structured
    ask_id = realty.asks_waiting(ada.account)[0].id
    for page in (ada.page("/hall/deeds"), ada.page(f"/hall/deeds/asks/{ask_id}")):
        assert "\u202e" not in page
        assert '<code class="words">io.github.acme/<mark class="hidden-char"' in page
