"""A call's transaction on PostgreSQL sends its BEGIN in the same message as its first statement, a desk
savepoint in the message of the statement after it (desk.call_transaction, desk.Savepoint), and, when the
face took the footstep's number ahead (archive.NUMBER_AHEAD), the footstep in the message of its COMMIT:
counted here in the protocol's own messages, as libpq's trace of the connection writes them, outside any
test transaction (the call's transaction is the real one)."""

import tempfile
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.models import F
from django.utils import timezone

from clockford.face import server, sessions
from clockford.metrics import counting
from clockford.town import archive, desk
from clockford.town.models import Footstep, Passport
from clockford.town.prepared import spelled
from districts.general_store import services as store
from districts.general_store.models import Gauge
from districts.post_office.models import Note
from districts.registry import TOOLS

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("on SQLite a statement is no round trip: BEGIN IMMEDIATE goes on its own")


@pytest.fixture
def passport() -> Passport:
    now = timezone.now()
    return Passport.objects.create(issued_at=now, last_seen=now)


def traced[T](work: Callable[[], T]) -> tuple[T, list[str]]:
    """What `work` returns and the queries its connection sent (libpq's trace: one line per message)."""
    from psycopg.pq import Trace

    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    with tempfile.TemporaryFile() as trace:
        pgconn.trace(trace.fileno())
        pgconn.set_trace_flags(Trace.SUPPRESS_TIMESTAMPS)
        try:
            done = work()
        finally:
            pgconn.untrace()
        trace.seek(0)
        lines = trace.read().decode("utf-8", "replace").splitlines()
    # A statement the connection has prepared goes as EXECUTE (clockford/town/prepared.py): read as written.
    return done, [
        spelled(line.split("\t", 3)[3].strip()) for line in lines if line.startswith("F\t") and "\tQuery\t" in line
    ]


def sent(
    tool: str, arguments: dict[str, Any], passport: Passport, ahead: int | None = None
) -> tuple[desk.Rendered, list[str]]:
    """The call's reply and the queries its connection sent."""
    return traced(lambda: desk.run(TOOLS[tool], arguments, passport, None, ahead))


@pytest.fixture
def warm(passport: Passport, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # The call counts are written a second after the last time, by whichever call finishes then
    # (clockford/metrics/counting.py), in a transaction of their own: in a traced call they would be
    # its last messages (a bare COMMIT), so in these tests they wait.
    monkeypatch.setattr(counting, "FLUSH_SECONDS", 10**9)
    # The copies the warm calls make (the town's mode, its walls, the census's state, whether it has an
    # owner) are kept for a second of time.monotonic: a process's first look_around alone can take that
    # second, and on a loaded machine one can pass before the traced call, which would then read them
    # again. The clock stands still from here to the test's end instead.
    now = time.monotonic()
    monkeypatch.setattr(time, "monotonic", lambda: now)
    desk.run(TOOLS["look_around"], {}, passport, None)
    desk.run(TOOLS["remember"], {"key": "warm", "value": "A first note."}, passport, None)
    yield


def test_a_look_around_is_two_messages(passport: Passport, warm: None) -> None:
    r, queries = sent("look_around", {}, passport)
    assert not r.is_error and Footstep.objects.filter(number=r.footstep).exists()
    assert len(queries) == 2, queries
    assert queries[0].startswith('"BEGIN; WITH beside AS (UPDATE town_passport')
    assert queries[1].startswith('"SAVEPOINT beside_commit; UPDATE general_store_gauge')
    assert queries[1].endswith('; COMMIT"')
    assert Gauge.objects.get(passport=passport).run_calls == 3  # the warm calls, and this one


def test_a_remember_begins_with_its_savepoint(passport: Passport, warm: None) -> None:
    r, queries = sent("remember", {"key": "kept", "value": "A note kept for the test."}, passport)
    assert not r.is_error and Note.objects.filter(box=passport.id, key="kept").exists()
    assert queries[0].startswith('"BEGIN; SAVEPOINT ') and "; INSERT INTO bank_ledger" in queries[0]
    assert queries[-1].endswith('; COMMIT"') and not [q for q in queries if q == '"BEGIN"']


def test_a_refused_call_keeps_its_footstep_and_nothing_else(passport: Passport, warm: None) -> None:
    r, queries = sent("remember", {"key": "no spaces allowed", "value": "A note."}, passport)
    assert r.is_error and Footstep.objects.filter(number=r.footstep, outcome__startswith="refused").exists()
    assert not Note.objects.filter(box=passport.id, key="no spaces allowed").exists()
    assert queries[0].startswith('"BEGIN; ') and queries[-1].endswith('; COMMIT"')


def test_a_call_that_breaks_rolls_back_whole(passport: Passport, warm: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A footstep that cannot be written: nothing of the call stays (the town closes, as it must)."""
    before = Footstep.objects.count()

    def broken(*_: Any) -> int:
        with connection.cursor() as c:
            c.execute("SELECT no_such_column FROM town_footstep")
        return 0

    monkeypatch.setattr(desk.archive, "record", broken)
    try:
        r, queries = sent("remember", {"key": "lost", "value": "A note that must not stay."}, passport)
    finally:
        desk.set_town_mode("open")
    assert r.is_error and r.outcome == "unrecorded"
    assert Footstep.objects.count() == before
    assert not Note.objects.filter(box=passport.id, key="lost").exists()
    assert '"ROLLBACK"' in queries


def number_ahead() -> int:
    """A footstep number taken as the face takes it, before the call."""
    with connection.cursor() as c:
        c.execute(f"SELECT {archive.NUMBER_AHEAD}")
        return int(c.fetchone()[0])


def test_with_its_number_ahead_a_look_around_is_one_message(passport: Passport, warm: None) -> None:
    assert desk.rides_with_commit()  # psycopg's client-side cursor: the face takes numbers ahead
    ahead = number_ahead()
    r, queries = sent("look_around", {}, passport, ahead)
    assert not r.is_error and r.footstep == ahead and r.structured["footstep"] == ahead
    step = Footstep.objects.get(number=ahead)
    assert (step.tool, step.passport, step.outcome) == ("look_around", passport.id, "ok")
    assert len(queries) == 1, queries
    assert queries[0].startswith('"BEGIN; WITH beside AS (UPDATE town_passport')
    assert "; SAVEPOINT beside_commit; UPDATE general_store_gauge" in queries[0]
    # A read: its COMMIT does not wait for the disk (desk.CallTransaction.commit), and only its own.
    assert queries[0].endswith('; SET LOCAL synchronous_commit TO OFF; COMMIT"')
    with connection.cursor() as c:
        c.execute("SHOW synchronous_commit")
        assert c.fetchone()[0] == "on"
    passport.refresh_from_db()
    assert passport.footsteps == 3  # the warm calls', and this one's, counted with its footstep
    assert Gauge.objects.get(passport=passport).run_calls == 3


def test_a_read_that_sends_a_statement_first_or_moves_waits_for_the_disk(passport: Passport, warm: None) -> None:
    """Only a transaction that is its COMMIT's message alone (the footstep and the town's counts) goes
    without the flush: a read whose handler reads first might have written too, and a move is a change."""
    r, queries = sent("recall", {"key": "warm"}, passport, number_ahead())  # a read that writes its reply budget
    assert not r.is_error and len(queries) > 1, queries
    assert queries[-1].endswith('; COMMIT"') and "synchronous_commit" not in queries[-1]
    r, queries = sent("walk_to", {"to": "The Tavern"}, passport, number_ahead())
    assert not r.is_error, r.structured
    assert "synchronous_commit" not in queries[-1] and queries[-1].endswith('; COMMIT"')
    passport.refresh_from_db()
    assert passport.place == "The Tavern"  # from the Post Office, where the warm note took it


def test_a_read_waits_for_the_disk_when_the_settings_say_so(passport: Passport, warm: None, settings: Any) -> None:
    settings.CLOCKFORD = {**settings.CLOCKFORD, "PG_FLUSH_READS": True}
    r, queries = sent("look_around", {}, passport, number_ahead())
    assert not r.is_error and Footstep.objects.filter(number=r.footstep).exists()
    assert len(queries) == 1 and queries[0].endswith('; COMMIT"') and "synchronous_commit" not in queries[0]


def test_a_job_step_writes_its_footstep_first(passport: Passport, warm: None) -> None:
    """A job's step reads the job's footsteps, this one among them: it is written before, not with the COMMIT."""
    ahead = number_ahead()
    r, queries = sent("look_around", {"job_id": "ahead-job"}, passport, ahead)
    assert not r.is_error and Footstep.objects.filter(number=r.footstep, job_id="ahead-job").exists()
    assert r.footstep != ahead and queries[-1].endswith('; COMMIT"')


def test_a_footstep_that_fails_with_its_commit_fails_the_call(passport: Passport, warm: None) -> None:
    """The footstep sent with the COMMIT cannot be written (its number is taken): nothing of the call stays,
    and the town closes, as for any footstep it cannot record."""
    taken, tool = Footstep.objects.order_by("-number").values_list("number", "tool").first() or (0, "")
    notes = Note.objects.filter(box=passport.id).count()
    try:
        r, queries = sent("remember", {"key": "lost", "value": "A note that must not stay."}, passport, taken)
        assert r.is_error and r.outcome == "unrecorded"
        assert desk.town_mode() == "closed"
    finally:
        desk.set_town_mode("open")
    assert Footstep.objects.get(number=taken).tool == tool == "remember"  # the warm note's, as it was
    assert Note.objects.filter(box=passport.id).count() == notes and not Note.objects.filter(key="lost").exists()
    with_commit = [i for i, q in enumerate(queries) if q.endswith('; COMMIT"')]
    assert len(with_commit) == 1, queries
    # The savepoint before the gauge's write was never made, so the footstep failed: the call rolls back.
    assert queries[with_commit[0] + 1 : with_commit[0] + 3] == ['"ROLLBACK TO SAVEPOINT beside_commit"', '"ROLLBACK"']
    assert Gauge.objects.get(passport=passport).run_calls == 2


def test_a_gauge_row_changed_elsewhere_is_read_and_counted_after_the_commit(passport: Passport, warm: None) -> None:
    """The gauge's write sent with the COMMIT finds its row as this process wrote it last, or changes
    nothing: then the count is read and written after the COMMIT, and nothing is counted twice or lost."""
    # Another worker's write, say: every write sets a stamp of its own (general_store.services._stamp).
    Gauge.objects.filter(passport=passport).update(today="{}", stamp=F("stamp") + 1)
    r, queries = sent("look_around", {}, passport, number_ahead())
    assert not r.is_error and len([q for q in queries if q.endswith('; COMMIT"')]) == 1
    assert any(q.startswith('"SELECT day, today, ring, stamp FROM general_store_gauge') for q in queries), queries
    gauge = Gauge.objects.get(passport=passport)
    assert store.pydantic_core.from_json(gauge.today) == {"look_around": [1, r_text(r), r_data(r)]}
    assert gauge.run_calls == 3


def r_text(r: desk.Rendered) -> int:
    return desk.reply_bytes(r)[0]


def r_data(r: desk.Rendered) -> int:
    return desk.reply_bytes(r)[1]


def test_a_write_beside_the_commit_that_fails_is_lost_not_the_call(
    passport: Passport, warm: None, caplog: pytest.LogCaptureFixture
) -> None:
    """The write beside the COMMIT fails: the transaction goes back to its savepoint and commits the call
    without it, and says so in the log."""
    seen: list[int] = []

    def broken(sender: Any, *, with_commit: Any = None, **_: Any) -> None:
        assert with_commit is not None
        with_commit("UPDATE general_store_gauge SET no_such_column = 1", [], seen.append)

    desk.replied.disconnect(dispatch_uid="general_store.count")
    desk.replied.connect(broken, dispatch_uid="test.broken_beside")
    try:
        ahead = number_ahead()
        r, queries = sent("look_around", {}, passport, ahead)
    finally:
        desk.replied.disconnect(dispatch_uid="test.broken_beside")
        desk.replied.connect(store.count, dispatch_uid="general_store.count")
    assert not r.is_error and r.footstep == ahead and Footstep.objects.filter(number=ahead).exists()
    assert queries[-2:] == ['"ROLLBACK TO SAVEPOINT beside_commit"', '"COMMIT"'], queries
    assert seen == [] and "could not write beside the call's COMMIT" in caplog.text
    assert Gauge.objects.get(passport=passport).run_calls == 2  # the warm calls only


def test_a_busy_database_at_the_gauge_s_write_makes_the_call_busy(passport: Passport, warm: None) -> None:
    """Another transaction holds the passport's gauge row longer than the town waits: the write beside the
    COMMIT fails as busy, and the whole call is busy, its footstep not written, as anywhere in a call."""
    import psycopg

    params = connection.get_connection_params()
    other = psycopg.connect(**{k: v for k, v in params.items() if k in ("dbname", "user", "password", "host", "port")})
    try:
        other.execute("SELECT 1 FROM general_store_gauge WHERE passport_id = %s FOR UPDATE", [passport.id])
        with connection.cursor() as c:
            c.execute("SET lock_timeout = '300ms'")
        ahead = number_ahead()
        r, queries = sent("look_around", {}, passport, ahead)
    finally:
        other.rollback()
        other.close()
        with connection.cursor() as c:
            c.execute("RESET lock_timeout")
    assert r.outcome == "busy" and r.is_error and "retryAfterSeconds" in r.structured
    assert not Footstep.objects.filter(number=ahead).exists()
    assert desk.town_mode() == "open"
    assert not [q for q in queries if q == '"ROLLBACK TO SAVEPOINT beside_commit"'], queries


def test_with_its_number_ahead_a_remember_is_two_messages(passport: Passport, warm: None) -> None:
    """The Bank's draw goes in the message of the handler's first statement (desk.Savepoint.lead_with),
    with the passport's lock, the box's read and the note's write on the box's conditions
    (models.lock_passport_then), and the footstep with the COMMIT."""
    for key, value in (("two", "A note in two messages."), ("two", "The same key, kept again.")):
        r, queries = sent("remember", {"key": key, "value": value}, passport, number_ahead())
        assert not r.is_error and Note.objects.get(box=passport.id, key=key).value == value
        assert r.structured["keys"] == 2  # the warm note and this one
        assert len(queries) == 2, queries
        first = queries[0]
        assert first.startswith('"BEGIN; SAVEPOINT ')
        steps = ("INSERT INTO bank_ledger", "FOR UPDATE", "FROM post_office_note", "INSERT INTO post_office_note")
        assert [first.index(s) for s in steps] == sorted(first.index(s) for s in steps)
        assert (
            queries[1].endswith('; COMMIT"') and "synchronous_commit" not in queries[1]
        )  # a change waits for the disk


def test_a_note_the_box_has_no_room_for_is_written_in_its_message_and_refused(passport: Passport, warm: None) -> None:
    """The note's write in the message of the box's read holds to the box's checks: a value that takes the
    box past its allowance writes nothing, and the refusal says what the box keeps."""
    from districts.post_office import services as post_office

    value = "x" * post_office.VALUE_CAP  # four fit in the box's 16 KB, the fifth does not
    for n in range(5):
        r, queries = sent("remember", {"key": f"big{n}", "value": value}, passport, number_ahead())
        assert r.is_error is (n == 4), r.structured
    assert r.is_error and r.outcome == "refused:box-size", r.structured
    assert "INSERT INTO post_office_note" in queries[0]
    assert not Note.objects.filter(box=passport.id, key="big4").exists()
    kept = sum(Note.objects.filter(box=passport.id).values_list("size", flat=True))
    assert r.structured["keptBytes"] == kept and kept <= post_office.ALLOWANCE_BYTES


def test_the_banks_refusal_comes_with_the_handlers_first_statement_and_takes_it_back(
    passport: Passport, warm: None, settings: Any
) -> None:
    """At zero, the draw that rode with the handler's first statement refuses as its rows come: the
    handler goes no further, its savepoint takes the statement and the draw back, and the footstep says
    the Bank refused."""
    from districts.bank import services as bank

    settings.CHANGES_PER_HOUR = bank.balance_of(passport).drawn  # the warm note's draw spent the hour
    r, queries = sent("remember", {"key": "refused", "value": "A note the Bank refuses."}, passport, number_ahead())
    assert r.is_error and r.outcome == "refused:authority", r.structured
    assert not Note.objects.filter(box=passport.id, key="refused").exists()
    assert bank.balance_of(passport).drawn == settings.CHANGES_PER_HOUR  # the refused draw taken back
    assert Footstep.objects.get(number=r.footstep).outcome == "refused:authority"
    assert "INSERT INTO bank_ledger" in queries[0] and "FOR UPDATE" in queries[0]
    assert "INTO post_office_note" in queries[0]  # the note's write, in the draw's message, taken back with it


def test_a_tools_calls_count_and_session_are_one_message(passport: Passport, warm: None) -> None:
    """The face's trip before the call (server.admit): the request counted against its address, its
    session read and the footstep's number taken ahead, in one message. A wait of its own set around
    the count (a SET before it and after it) made every request three round trips where it is one."""
    opened = sessions.open_session("192.0.2.7", "test", passport)
    assert isinstance(opened, sessions.Opened)
    assert server.admit(server.Unchecked(opened.sid, "192.0.2.7")) is not None  # its statements prepared
    unchecked = server.Unchecked(opened.sid, "192.0.2.7")
    admitted, queries = traced(lambda: server.admit(unchecked))
    assert admitted is not None and unchecked.found is True and unchecked.over is None
    assert len(queries) == 1, queries
