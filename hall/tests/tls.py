"""An https server on loopback for tests: a certificate authority made on the spot, a certificate for
localhost signed by it, and a small server that serves JSON documents (a client's metadata document,
for Client ID Metadata Documents). The town is told to trust this authority alone
(CLOCKFORD_CIMD_LOOPBACK_CA). The authority is the one the Realty stand-ins use (tests/standins.py)."""

import json
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tests.standins import make_authority


class DocumentServer:
    """https://localhost:PORT/<path> serving the JSON documents put in `documents`; counts its fetches."""

    def __init__(self, folder: Path) -> None:
        self.ca, cert, key = make_authority(folder, [])
        self.documents: dict[str, Any] = {}
        self.fetches: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
                outer.fetches.append(self.path)
                if self.path not in outer.documents:
                    self.send_error(404)
                    return
                body = json.dumps(outer.documents[self.path]).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"https://localhost:{self.port}{path}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
