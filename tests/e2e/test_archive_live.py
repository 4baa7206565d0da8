"""The Archive in a live town: its fold loop folds footsteps within seconds, and footsteps written by
calls at once get distinct numbers and all end up in one tree, whatever folds race beside them."""

import hashlib
import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from nacl.signing import SigningKey

from clockford.town import archive, signing
from tests.support import PYTHON, ROOT, RawSession, Town, make_town


@pytest.fixture
def live_town(tmp_path: Path) -> Iterator[Town]:
    t = make_town(tmp_path).start()  # folds every second (CLOCKFORD_FOLD_SECONDS=1)
    yield t
    t.close()


def checkpoint_size(town: Town) -> int:
    out = town.manage("archive", "checkpoint").stdout
    if out.startswith("No checkpoint yet"):
        return 0
    origin, size, _root = out.splitlines()[:3]
    assert origin == "clockford-archive"
    return int(size)


def test_the_fold_loop_folds_footsteps_within_seconds(live_town: Town) -> None:
    s = RawSession(live_town.mcp)
    made = 0
    for i in range(12):
        r = s.call("remember", {"key": f"k{i % 3}", "value": "v"}) if i % 2 else s.call("look_around")
        assert r["isError"] is False
        made += 1
    refused = s.call("recall", {"key": "never-kept"})
    assert refused["isError"] is True and "footstep" in refused["structuredContent"]  # refusals are footsteps too
    made += 1
    t0 = time.monotonic()
    time.sleep(2.0)  # one turn of the loop (1 s here) after the footsteps settle (1 s)
    size = 0
    while time.monotonic() - t0 < 8:
        # `archive checkpoint` only reads: whatever it shows, the server's own loop folded.
        size = checkpoint_size(live_town)
        if size >= made:
            break
        time.sleep(0.3)
    assert size >= made, f"the fold loop folded only {size} of {made} footsteps in 8 s"
    verified = live_town.manage("archive", "verify")
    assert (
        verified.stdout.strip() == f"The Archive verifies: {made} footsteps, every checkpoint signed by the town key."
    )
    # `manage.py archive proof N` in the town's own environment, checked here with the public key alone.
    proof = json.loads(live_town.manage("archive", "proof", str(refused["structuredContent"]["footstep"])).stdout)
    assert proof["verifies"] is True
    public = SigningKey(bytes.fromhex(Path(live_town.env["CLOCKFORD_KEY_FILE"]).read_text().strip())).verify_key
    pk = public.encode()
    assert proof["keyId"] == hashlib.sha256(pk).hexdigest()[:16]
    assert signing.verify_bytes(proof["checkpoint"].encode(), proof["signature"], pk.hex())
    assert archive.verify_inclusion(proof)


def test_concurrent_calls_get_distinct_numbers_and_racing_folds_never_fork_the_tree(live_town: Town) -> None:
    threads, calls = 4, 50
    done = subprocess.run(
        [PYTHON, "-m", "clockford.town.tests.crowd", str(threads), str(calls)],
        cwd=ROOT,
        env=live_town.env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    crowd = json.loads(done.stdout)
    assert crowd["errors"] == []
    assert crowd["mode"] == "open"
    numbers = crowd["numbers"]
    assert len(numbers) == threads * calls
    assert None not in numbers
    assert len(set(numbers)) == len(numbers)
    # Folds racing each other and the town's own loop: each folded something or found nothing;
    # a fold that lost a race to another says so with 0, not with an error.
    assert all(isinstance(n, int) for n in crowd["folds"]), [n for n in crowd["folds"] if not isinstance(n, int)][:3]
    assert sum(crowd["folds"]) > 0
    for pair in crowd["pairs"]:
        # Two folds started at one instant over three new footsteps: one takes them, never both.
        assert len(pair) == 2 and all(isinstance(n, int) for n in pair), pair
        assert min(pair) == 0 and max(pair) <= 3, pair
    assert crowd["footsteps"] == threads * calls + 15
    assert crowd["leaves"] == crowd["size"] == crowd["footsteps"]
    verified = live_town.manage("archive", "verify")
    assert verified.stdout.strip() == (
        f"The Archive verifies: {crowd['footsteps']} footsteps, every checkpoint signed by the town key."
    )
