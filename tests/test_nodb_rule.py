"""The rule that marks a test nodb (conftest.py), which CI's PostgreSQL run leaves out: a test that may
reach a database must never be marked, so the rule reads code, not words, and a nodb test that starts
a process anyway (a process reads DATABASE_URL) is refused, not quietly left out of PostgreSQL's run."""

import subprocess
from pathlib import Path

import pytest

import conftest


def named(tmp_path: Path, code: str) -> frozenset[str]:
    # A file of its own for each: conftest.named_in reads a file once a run.
    path = tmp_path / f"test_sample_{len(list(tmp_path.iterdir()))}.py"
    path.write_text(code)
    return conftest.named_in(path) & conftest.REACHES_OUT


def test_what_a_file_names_as_code_counts_and_its_comments_and_words_do_not(tmp_path: Path) -> None:
    assert named(tmp_path, '# run ./town test, then subprocess\nWORDS = ["DATABASE_URL=postgresql://x"]\n') == set()
    assert named(tmp_path, "import subprocess\n") == {"subprocess"}
    assert named(tmp_path, "from subprocess import run\n") == {"subprocess"}
    assert named(tmp_path, "import os\nos.system('true')\n") == {"system"}
    assert named(tmp_path, 'import os\nurl = os.environ["DATABASE_URL"]\n') == {"DATABASE_URL"}
    assert named(tmp_path, "from tests.support import own_town_run\n") == {"own_town_run"}
    assert named(tmp_path, "import psycopg.sql\n") == {"psycopg"}


def test_a_test_whose_file_starts_a_process_is_not_nodb(request: pytest.FixtureRequest) -> None:
    reason = conftest.nodb_reason(request.node, False, frozenset({"subprocess"}))
    assert reason == "its file names subprocess"
    assert "subprocess" in conftest.named_in(request.node.path)
    assert request.node.get_closest_marker("nodb") is None


def test_a_test_that_serves_a_town_or_has_the_database_is_not_nodb(request: pytest.FixtureRequest) -> None:
    assert conftest.nodb_reason(request.node, True, frozenset()) == "it serves a town"
    request.node.add_marker(pytest.mark.django_db)
    assert conftest.nodb_reason(request.node, False, frozenset()) == "it is marked django_db"


def test_a_nodb_test_that_starts_a_process_is_refused_saying_why() -> None:
    conftest._in_nodb_test = "tests/test_sample.py::test_it"
    try:
        with pytest.raises(RuntimeError) as refused:
            subprocess.run(["true"], check=True)
    finally:
        conftest._in_nodb_test = None
    assert str(refused.value) == (
        "tests/test_sample.py::test_it starts a process (subprocess.Popen) but is marked nodb, so CI would "
        "not run it on PostgreSQL: have its file name what it runs (conftest.py's REACHES_OUT), and it runs "
        "on both."
    )
    assert subprocess.run(["true"], check=True).returncode == 0
