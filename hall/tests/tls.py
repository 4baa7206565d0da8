"""An https server on loopback for tests: a certificate authority made on the spot, a certificate for
localhost signed by it, and a small server that serves JSON documents (a client's metadata document,
for Client ID Metadata Documents). The town is told to trust this authority alone
(CLOCKFORD_CIMD_LOOPBACK_CA). The authority is the one the Realty stand-ins use (tests/standins.py)."""

from pathlib import Path
from typing import Any

from tests.standins import Handler, make_authority, serve, stop


class DocumentServer:
    """https://localhost:PORT/<path> serving the JSON documents put in `documents`; counts its fetches."""

    def __init__(self, folder: Path) -> None:
        self.ca, cert, key = make_authority(folder, [])
        self.documents: dict[str, Any] = {}
        self.fetches: list[str] = []
        outer = self

        class DocumentHandler(Handler):
            def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
                outer.fetches.append(self.path)
                if self.path not in outer.documents:
                    self.send_error(404)
                    return
                self.send_json(200, outer.documents[self.path])

        self.httpd = serve(DocumentHandler, tls=(cert, key))
        self.port = self.httpd.server_address[1]

    def url(self, path: str) -> str:
        return f"https://localhost:{self.port}{path}"

    def close(self) -> None:
        stop(self.httpd)
