"""Every registered tool's schema against the tool reference, in-process: the reference's own checker
(../shared/spec/check_tools.py, imported by its path) reads the tools/list the face would serve, so
the comparison needs no live town and runs with the unit tests. The live side of the same listing (the
MCP SDK reading it over HTTP) stays in tests/e2e/test_sdk_client.py."""

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from clockford.face import server
from districts.registry import TOOLS
from tests.support import SHARED, have_shared


def checker() -> ModuleType:
    if not have_shared():
        pytest.skip("../shared/spec (check_tools.py and tools.json) is not beside the repository")
    spec = importlib.util.spec_from_file_location("check_tools", SHARED / "spec" / "check_tools.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Tools the reference leaves "Documented after review." and the town designed itself: each is checked
# against its own documented schema (docs/university.md for graduate), read into a copy of tools.json.
OUR_DESIGN: dict[str, dict[str, Any]] = {
    "graduate": {
        "documented": True,
        "kind": "read",
        "arguments": [],
        "annotations": {
            "readOnlyHint": True,
            "destructiveHint": False,
            "idempotentHint": False,
            "openWorldHint": False,
        },
    },
}


def reference_with_our_designs(tmp_path: Path) -> Path:
    reference = json.loads((SHARED / "spec" / "tools.json").read_text())
    for tool in reference["tools"]:
        if tool["name"] in OUR_DESIGN:
            assert tool["documented"] is False, f"{tool['name']} is documented now: check it as the reference says"
            tool.update(OUR_DESIGN[tool["name"]])
    path = tmp_path / "tools-with-our-designs.json"
    path.write_text(json.dumps(reference))
    return path


def test_every_registered_tool_matches_the_reference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    check = checker()
    # The listing exactly as a client receives it: the face's tools/list, in its JSON form.
    listing = tmp_path / "tools-list.json"
    listing.write_text(
        json.dumps([t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in server.tool_list()])
    )
    monkeypatch.setattr("sys.argv", ["check_tools.py", str(listing), str(reference_with_our_designs(tmp_path))])
    failed = check.main()
    *lines, summary = capsys.readouterr().out.splitlines()
    names = set(TOOLS)
    # Tools not built yet are missing, and that is all: every registered tool matches the reference.
    others = [line for line in lines if not line.endswith(": documented tool missing from tools/list")]
    assert others == [], others
    assert not {line.split(":")[0] for line in lines} & names
    assert summary == f"{len(names)} passed, {len(lines)} failed"
    assert failed == (1 if lines else 0)


def test_the_listing_names_every_registered_tool_once() -> None:
    listed = [t.name for t in server.tool_list()]
    assert sorted(listed) == sorted(TOOLS) and len(listed) == len(set(listed))
