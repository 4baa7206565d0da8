"""The town's own source, parsed once a process for the tests that read it (tests/test_house.py,
hall/tests/test_walls.py) and for the root conftest.py, which reads each test file's names: several of their tests walk the same files, and parsing them again for
each took seconds of the unit tests. The trees are only read, never changed."""

import ast
import functools
from pathlib import Path


@functools.cache
def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), str(path))


@functools.cache
def nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of the file, as ast.walk gives them."""
    return tuple(ast.walk(tree(path)))
