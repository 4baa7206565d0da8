"""Foundry certificates in the staff room (000 section 18, docs/foundry.md): a member of staff
suspends, reinstates or revokes a certificate with a passkey, on the one road every decision takes
(hall/decide.py). The change holds at once: `foundry` with `check` answers from it on its next call,
and a certificate that is not live is no longer a stamp on its passport. Revoked is for good. The hall
asks the Foundry's services, never its models."""

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from districts.foundry import services as foundry
from hall import passkeys
from hall.decide import Decidable, ceremonies, found
from hall.http import fetched, signed_in_page
from hall.models import Account

SAYS = {
    "live": "This certificate is live: the town stands behind it, and anyone who checks it is told so.",
    "suspended": "This certificate is suspended: anyone who checks it is told the town does not stand behind it "
    "now. You may reinstate it or revoke it.",
    "revoked": "This certificate is revoked, for good: anyone who checks it is told the town does not stand behind it.",
    "expired": "This certificate has expired: anyone who checks it is told so. Nothing more can be done to it.",
}
DONE = {
    "suspend": "Suspended. From now on, anyone who checks this certificate is told it is not current.",
    "reinstate": "Reinstated. Anyone who checks this certificate is told it is current again.",
    "revoke": "Revoked, for good. Anyone who checks this certificate is told it is not current.",
}
# What each button does, said before the passkey is asked for.
MEANS = {
    "suspend": "the town stops standing behind it until staff reinstate it; its holder loses the stamp meanwhile.",
    "reinstate": "the town stands behind it again, until its date, as before.",
    "revoke": "the town stops standing behind it for good; nothing can undo a revocation.",
}


_certificate = found(foundry.access_certificate, foundry.NO_CERTIFICATE, not_allowed=foundry.NOT_STAFF)


def staff_panel(account: Account) -> dict[str, Any]:
    """The staff room's part: the newest certificates cast, each with its standing today."""
    return {"certificates": [(c, foundry.standing(c)) for c in foundry.certificates_for_staff(account)]}


@signed_in_page
@fetched(_certificate)
def certificate_page(request: HttpRequest, account: Account, cert: Any) -> HttpResponse:
    standing = foundry.standing(cert)
    actions = [(a, MEANS[a]) for a in foundry.ACTIONS if foundry.can(cert, a)]
    statement = cert.signed["statement"]
    return render(
        request,
        "hall/certificate.html",
        {
            "cert": cert,
            "standing": standing,
            "say": SAYS[standing],
            "actions": actions,
            "papers": statement.get("papers", []),
            "nav": "staff",
        },
    )


def _changed(cert: Any, account: Account, begun: dict[str, str], approval: passkeys.Approval) -> str:
    action = begun["decision"]
    foundry.do_change(cert, account, action, approval.statement, approval.assertion)
    return DONE[action]


CERTIFICATE = Decidable(
    kind="certificate",
    fetch=_certificate,
    decisions=tuple(foundry.ACTIONS),
    undecidable=foundry.undecidable,
    statement=foundry.decision_statement,
    decide=_changed,
    cannot=foundry.cannot,
)

certificate_begin, certificate_finish = ceremonies(CERTIFICATE)
