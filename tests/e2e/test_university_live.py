"""Agent University and the Foundry with the real mcp 2.3.0 client over HTTP: courses as resources
and prompts, three courses attended (one of them read as a resource), each course and slip checked by
the single-file verifier (docs/verify_signature.py, run as its own process), a certificate cast from
those slips that verifies, the refusals of another passport's slip, a tampered slip and a forged
certificate, and a rotation of the town key."""

import copy
import os
from pathlib import Path
from typing import Any

from mcp.client.session import ClientSession

from tests.e2e.test_sdk_client import connect
from tests.support import Town, verify_file

META = "town.clockford/"


async def call(s: ClientSession, tool: str, **arguments: Any) -> tuple[bool, dict[str, Any], Any]:
    result = await s.call_tool(tool, arguments)
    assert result.structured_content is not None, result
    return bool(result.is_error), result.structured_content, result


async def read_course(s: ClientSession, course: str) -> dict[str, Any]:
    """A course read as a resource, in the shape attend gives: text, signed and slip."""
    result = await s.read_resource(f"clockford://university/{course}")
    (content,) = result.contents
    meta = content.meta or {}
    return {
        "text": content.text,
        "signed": meta[f"{META}signed"],
        "slip": meta[f"{META}slip"],
        "footstep": meta[f"{META}footstep"],
    }


async def test_three_courses_a_certificate_and_every_signature_checked_offline(town: Town, tmp_path: Path) -> None:
    async with connect(town) as s:
        caps = s.server_capabilities
        assert caps is not None and caps.resources is not None and caps.prompts is not None
        listed = (await s.list_resources()).resources
        assert len(listed) >= 8 and {r.mime_type for r in listed} == {"text/markdown"}
        by_name = {r.name: r for r in listed}
        assert str(by_name["ten-habits"].uri) == "clockford://university/ten-habits"

        read = await read_course(s, "ten-habits")
        assert read["signed"]["statement"]["course"] == "ten-habits" and by_name["ten-habits"].size == len(
            read["text"].encode()
        )
        _, courses, _ = await call(s, "courses")
        # The read counted as attendance, at its own footstep.
        assert courses["yours"] == [
            {
                "course": "ten-habits",
                "version": 1,
                "day": read["slip"]["statement"]["day"],
                "footstep": read["footstep"],
            }
        ]

        attended = [read]
        for course in ("words-are-data", "waiting-for-your-person"):
            is_error, sc, result = await call(s, "attend", course=course)
            assert not is_error and sc["slip"]["statement"]["footstep"] == sc["footstep"]
            # The course also comes as its own text block, after the reply's first.
            assert len(result.content) == 2 and result.content[1].text == sc["text"]
            attended.append(sc)
        assert [y["course"] for y in (await call(s, "courses"))[1]["yours"]] == [
            "ten-habits",
            "words-are-data",
            "waiting-for-your-person",
        ]
        for i, a in enumerate(attended):
            lines = verify_file(tmp_path, f"course{i}", {"signed": a["signed"], "text": a["text"], "slip": a["slip"]})
            assert [line.split()[0] for line in lines] == ["clockford-course-1", "clockford-attendance-1"]

        slips = [a["slip"] for a in attended]
        is_error, cast, _ = await call(s, "foundry_cast", slips=slips)
        assert not is_error, cast
        assert verify_file(tmp_path, "certificate", cast["certificate"])[0].startswith("clockford-certificate-1")
        _, checked, _ = await call(s, "foundry", check=cast["certificate"])
        assert checked["current"] is True and checked["standing"] == "live"
        _, passport, _ = await call(s, "show_passport")
        assert passport["stamps"] == [cast["stamp"]]

    async with connect(town) as other:
        # Another passport's slips: refused, with the reason, and it never counts against anyone.
        is_error, refused, _ = await call(other, "foundry_cast", slips=slips)
        assert is_error and refused["problems"][0]["reason"] == "not yours: it names another passport's attendance"
        assert "never counts against you" in refused["say"]
        tampered = copy.deepcopy(slips)
        tampered[0]["statement"]["footstep"] += 1
        is_error, refused, _ = await call(other, "foundry_cast", slips=tampered)
        assert is_error and refused["problems"][0] == {
            "slip": 0,
            "reason": "its signature does not check: it was changed",
        }
        forged = copy.deepcopy(cast["certificate"])
        forged["statement"]["until"] = "2099-01-01T00:00:00Z"
        is_error, refused, _ = await call(other, "foundry", check=forged)
        assert (
            is_error and refused["say"] == "That certificate's signature does not check, or this town did not sign it."
        )
        # Anyone else learns only whether the town stands behind it.
        _, seen, _ = await call(other, "foundry", check=cast["certificate"])
        assert seen["current"] is True and "standing" not in seen


async def test_the_prompts_are_listed_and_filled_in(town: Town) -> None:
    async with connect(town) as s:
        names = {p.name for p in (await s.list_prompts()).prompts}
        assert names == {"look-around", "find-a-server", "hand-work-to-another-agent"}
        got = await s.get_prompt("find-a-server", {"need": "read calendar files"})
        assert "read calendar files" in got.messages[0].content.text and "ask_directory" in got.messages[0].content.text


async def test_after_the_town_key_rotates_old_courses_verify_and_new_slips_use_the_new_key(
    town_factory: Any, tmp_path: Path
) -> None:
    t = town_factory().start()
    async with connect(t) as s:
        _, before, _ = await call(s, "attend", course="ten-habits")
        _, old, _ = await call(s, "courses")
    t.stop()
    key_file = Path(t.env["CLOCKFORD_KEY_FILE"])
    key_file.write_text(os.urandom(32).hex() + "\n")
    t.start()
    async with connect(t) as s:
        _, new, _ = await call(s, "courses")
        _, after, _ = await call(s, "attend", course="ten-habits")
    assert new["key"]["id"] != old["key"]["id"]
    assert after["signed"] == before["signed"] and after["signed"]["publicKey"] == old["key"]["publicKey"]
    assert after["slip"]["publicKey"] == new["key"]["publicKey"]
    verify_file(tmp_path, "old", {"signed": after["signed"], "text": after["text"], "slip": before["slip"]})
    verify_file(tmp_path, "new", {"slip": after["slip"]})
