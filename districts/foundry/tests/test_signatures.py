"""The single-file verifier (docs/verify_signature.py) checks every kind of signature the town makes,
and `manage.py signature check FILE` says whether this town made it."""

import copy
import importlib.util
import json
from datetime import timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from clockford.town import archive
from clockford.town.models import Passport
from districts.testing import visit


RUN_KINDS = {"clockford-alley-1", "clockford-dice-1"}


def verifier() -> ModuleType:
    spec = importlib.util.spec_from_file_location("v", Path(settings.BASE_DIR) / "docs" / "verify_signature.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def papers(alice: Passport) -> dict[str, Any]:
    attended = [visit(alice, "attend", course=c).structured for c in ("ten-habits", "reading-provenance")]
    attended += [visit(alice, "attend", course=c).structured for c in ("waiting-for-your-person", "words-are-data")]
    cast = visit(alice, "foundry_cast", slips=[a["slip"] for a in attended]).structured
    diploma = visit(alice, "graduate").structured
    archive.fold_all(settle=timedelta(0))
    proof = archive.inclusion(attended[0]["footstep"])
    return {"attended": attended, "cast": cast, "diploma": diploma, "proof": proof}


def test_it_verifies_every_kind_and_names_what_fails(alice: Passport) -> None:
    v = verifier()
    p = papers(alice)
    whole = [*p["attended"], p["cast"], p["diploma"], p["proof"]]
    results = v.check_any(whole, [])
    kinds = [what.split()[0] for what, _ in results]
    assert all(problem is None for _, problem in results), results
    # Every kind but the runs' results, which their districts' own tests sign and verify with this
    # same verifier (districts/alley/tests/test_three_agents.py, districts/dice_house/tests/test_runs.py).
    assert set(kinds) == {*v.KINDS, "clockford-archive"} - RUN_KINDS
    # Tampered: a changed course text, a changed slip, a forged certificate, a bent proof.
    text = copy.deepcopy(p["attended"][0])
    text["text"] += " "
    assert (
        v.check_any(text, [])[0][1]
        == f"the text has {text['signed']['statement']['bytes'] + 1} bytes, not {text['signed']['statement']['bytes']}"
    )
    slip = copy.deepcopy(p["attended"][0]["slip"])
    slip["statement"]["footstep"] += 1
    assert "does not check" in str(v.check_signed(slip, [])[1])
    cert = copy.deepcopy(p["cast"]["certificate"])
    cert["publicKey"] = p["attended"][0]["slip"]["publicKey"]
    assert v.check_signed(cert, [])[1] == "statement.key is not the id of publicKey (the first 16 hex of its sha256)"
    bent = {**p["proof"], "leaf": "00" * 32}
    assert "not included" in str(v.check_archive(bent, [])[1])
    # Pinned to a key that did not sign it.
    assert (
        v.check_signed(p["cast"]["certificate"], ["ab" * 32])[1]
        == "signed by a key that is not one of those given with --key"
    )


def test_the_command_says_whether_this_town_signed_it(
    alice: Passport, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = papers(alice)
    good = tmp_path / "good.json"
    good.write_text(json.dumps([*p["attended"], p["cast"], p["diploma"], p["proof"]]))
    call_command("signature", "check", str(good))
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 11 and all(line.endswith(": ok, signed by this town") for line in lines), lines
    bad = tmp_path / "bad.json"
    slip = copy.deepcopy(p["attended"][1]["slip"])
    slip["statement"]["day"] = "2000-01-01"
    bad.write_text(json.dumps(slip))
    with pytest.raises(CommandError, match="1 of 1 signatures do not check"):
        call_command("signature", "check", str(bad))
