"""resources/read of an unknown URI names it in the town's own words, with a client's invisible
controls drawn rather than echoed."""

import pytest
from mcp.shared.exceptions import MCPError

from clockford.face.resources import read_resource


def test_an_unknown_uri_with_controls_is_named_with_them_drawn() -> None:
    uri = "clockford://embassies/\u202eerehwon\x1b[2J\u200b"
    with pytest.raises(MCPError) as caught:
        read_resource(uri, None, None)  # type: ignore[arg-type]  # refused before any passport is read
    message = str(caught.value)
    assert "No resource at clockford://embassies/⟦U+202E⟧erehwon⟦U+001B⟧[2J⟦U+200B⟧." in message
    assert not any(ch in message for ch in "\u202e\x1b\u200b")
