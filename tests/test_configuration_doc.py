"""docs/configuration.md names every variable the town reads from the environment, with the default
the code has, and nothing the code no longer reads; the README's short table names only variables
that exist. Read from the code itself (the settings' env*() calls, the serving module, the town script),
so a variable added without a line in the doc fails here."""

import ast
import operator
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "configuration.md"
README = ROOT / "README.md"
READERS = {"env", "envint", "envbool", "envsecret", "envfloat", "envurl"}
_ARITHMETIC = {ast.Mult: operator.mul, ast.Add: operator.add}


def _number(node: ast.expr) -> int | None:
    """A default written as a number or plain arithmetic of numbers (512 * 1024), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
        left, right = _number(node.left), _number(node.right)
        if left is not None and right is not None:
            return int(_ARITHMETIC[type(node.op)](left, right))
    return None


def settings_reads() -> dict[str, tuple[str, ast.Call]]:
    """Each variable clockford/settings.py reads: the reader (env, envint, ...) and the call."""
    tree = ast.parse((ROOT / "clockford" / "settings.py").read_text())
    found: dict[str, tuple[str, ast.Call]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in READERS:
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found[first.value] = (node.func.id, node)
    return found


def other_reads() -> set[str]:
    """Variables read outside the settings: by the serving module and by the town script."""
    serve = (ROOT / "clockford" / "serve.py").read_text()
    script = (ROOT / "town").read_text()
    return set(re.findall(r"environ\.get\(\"(CLOCKFORD_[A-Z0-9_]+)\"", serve)) | set(
        re.findall(r"\$\{(CLOCKFORD_[A-Z0-9_]+)", script)
    )


def doc_rows() -> dict[str, str]:
    """The doc's table rows by the variable each one names first."""
    rows = {}
    for line in DOC.read_text().splitlines():
        m = re.match(r"\| `([A-Z][A-Z0-9_]+)` \|", line)
        if m:
            rows[m.group(1)] = line
    return rows


def test_the_readers_are_found() -> None:
    # A change to how the settings read the environment must not leave this test reading nothing.
    reads = settings_reads()
    assert {"CLOCKFORD_URL", "CLOCKFORD_CALLS_PER_MINUTE", "DATABASE_URL", "CLOCKFORD_SECRET_KEY"} <= set(reads)
    assert len(reads) > 70
    assert {"CLOCKFORD_SERVER", "CLOCKFORD_TEST_WORKERS"} <= other_reads()


def test_every_variable_the_town_reads_has_a_row() -> None:
    rows = doc_rows()
    missing = sorted((set(settings_reads()) | other_reads()) - set(rows))
    assert missing == [], f"docs/configuration.md has no row for {missing}"


def test_the_doc_names_no_variable_the_town_does_not_read() -> None:
    read = set(settings_reads()) | other_reads()
    named = set(re.findall(r"`(CLOCKFORD_[A-Z0-9_]+)", DOC.read_text())) | set(doc_rows())
    # A secret's file form is NAME_FILE, read by envsecret() for every secret.
    secrets = {name + "_FILE" for name, (reader, _) in settings_reads().items() if reader == "envsecret"}
    assert sorted(named - read - secrets) == []


def test_each_secret_is_marked_and_each_default_is_the_codes() -> None:
    rows = doc_rows()
    for name, (reader, call) in settings_reads().items():
        row = rows[name]
        if reader == "envsecret":
            assert "*secret*" in row, name
        default = _number(call.args[1]) if reader in ("envint", "envfloat") and len(call.args) > 1 else None
        if default is not None:
            cell = row.rsplit("|", 2)[-2]
            assert f"`{default}`" in cell, f"{name}: the code's default is {default}, the doc says {cell.strip()}"
        if reader == "envbool":
            on = len(call.args) > 1 and isinstance(call.args[1], ast.Constant) and call.args[1].value == "1"
            assert row.rsplit("|", 2)[-2].strip() == ("`1`" if on else "`0`"), name


def test_the_readmes_table_names_only_variables_in_the_doc() -> None:
    section = README.read_text().split("## Configuration", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)`", section, re.M))
    assert named, "the README's configuration table is gone"
    assert sorted(named - set(doc_rows())) == []
    assert "docs/configuration.md" in section
