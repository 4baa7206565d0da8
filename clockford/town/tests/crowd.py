"""A crowd at the desk, run by test_archive_live in a live town's own environment and database:

    python -m clockford.town.tests.crowd THREADS CALLS

THREADS visitors make CALLS calls each through the real desk at once, while two folders fold the
Archive as fast as they can beside them (and the town's own fold loop, if it runs). Then, a few
times, two folds are started at the same instant over fresh footsteps. Prints one JSON object.
"""

import datetime as dt
import json
import os
import sys
import threading
from typing import Any

import django


def main(threads: int, calls: int) -> dict[str, Any]:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clockford.settings")
    django.setup()
    from django.db import IntegrityError, connections
    from django.utils import timezone

    from clockford.town import archive, desk
    from clockford.town.models import ArchiveLeaf, Checkpoint, Footstep, Passport
    from districts.registry import TOOLS

    lock = threading.Lock()
    numbers: list[int | None] = []
    errors: list[str] = []
    folds: list[int | str] = []
    calling = threading.Event()
    start = threading.Barrier(threads + 2)

    def fold_once() -> int | str:
        try:
            return archive.fold(settle=dt.timedelta(0))
        except IntegrityError:
            # The other folder wrote the same leaves first; this fold rolled back whole.
            return "lost the race"

    def visitor(i: int) -> None:
        try:
            now = timezone.now()
            passport = Passport.objects.create(issued_at=now, last_seen=now)
            start.wait()
            for j in range(calls):
                name = ("remember", "recall", "look_around", "recall")[j % 4]
                args: dict[str, Any] = {"key": f"errand/{j % 5}"} if name != "look_around" else {}
                if name == "remember":
                    args["value"] = f"visitor {i}, call {j}"
                r = desk.run(TOOLS[name], args, passport, None)
                with lock:
                    numbers.append(r.footstep)
        except Exception as e:
            errors.append(f"visitor {i}: {e!r}")
        finally:
            connections.close_all()

    def folder() -> None:
        try:
            start.wait()
            while calling.is_set():
                n = fold_once()
                with lock:
                    folds.append(n)
        except Exception as e:
            errors.append(f"folder: {e!r}")
        finally:
            connections.close_all()

    calling.set()
    crowd = [threading.Thread(target=visitor, args=(i,)) for i in range(threads)]
    crowd += [threading.Thread(target=folder) for _ in range(2)]
    for t in crowd:
        t.start()
    for t in crowd[:threads]:
        t.join()
    calling.clear()
    for t in crowd[threads:]:
        t.join()

    # Two folds at the same instant, over footsteps neither has seen (and nothing else left over).
    archive.fold_all(settle=dt.timedelta(0))
    now = timezone.now()
    passport = Passport.objects.create(issued_at=now, last_seen=now)
    pairs: list[list[int | str]] = []
    for _ in range(5):
        for _ in range(3):
            desk.run(TOOLS["look_around"], {}, passport, None)
        both = threading.Barrier(2)
        pair: list[int | str] = []

        def racer(both: threading.Barrier = both, pair: list[int | str] = pair) -> None:
            try:
                both.wait()
                n = fold_once()
                with lock:
                    pair.append(n)
            except Exception as e:
                errors.append(f"racer: {e!r}")
            finally:
                connections.close_all()

        two = [threading.Thread(target=racer) for _ in range(2)]
        for t in two:
            t.start()
        for t in two:
            t.join()
        pairs.append(pair)
    archive.fold_all(settle=dt.timedelta(0))
    last = archive.latest_checkpoint()
    return {
        "numbers": numbers,
        "errors": errors,
        "folds": folds,
        "pairs": pairs,
        "mode": desk.town_mode(),
        "footsteps": Footstep.objects.count(),
        "leaves": ArchiveLeaf.objects.count(),
        "checkpoints": Checkpoint.objects.count(),
        "size": last.size if last else 0,
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]), int(sys.argv[2]))))
