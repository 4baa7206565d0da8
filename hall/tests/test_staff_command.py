"""./town manage staff: a signed-in town has no owner and no claim, so the person who runs it names its
staff on the town's machine; on a town without sign-in the owner stays staff."""

import html
import io

import pytest
from django.core.management import CommandError, call_command

from hall.models import Account
from hall.tests.conftest import Visitor

pytestmark = pytest.mark.django_db

NOT_STAFF = "The staff room is for the town's staff, and your account is not staff."


def staff(*args: str) -> str:
    out = io.StringIO()
    call_command("staff", *args, stdout=out)
    return out.getvalue()


@pytest.mark.usefixtures("sign_in")
def test_it_makes_a_person_of_a_signed_in_town_staff_and_takes_it_back(visitor: Visitor) -> None:
    assert visitor.sign_up("Ada")[0] == 200
    ada = Account.objects.get(name="Ada")
    assert not ada.is_staff and not ada.is_owner
    r = visitor.client.get("/hall/staff")
    assert r.status_code == 403 and NOT_STAFF in html.unescape(r.content.decode())
    assert "The town has no staff." in staff()

    said = staff(ada.handle.lower())  # the number as a person may type it
    assert f"Ada ({ada.handle}) is staff now" in said and f"staff (1): Ada ({ada.handle})" in said
    assert visitor.client.get("/hall/staff").status_code == 200
    assert "was staff already. Nothing changed." in staff(ada.handle)

    assert f"Ada ({ada.handle}) is no longer staff." in staff(ada.handle, "--remove")
    assert visitor.client.get("/hall/staff").status_code == 403
    assert "was not staff. Nothing changed." in staff(ada.handle, "--remove")


def test_the_owner_stays_staff() -> None:
    olive = Account.objects.create_account("Olive", is_owner=True, is_staff=True)
    with pytest.raises(CommandError, match="owns this town, and the owner of a town is always its staff"):
        staff(olive.handle, "--remove")
    olive.refresh_from_db()
    assert olive.is_staff


def test_an_account_the_town_does_not_have_is_refused() -> None:
    with pytest.raises(CommandError, match="No account AC-NOBODY in this town"):
        staff("AC-NOBODY")
    with pytest.raises(CommandError, match="Name the account"):
        staff("--remove")
    assert not Account.objects.filter(is_staff=True).exists()
