"""A closed account's letters keep no words, so they keep no size either: size counts the words kept,
as a declined letter's is 0."""

from clockford.town.models import Passport
from districts.post_office import services
from districts.post_office.models import Letter
from districts.testing import visit


def test_a_closed_accounts_letter_keeps_no_size(alice: Passport) -> None:
    visit(alice, "send_letter", subject="s" * 20, body="b" * 200)
    assert Letter.objects.get(passport=alice).size > 0
    services.forget_words_of(Passport.objects.filter(pk=alice.pk))
    letter = Letter.objects.get(passport=alice)
    assert (letter.subject, letter.body, letter.size) == ("", "", 0)
