"""The house's walls (docs/architecture.md "The layers"), read from the source itself.

Every fact about a tool is on its Tool, so no module outside the tool's own district and the
registry keys anything by its name; the core (clockford/town) knows neither the hall nor a district;
a district knows neither the face nor the hall. A wall that is not tested is a wish."""

import ast
from collections.abc import Iterator
from pathlib import Path

from districts.registry import TOOLS
from tests import source

ROOT = Path(__file__).resolve().parent.parent


def product_modules(*folders: str) -> Iterator[Path]:
    """The hand-written product code under the folders: no tests, no migrations."""
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT).parts
            if "tests" in parts or "migrations" in parts or path.name == "conftest.py":
                continue
            yield path


def imported(path: Path) -> Iterator[tuple[int, str]]:
    for node in source.nodes(path):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module


def keyed_names(path: Path, names: set[str]) -> Iterator[tuple[int, str]]:
    """Tool names used as keys: a dict's key, a side of a comparison, or a member of a collection
    written at module level (a name-keyed list). A name said to an agent inside a function (a
    youCan hint, a replay's tool) is a value, not a key."""
    tree = source.tree(path)

    def named(node: ast.AST | None) -> Iterator[tuple[int, str]]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
            yield node.lineno, node.value

    for node in source.nodes(path):
        if isinstance(node, ast.Dict):
            for key in node.keys:
                yield from named(key)
        elif isinstance(node, ast.Compare):
            for side in [node.left, *node.comparators]:
                yield from named(side)
                if isinstance(side, ast.List | ast.Tuple | ast.Set):
                    for element in side.elts:
                        yield from named(element)
    for statement in tree.body:
        if isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value is not None:
            if isinstance(statement.value, ast.List | ast.Tuple | ast.Set):
                for element in statement.value.elts:
                    yield from named(element)


def test_no_tool_name_is_a_key_outside_its_district_and_the_registry() -> None:
    # A tool's district is the folder its handler is written in.
    home = {name: Path(*tool.handler.__module__.split(".")[:2]) for name, tool in TOOLS.items()}
    strays = []
    for path in product_modules("clockford", "districts", "hall"):
        where = path.relative_to(ROOT)
        # The registry names every tool; a management command's subcommands are words of its own
        # command line (`archive verify` is not the tool verify).
        # The Directory's vocabulary maps English words a need may hold to the words servers use, and
        # a word may be a tool's name too ("I keep forgetting my meetings": forget).
        if (
            where in (Path("districts/registry.py"), Path("districts/town_hall/vocabulary.py"))
            or "commands" in where.parts
        ):
            continue
        for line, name in keyed_names(path, set(TOOLS)):
            if home[name] not in where.parents:
                strays.append(f"{where}:{line} keys {name!r}")
    assert strays == []


def test_the_core_imports_no_district() -> None:
    """It reads the tools through tooling.registry(); hall/tests/test_walls.py holds that it imports
    no hall either."""
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in product_modules("clockford/town")
        for line, module in imported(path)
        if module.split(".")[0] == "districts"
    ]
    assert found == []


def test_a_district_imports_neither_the_face_nor_the_hall() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in product_modules("districts")
        for line, module in imported(path)
        if module.split(".")[0] == "hall" or module.startswith("clockford.face")
    ]
    assert found == []


def test_the_walls_can_fail() -> None:
    """The readers above see what they look for: a test that cannot fail is a defect."""
    sample = ROOT / "tests" / "test_house.py"
    assert "districts.registry" in {m for _, m in imported(sample)}
    names = {"remember"}
    probe = ROOT / "var" / "house-probe.py"
    probe.parent.mkdir(exist_ok=True)
    probe.write_text('KEPT = ("remember",)\nWANTS = {"remember": 1}\n')
    try:
        assert [n for _, n in keyed_names(probe, names)] == ["remember", "remember"]
    finally:
        probe.unlink()
