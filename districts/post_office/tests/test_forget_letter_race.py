"""forget while a letter carrying that note is being sent: the letter's copy goes too. send_letter copies
the note under its owner's passport lock; forget takes the same lock before it deletes, so it either
finds the letter committed (and takes its copy) or the letter finds the note gone (and is refused).
Without forget's lock (measured on the old code), the letter committed after forget had looked at the
waiting letters kept the forgotten words for the person."""

import threading
import time

from django.db import connections, transaction

from clockford.town.models import Passport
from districts.post_office import services
from districts.post_office.models import Letter, Note
from districts.testing import new_passport, racing, visit

pytestmark = racing()


def test_a_note_forgotten_while_its_letter_is_sent_leaves_the_letter_too() -> None:
    alice = new_passport()
    visit(alice, "remember", key="list", value="words to forget")
    copied = threading.Event()
    errors: list[BaseException] = []

    def send() -> None:
        try:
            mine = Passport.objects.get(pk=alice.pk)
            with transaction.atomic():
                services.do_send_letter(
                    mine, "A", "b", ["list"], None, {services.note_shown("list"): "words to forget"}
                )
                copied.set()
                time.sleep(1)  # the letter's transaction still open while forget runs
        except BaseException as error:  # noqa: BLE001 (reported below, in the test's thread)
            errors.append(error)
            copied.set()
        finally:
            connections.close_all()

    def forget() -> None:
        try:
            copied.wait(10)
            with transaction.atomic():
                services.do_forget(Passport.objects.get(pk=alice.pk), "list")
        except BaseException as error:  # noqa: BLE001
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send), threading.Thread(target=forget)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    assert not Note.objects.filter(box=alice.id).exists()
    letter = Letter.objects.get(passport=alice)
    assert letter.notes == []
    assert "words to forget" not in str(Letter.objects.filter(passport=alice).values_list("notes", flat=True))


def test_the_hall_empties_a_key_and_the_box_outside_any_transaction() -> None:
    # The hall's box page calls do_forget and do_empty_box with no transaction of its own (the desk's
    # calls run in one): forget's passport lock needs one, which it opens itself.
    alice = new_passport()
    for key in ("a", "b", "c"):
        visit(alice, "remember", key=key, value=f"note {key}")
    visit(alice, "send_letter", subject="A", body="b", notes=["a", "b"])
    assert services.do_forget(alice, "a") is True
    assert services.do_empty_box(alice) == 2
    assert not Note.objects.filter(box=alice.id).exists()
    assert Letter.objects.get(passport=alice).notes == []
