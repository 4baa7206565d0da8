"""send_letter refused because letters already wait for the person: the reply says where the person
opens or declines them (hallUrl), as every reply that waits for a person does."""

from typing import Any

from clockford.town import handoff
from clockford.town.models import Passport
from districts.post_office.models import Letter
from districts.testing import outcome, visit


def test_a_twenty_first_unopened_letter_is_told_where_the_person_reads_them(alice: Passport) -> None:
    for i in range(20):
        assert visit(alice, "send_letter", subject=f"Letter {i}", body="words").is_error is False
    r = visit(alice, "send_letter", subject="One more", body="words")
    assert r.is_error is True and outcome(r) == "refused:letters-full"
    assert r.structured["say"] == (
        "Twenty of your letters are still unopened. Wait for your person to open or decline some before you write again."
    )
    assert r.structured["hallUrl"] == handoff.front_url()
    assert Letter.objects.filter(passport=alice).count() == 20


def test_letters_past_the_held_size_are_told_where_the_person_reads_them(settings: Any, alice: Passport) -> None:
    settings.CLOCKFORD = {**settings.CLOCKFORD, "LETTER_BYTES_HELD": 10}
    assert visit(alice, "send_letter", subject="A", body="12345678").is_error is False  # 9 bytes
    r = visit(alice, "send_letter", subject="B", body="1")
    assert r.is_error is True and outcome(r) == "refused:letters-size"
    assert r.structured["hallUrl"] == handoff.front_url()
    assert Letter.objects.filter(passport=alice).count() == 1
