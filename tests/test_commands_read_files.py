"""The commands a person hands a JSON file (an export to check, a file of signatures, a census to
import) answer a file they cannot read in words, never with a traceback: missing, a folder, not
UTF-8, not JSON, or arrays nested deeper than the reader follows."""

from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db

COMMANDS = [("export", "check"), ("signature", "check"), ("census", "import")]


def unreadable(folder: Path) -> dict[str, tuple[Path, str]]:
    """Each kind of file: its path, and what the reader says of it."""
    (folder / "text.json").write_text("not json")
    (folder / "bytes.json").write_bytes(b"\xbc\xff\x00 not utf-8")
    (folder / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (folder / "a-folder").mkdir()
    return {
        "missing": (folder / "nothing.json", "No such file or directory"),
        "folder": (folder / "a-folder", ""),
        "text": (folder / "text.json", "Expecting value: line 1 column 1 (char 0)"),
        "bytes": (folder / "bytes.json", "'utf-8' codec can't decode byte 0xbc in position 0"),
        "deep": (folder / "deep.json", "maximum recursion depth exceeded"),
    }


@pytest.mark.parametrize("kind", ["missing", "folder", "text", "bytes", "deep"])
@pytest.mark.parametrize(("command", "action"), COMMANDS)
def test_a_file_the_command_cannot_read_is_said_in_words(tmp_path: Path, command: str, action: str, kind: str) -> None:
    path, said = unreadable(tmp_path)[kind]
    with pytest.raises(CommandError) as refused:
        call_command(command, action, str(path))
    message = str(refused.value)
    if command == "census" and kind in ("missing", "folder"):
        assert message == f"No file at {path}."  # the census command looks for the file first
        return
    assert message.startswith((f"Cannot read {path} as JSON: ", f"Could not read {path.name} as JSON: ")), message
    assert said in message, message
