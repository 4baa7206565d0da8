"""The walls the hall keeps, read from its source: it is split by feature into modules a person can
read whole (none over 400 lines); it asks the districts' services and never their models; no module
reaches into another's private names; and the town's core never imports the hall."""

import ast
from collections.abc import Iterator
from pathlib import Path

from tests import source

ROOT = Path(__file__).resolve().parents[2]
HALL = ROOT / "hall"
CORE = ROOT / "clockford" / "town"
MOST_LINES = 400


def modules(under: Path, *, tests: bool = False) -> Iterator[Path]:
    for path in sorted(under.rglob("*.py")):
        parts = path.relative_to(under).parts
        if "migrations" in parts or (not tests and "tests" in parts):
            continue
        yield path


def imports(path: Path) -> Iterator[tuple[str, str]]:
    """(module, name) for each name a module imports: ("hall.http", "refuse"), ("districts.tavern", "models"),
    and (module, "") for a plain `import module`."""
    for node in source.nodes(path):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                yield node.module, alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, ""


def ours(module: str) -> bool:
    return module.split(".")[0] in ("hall", "clockford", "districts")


def test_no_hall_module_is_over_400_lines() -> None:
    found = {str(p.relative_to(ROOT)): len(p.read_text().splitlines()) for p in modules(HALL)}
    assert found, "no hall modules found"
    assert {path: n for path, n in found.items() if n > MOST_LINES} == {}


def test_the_hall_imports_no_district_models() -> None:
    """The hall asks a district's services (find_*, access_*, do_*), never its models."""
    found = []
    for path in modules(HALL):
        for module, name in imports(path):
            parts = module.split(".")
            if parts[0] == "districts" and ("models" in parts or name == "models"):
                found.append(f"{path.relative_to(ROOT)}: {module} {name}".strip())
    assert found == []


def test_no_module_imports_another_modules_private_names() -> None:
    """A name with a leading underscore is its module's own: importing it, or reading it off an imported
    module (views._refuse), is what these walls forbid. The hall's tests are held to it too."""
    found = []
    for path in modules(HALL, tests=True):
        bound: set[str] = set()  # names in this file bound to one of the town's modules
        for module, name in imports(path):
            if not ours(module):
                continue
            if name.startswith("_"):
                found.append(f"{path.relative_to(ROOT)}: from {module} import {name}")
            bound.add(name or module.split(".")[0])
        for node in source.nodes(path):
            if isinstance(node, ast.ImportFrom) and node.module and ours(node.module):
                bound.update(alias.asname for alias in node.names if alias.asname)
        for node in source.nodes(path):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in bound
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and node.attr != "_meta"  # Django's model API, public despite its underscore
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value.id}.{node.attr}")
    assert found == []


def test_the_core_never_imports_the_hall() -> None:
    found = [
        f"{path.relative_to(ROOT)}: {module}"
        for path in modules(CORE, tests=True)
        for module, name in imports(path)
        if module.split(".")[0] == "hall"
    ]
    assert found == []
