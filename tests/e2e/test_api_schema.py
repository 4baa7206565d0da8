"""The read API against its own OpenAPI description, by schemathesis over real HTTP (the security notes'
check 19): for every endpoint, arguments drawn from the description, valid and not (wrong types, edge
numbers, odd characters, NUL included), and the checks schemathesis has: no 5xx, every status and
content type described, every body matching its schema, valid arguments accepted, invalid ones refused,
and the links between answers followed. Examples are derandomized so CI sees the same ones every run;
FUZZ_RANDOM=1 draws new ones, FUZZ_SCALE=N draws N times as many."""

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.support import PYTHON, RawSession, Town

TownFactory = Callable[..., Town]

SCHEMATHESIS = Path(PYTHON).parent / "schemathesis"

# A consistency proof between a larger first size and a smaller second is refused (422, docs/api.md),
# which no OpenAPI description can say of two arguments together: for that endpoint alone, a 422 is
# an expected answer to arguments the description allows.
CONFIG = """\
[[operations]]
include-path = "/api/archive/consistency"
checks.positive_data_acceptance.expected-statuses = ["2XX", "404", "422", "503"]
"""


def test_the_read_api_answers_as_it_describes_itself(town_factory: TownFactory, tmp_path: Path) -> None:
    # Far more requests than a reader makes in a minute: the limit per address is not what is tested.
    town = town_factory(env={"CLOCKFORD_REQUESTS_PER_ADDRESS": "1000000"}).start()
    agent = RawSession(town.mcp, client_name="schema-test")
    for i in range(6):
        assert agent.call("remember", {"key": f"k{i}", "value": "a note"})["isError"] is False
    town.fold()  # checkpoints and proofs to read
    config = tmp_path / "schemathesis.toml"
    config.write_text(CONFIG)
    scale = int(os.environ.get("FUZZ_SCALE", "1"))
    run = [
        str(SCHEMATHESIS),
        "--config-file",
        str(config),
        "run",
        town.url + "/api/openapi.json",
        "--checks",
        "all",
        "--max-examples",
        str(15 * scale),
        "--report-dir",
        str(tmp_path / "reports"),
        "--no-color",
    ]
    if not os.environ.get("FUZZ_RANDOM"):
        run += ["--seed", "7", "--generation-deterministic"]
    done = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "12 passed" in done.stdout or "Tested: 12" in done.stdout, done.stdout[-3000:]
