"""forget while something else holds a letter carrying the note open in its transaction.

- A letter being sent: its copy goes too. send_letter copies the note under its owner's passport lock;
  forget takes the same lock before it deletes, so it either finds the letter committed (and takes its
  copy) or the letter finds the note gone (and is refused). Without forget's lock (measured on the old
  code), the letter committed after forget had looked at the waiting letters kept the forgotten words
  for the person.
- A letter its person opens: it keeps the copy its person read (000 section 07). forget reads the
  waiting letters, then takes the copy out of each; a letter opened in between (its row locked by the
  decision until it commits) must be left as its person signed it."""

import threading
import time
from collections.abc import Callable

from django.db import connections, transaction

from clockford.town.models import Passport
from districts.post_office import services
from districts.post_office.models import Letter, Note
from districts.testing import new_passport, racing, visit

pytestmark = racing()


def forget_while(passport: Passport, first: Callable[[], None]) -> None:
    """Run `first` in a transaction held open for a second, and forget the note "list" once it has run."""
    ran = threading.Event()
    errors: list[BaseException] = []

    def hold_open() -> None:
        try:
            with transaction.atomic():
                first()
                ran.set()
                time.sleep(1)  # its transaction still open while forget runs
        except BaseException as error:  # noqa: BLE001 (reported below, in the test's thread)
            errors.append(error)
            ran.set()
        finally:
            connections.close_all()

    def forget() -> None:
        try:
            ran.wait(10)
            with transaction.atomic():
                services.do_forget(Passport.objects.get(pk=passport.pk), "list")
        except BaseException as error:  # noqa: BLE001
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=hold_open), threading.Thread(target=forget)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []


def test_a_note_forgotten_while_its_letter_is_sent_leaves_the_letter_too() -> None:
    alice = new_passport()
    visit(alice, "remember", key="list", value="words to forget")

    def send() -> None:
        mine = Passport.objects.get(pk=alice.pk)
        services.do_send_letter(mine, "A", "b", ["list"], None, {services.note_shown("list"): "words to forget"})

    forget_while(alice, send)
    assert not Note.objects.filter(box=alice.id).exists()
    letter = Letter.objects.get(passport=alice)
    assert letter.notes == []
    assert "words to forget" not in str(Letter.objects.filter(passport=alice).values_list("notes", flat=True))


def test_a_letter_opened_while_its_note_is_forgotten_keeps_the_copy_its_person_read() -> None:
    alice = new_passport()
    visit(alice, "remember", key="list", value="words the person reads")
    letter_id = visit(alice, "send_letter", subject="A", body="b", notes=["list"]).structured["id"]

    def open_it() -> None:
        letter = Letter.objects.get(pk=letter_id)
        services.do_decide_letter(letter, None, "open", services.letter_statement(letter, "open"), {})

    forget_while(alice, open_it)
    letter = Letter.objects.get(pk=letter_id)
    assert letter.status == "opened"
    assert letter.notes == [{"key": "list", "value": "words the person reads"}]
    assert services.letter_statement(letter, "open") == letter.statement
