"""Stand-ins on loopback for the Realty Office's proofs (docs/realty.md): a DNS resolver that answers
for a few made-up domains, an HTTPS server for those domains (a certificate from an authority made
on the spot, which the town is told to trust through CLOCKFORD_CIMD_LOOPBACK_CA), and a GitHub-style
OAuth server (authorize, access_token, /user and /user/<id>). Each runs in a thread of the test's
process and is changed while it runs: a test removes a record or renames a user and sees the deed
lapse."""

import datetime as dt
import ipaddress
import json
import secrets
import socket
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from dnslib import QTYPE, RR, TXT, A, DNSRecord
from dnslib.server import BaseResolver, DNSServer


class Resolver(BaseResolver):  # type: ignore[misc]
    """A loopback DNS resolver: `txt[domain]` lists TXT values, and every domain in `domains` has an A
    record 127.0.0.1. Anything else is NXDOMAIN."""

    def __init__(self) -> None:
        self.txt: dict[str, list[str]] = {}
        self.domains: set[str] = set()
        self.asked: list[tuple[str, str]] = []
        self.server = DNSServer(self, port=0, address="127.0.0.1")
        # dnslib's start_thread serves with the default half-second poll, which each stop waits out.
        threading.Thread(target=self.server.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        self.port: int = self.server.server.server_address[1]

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def resolve(self, request: DNSRecord, handler: Any) -> DNSRecord:
        reply = request.reply()
        name = str(request.q.qname).rstrip(".").lower()
        qtype = QTYPE[request.q.qtype]
        self.asked.append((name, qtype))
        if qtype == "TXT":
            for value in self.txt.get(name, []):
                reply.add_answer(RR(name, QTYPE.TXT, rdata=TXT(value), ttl=1))
        elif qtype == "A" and (name in self.domains or name in self.txt):
            reply.add_answer(RR(name, QTYPE.A, rdata=A("127.0.0.1"), ttl=1))
        if not reply.rr:
            reply.header.rcode = 3  # NXDOMAIN
        return reply

    def close(self) -> None:
        self.server.stop()
        self.server.server.server_close()


class Handler(BaseHTTPRequestHandler):
    """The request handler every stand-in builds on: quiet, and able to answer with JSON."""

    def send_json(self, status: int, data: Any) -> None:
        # Bytes are sent as they are: JSON no dict can make (a member named twice).
        body = data if isinstance(data, bytes) else json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


def serve(handler: type[BaseHTTPRequestHandler], tls: tuple[Path, Path] | None = None) -> ThreadingHTTPServer:
    """A server for `handler` on a free loopback port, in a thread of the test's process; https with the
    (certificate, key) of `tls` when given. `stop` it when done."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    if tls is not None:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*tls)
        httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    # It looks for a shutdown every poll_interval: a twentieth of a second, not the default half, so
    # that stopping it does not hold each test up.
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return httpd


def stop(httpd: ThreadingHTTPServer) -> None:
    httpd.shutdown()
    httpd.server_close()


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def make_authority(folder: Path, names: list[str]) -> tuple[Path, Path, Path]:
    """(ca.pem, cert.pem, key.pem): an authority made now, and a certificate it signed for `names`,
    localhost and 127.0.0.1."""
    now = dt.datetime.now(dt.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder()
        .subject_name(_name("Clockford realty test authority"))
        .issuer_name(_name("Clockford realty test authority"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    sans: list[x509.GeneralName] = [x509.DNSName(n) for n in [*names, "localhost"]]
    sans.append(x509.IPAddress(ipaddress.ip_address("127.0.0.1")))
    leaf = (
        x509.CertificateBuilder()
        .subject_name(_name(names[0] if names else "localhost"))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName(sans), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    ca_pem, cert_pem, key_pem = folder / "realty-ca.pem", folder / "realty-cert.pem", folder / "realty-key.pem"
    ca_pem.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    cert_pem.write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    key_pem.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return ca_pem, cert_pem, key_pem


class Site:
    """An HTTPS server on loopback for made-up domains: `files[(host, path)]` is served as JSON to a
    request whose Host is that domain. Everything it was asked is in `asked`."""

    def __init__(self, folder: Path, names: list[str]) -> None:
        self.ca, cert, key = make_authority(folder, names)
        self.files: dict[tuple[str, str], Any] = {}
        self.asked: list[tuple[str, str]] = []
        outer = self

        class SiteHandler(Handler):
            def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
                host = (self.headers.get("Host") or "").split(":")[0].lower()
                outer.asked.append((host, self.path))
                found = outer.files.get((host, self.path))
                if found is None:
                    self.send_response(404)
                    self.end_headers()
                    return
                self.send_json(200, found)

        self.httpd = serve(SiteHandler, tls=(cert, key))
        self.port: int = self.httpd.server_address[1]

    def close(self) -> None:
        stop(self.httpd)


class GitHub:
    """A GitHub-style OAuth server on loopback (http): /login/oauth/authorize signs in as `signed_in`
    at once and sends the browser back with a code; /login/oauth/access_token trades the code for a
    token when the client id, secret and redirect URI match; /user says who the token belongs to, and
    /user/<id> who has that id now. `users` maps ids to logins; renaming one is how a proof goes."""

    def __init__(self, client_id: str = "Iv1.clockford-test", client_secret: str = "test-secret-not-real") -> None:
        self.client_id, self.client_secret = client_id, client_secret
        self.users: dict[int, str] = {}
        self.signed_in: int | None = None
        self.codes: dict[str, tuple[int, str]] = {}
        self.tokens: dict[str, int] = {}
        self.asked: list[str] = []
        outer = self

        class GitHubHandler(Handler):
            def do_GET(self) -> None:  # noqa: N802
                url = urlsplit(self.path)
                outer.asked.append(url.path)
                q = {k: v[0] for k, v in parse_qs(url.query).items()}
                if url.path == "/login/oauth/authorize":
                    if q.get("client_id") != outer.client_id or outer.signed_in is None:
                        self.send_json(400, {"error": "unknown client or nobody signed in"})
                        return
                    code = secrets.token_urlsafe(12)
                    outer.codes[code] = (outer.signed_in, q.get("redirect_uri", ""))
                    self.send_response(302)
                    self.send_header(
                        "Location", f"{q['redirect_uri']}?{urlencode({'code': code, 'state': q['state']})}"
                    )
                    self.end_headers()
                    return
                if url.path == "/user":
                    token = (self.headers.get("Authorization") or "").removeprefix("Bearer ")
                    uid = outer.tokens.get(token)
                    if uid is None:
                        self.send_json(401, {"message": "Bad credentials"})
                        return
                    self.send_json(200, {"id": uid, "login": outer.users[uid]})
                    return
                if url.path.startswith("/user/"):
                    uid = int(url.path.rsplit("/", 1)[1])
                    if uid not in outer.users:
                        self.send_json(404, {"message": "Not Found"})
                        return
                    self.send_json(200, {"id": uid, "login": outer.users[uid]})
                    return
                self.send_json(404, {"message": "Not Found"})

            def do_POST(self) -> None:  # noqa: N802
                url = urlsplit(self.path)
                outer.asked.append(url.path)
                length = int(self.headers.get("Content-Length") or 0)
                form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
                if url.path != "/login/oauth/access_token":
                    self.send_json(404, {"message": "Not Found"})
                    return
                found = outer.codes.pop(form.get("code", ""), None)
                if (
                    found is None
                    or form.get("client_id") != outer.client_id
                    or form.get("client_secret") != outer.client_secret
                    or form.get("redirect_uri") != found[1]
                ):
                    self.send_json(200, {"error": "bad_verification_code"})
                    return
                token = secrets.token_urlsafe(16)
                outer.tokens[token] = found[0]
                self.send_json(200, {"access_token": token, "token_type": "bearer", "scope": ""})

        self.httpd = serve(GitHubHandler)
        self.port: int = self.httpd.server_address[1]

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def env(self) -> dict[str, str]:
        """The town's settings for this server, as environment variables."""
        return {
            "CLOCKFORD_GITHUB_CLIENT_ID": self.client_id,
            "CLOCKFORD_GITHUB_CLIENT_SECRET": self.client_secret,
            "CLOCKFORD_GITHUB_AUTHORIZE_URL": f"{self.base}/login/oauth/authorize",
            "CLOCKFORD_GITHUB_TOKEN_URL": f"{self.base}/login/oauth/access_token",
            "CLOCKFORD_GITHUB_API_URL": self.base,
        }

    def close(self) -> None:
        stop(self.httpd)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
