"""forget while the person opens a letter carrying that note: an opened letter keeps the copy its person
read (000 section 07). forget reads the waiting letters, then takes the copy out of each; a letter opened
in between (its row locked by the decision until it commits) must be left as its person signed it."""

import threading
import time

from django.db import connections, transaction

from clockford.town.models import Passport
from districts.post_office import services
from districts.post_office.models import Letter
from districts.testing import new_passport, racing, visit

pytestmark = racing()


def test_a_letter_opened_while_its_note_is_forgotten_keeps_the_copy_its_person_read() -> None:
    alice = new_passport()
    visit(alice, "remember", key="list", value="words the person reads")
    letter_id = visit(alice, "send_letter", subject="A", body="b", notes=["list"]).structured["id"]
    deciding = threading.Event()
    errors: list[BaseException] = []

    def open_it() -> None:
        try:
            with transaction.atomic():
                letter = Letter.objects.get(pk=letter_id)
                services.do_decide_letter(letter, None, "open", services.letter_statement(letter, "open"), {})
                deciding.set()
                time.sleep(1)  # the decision's transaction open, its row locked, while forget runs
        except BaseException as error:  # noqa: BLE001 (reported below, in the test's thread)
            errors.append(error)
            deciding.set()
        finally:
            connections.close_all()

    def forget() -> None:
        try:
            deciding.wait(10)
            with transaction.atomic():
                services.do_forget(Passport.objects.get(pk=alice.pk), "list")
        except BaseException as error:  # noqa: BLE001
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=open_it), threading.Thread(target=forget)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    letter = Letter.objects.get(pk=letter_id)
    assert letter.status == "opened"
    assert letter.notes == [{"key": "list", "value": "words the person reads"}]
    assert services.letter_statement(letter, "open") == letter.statement
