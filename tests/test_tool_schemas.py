"""Every registered tool's schema against the tool reference, in-process: the reference's own checker
(../shared/spec/check_tools.py, imported by its path) reads the tools/list the face would serve, so
the comparison needs no live town and runs with the unit tests. The live side of the same listing (the
MCP SDK reading it over HTTP) stays in tests/e2e/test_sdk_client.py.

Tools the reference leaves "Documented after review." are ours to design: each is documented in
docs/tools/*.json, in the reference's own shape, and checked against that entry instead (an
undocumented tool that is registered without one still fails)."""

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from clockford.face import server
from districts.registry import TOOLS
from tests.support import ROOT, SHARED, have_shared

OURS = ROOT / "docs" / "tools"


def checker() -> ModuleType:
    if not have_shared():
        pytest.skip("../shared/spec (check_tools.py and tools.json) is not beside the repository")
    spec = importlib.util.spec_from_file_location("check_tools", SHARED / "spec" / "check_tools.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def our_designs() -> dict[str, dict[str, object]]:
    """The tools we designed where the reference says "Documented after review.", by name."""
    return {t["name"]: t for f in sorted(OURS.glob("*.json")) for t in json.loads(f.read_text())["tools"]}


def reference_with_ours(tmp_path: Path) -> Path:
    """The reference's tools.json, each undocumented tool we designed replaced by our documented entry."""
    reference = json.loads((SHARED / "spec" / "tools.json").read_text())
    ours = our_designs()
    undocumented = {t["name"] for t in reference["tools"] if not t["documented"]}
    assert set(ours) <= undocumented, "docs/tools documents only what the reference leaves to review"
    reference["tools"] = [ours.get(t["name"], t) for t in reference["tools"]]
    merged = tmp_path / "tools.json"
    merged.write_text(json.dumps(reference))
    return merged


def served() -> list[dict[str, Any]]:
    """The listing exactly as a client receives it: the face's tools/list, in its JSON form."""
    return [t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in server.tool_list()]


def run_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, listed: list[dict[str, Any]], ours: bool) -> int:
    """The reference's checker on `listed`, against the reference with our designs in it (`ours`) or the
    reference alone; what it says is in the test's captured output. Its exit code."""
    check = checker()
    listing = tmp_path / "tools-list.json"
    listing.write_text(json.dumps(listed))
    against = [str(reference_with_ours(tmp_path))] if ours else []
    monkeypatch.setattr("sys.argv", ["check_tools.py", str(listing), *against])
    return int(check.main())


def test_every_registered_tool_matches_the_reference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    failed = run_check(tmp_path, monkeypatch, served(), ours=True)
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


def test_our_designed_tools_are_registered_and_checked() -> None:
    """Each tool of docs/tools is served (a design nobody built is not registered, and one built must be
    listed there to pass the check above), and the reference's own checker fails it without our entry."""
    if not have_shared():
        pytest.skip("../shared/spec is not beside the repository")
    assert set(our_designs()) <= set(TOOLS)
    assert {"my_jobs", "job_outside"} <= set(our_designs())


def test_the_reference_alone_refuses_an_undocumented_tool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run_check(tmp_path, monkeypatch, [t for t in served() if t["name"] == "my_jobs"], ours=False)
    assert 'my_jobs: registered but "Documented after review."' in capsys.readouterr().out


def test_a_wrong_schema_of_ours_fails_the_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The check of our designs can fail: job_outside listed with a why of another length is caught."""
    listed = served()
    for t in listed:
        if t["name"] == "job_outside":
            t["inputSchema"]["properties"]["why"]["maxLength"] = 9
    run_check(tmp_path, monkeypatch, listed, ours=True)
    assert "job_outside.why: maxLength should be 500, got 9" in capsys.readouterr().out


def test_every_optional_argument_sent_as_null_is_taken_as_left_out() -> None:
    """Clients whose models fill every field send null for an optional argument they leave out: each
    tool's arguments read it as left out (its default), while a required argument sent as null is
    still refused, naming the field."""
    from pydantic import ValidationError

    for tool in TOOLS.values():
        fields = tool.args.model_fields
        optional = {name: None for name, f in fields.items() if not f.is_required()}
        assert optional, tool.name  # job_id at least
        required = [name for name, f in fields.items() if f.is_required()]
        if not required:
            assert tool.args.model_validate(optional) == tool.args.model_validate({}), tool.name
        for name in required:
            with pytest.raises(ValidationError) as refused:
                tool.args.model_validate({name: None})
            assert name in {str(e["loc"][0]) for e in refused.value.errors()}, (tool.name, name)


def test_every_integer_argument_takes_a_whole_number_written_as_a_float() -> None:
    """JSON Schema's integer takes 5.0, and Python's json module writes a float so: every integer argument
    of every tool reads a whole float as the integer, and still refuses 5.5, "5" and true."""
    from pydantic import ValidationError

    from clockford.town.tooling import _integer_fields

    def refused(tool: Any, name: str, value: Any) -> bool:
        """Whether the tool's arguments refuse `value` for `name` (other arguments may be missing)."""
        try:
            tool.args.model_validate({name: value})
        except ValidationError as error:
            return any(e["loc"][:1] == (name,) for e in error.errors())
        return False

    seen = 0
    for tool in TOOLS.values():
        for name in _integer_fields(tool.args):
            bounds = {type(m).__name__: m for m in tool.args.model_fields[name].metadata}
            low = int(getattr(bounds.get("Ge"), "ge", None) or getattr(bounds.get("Gt"), "gt", 0) + 1)
            assert not refused(tool, name, low), (tool.name, name)
            assert not refused(tool, name, float(low)), (tool.name, name)
            for wrong in (low + 0.5, str(low), True, float("inf")):
                assert refused(tool, name, wrong), (tool.name, name, wrong)
            seen += 1
    assert seen >= 10
