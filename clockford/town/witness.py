"""Witnessing another town's Archive, and showing the co-signatures of the witnesses a town names.

A witness keeps the last checkpoint it saw of each town it watches (in its own var folder). Each time
it looks again it fetches the town's latest signed checkpoint and a consistency proof (RFC 6962
section 2.1.2) from the one it kept: a log that lost its tail, or rewrote any footstep the witness
once saw, cannot prove it, however it re-signs itself. Once the proof holds, the witness keeps the
new checkpoint and co-signs it with its own key.

A co-signature is Ed25519 over `clockford-cosignature/v1\\ntime <seconds>\\n` followed by the
checkpoint's body (docs/witness.md). The witness's key is derived from its own town key, so a
witness needs no file of its own. A town shows the co-signatures of the witnesses it names in
CLOCKFORD_WITNESSES (`name=public key hex`, comma-separated), once `manage.py archive cosigned FILE`
has handed them in; any other co-signature is never shown.
"""

import base64
import json
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

from clockford.town import merkle, signing

COSIGN_LABEL = b"clockford-cosignature/v1\n"
BODY = re.compile(r"clockford-archive\n([0-9]+)\n([A-Za-z0-9+/=]{44})\n")

# Fetch a JSON object from an address; None when the town answers 404 (it has no such thing).
Fetch = Callable[[str], dict[str, Any] | None]


class Refused(Exception):
    """The town's log is not one the witness can vouch for: the reason, in plain words."""


def key() -> SigningKey:
    return signing.derived_key(b"clockford-witness")


def public_key_hex() -> str:
    return str(key().verify_key.encode().hex())


def cosigned_message(body: str, when: int) -> bytes:
    return COSIGN_LABEL + f"time {when}\n".encode() + body.encode()


def cosign(body: str, when: int | None = None) -> dict[str, Any]:
    """This town's co-signature, as a witness, of a checkpoint body it has checked."""
    when = int(time.time()) if when is None else when
    return {
        "checkpoint": body,
        "keyId": signing.key_id(key().verify_key.encode()),
        "publicKey": public_key_hex(),
        "time": when,
        "signature": key().sign(cosigned_message(body, when)).signature.hex(),
    }


def cosignature_holds(c: dict[str, Any], public_key: str) -> bool:
    try:
        VerifyKey(bytes.fromhex(public_key)).verify(
            cosigned_message(str(c["checkpoint"]), int(c["time"])), bytes.fromhex(str(c["signature"]))
        )
    except (BadSignatureError, ValueError, KeyError, TypeError):
        return False
    return True


# -- A town's named witnesses and their co-signatures ------------------------------------------------


def named() -> dict[str, str]:
    """The witnesses this town names: name -> public key (hex)."""
    return dict(getattr(settings, "CLOCKFORD_WITNESSES", {}))


def cosignatures_dir() -> Path:
    return Path(settings.VAR_DIR) / "cosignatures"


def hand_in(c: dict[str, Any]) -> str:
    """Keep a co-signature handed to this town: it must be by a named witness, over a body of this
    form. Returns the witness's name; ValueError says why not."""
    if not isinstance(c, dict) or not BODY.fullmatch(str(c.get("checkpoint", ""))):
        raise ValueError("This is not a co-signature of a Clockford checkpoint.")
    for name, public_key in named().items():
        if c.get("publicKey") == public_key and cosignature_holds(c, public_key):
            size = int(BODY.fullmatch(c["checkpoint"]).group(1))  # type: ignore[union-attr]
            folder = cosignatures_dir()
            folder.mkdir(parents=True, exist_ok=True)
            kid = signing.key_id(bytes.fromhex(public_key))
            (folder / f"{size}-{kid}.json").write_text(json.dumps(c) + "\n")
            return name
    raise ValueError("No witness this town names (CLOCKFORD_WITNESSES) signed this.")


def shown(size: int, body: str) -> list[dict[str, Any]]:
    """The co-signatures of this checkpoint by the witnesses this town names, each checked again."""
    folder = cosignatures_dir()
    out = []
    for name, public_key in sorted(named().items()):
        kid = signing.key_id(bytes.fromhex(public_key))
        path = folder / f"{size}-{kid}.json"
        try:
            c = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if c.get("checkpoint") == body and cosignature_holds(c, public_key):
            out.append({"witness": name, "keyId": kid, "time": int(c["time"]), "signature": c["signature"]})
    return out


# -- Witnessing a town -----------------------------------------------------------------------------


def fetch_json(url: str) -> dict[str, Any] | None:
    if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
        raise Refused(f"{url} is not an http(s) address.")
    req = urllib.request.Request(url, headers={"Accept": "application/json"})  # noqa: S310 (http(s) only)
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:  # noqa: S310
            data = json.loads(resp.read())
    except urllib.error.HTTPError as err:
        if err.code == 404:
            return None
        raise
    if not isinstance(data, dict):
        raise Refused(f"{url} did not answer with a JSON object.")
    return data


def folder_for(town: str) -> Path:
    """Where this witness keeps what it saw of one town (its var folder, one folder per address)."""
    parts = urllib.parse.urlsplit(town)
    slug = re.sub(r"[^A-Za-z0-9.-]+", "_", f"{parts.hostname}_{parts.port or ''}{parts.path}").strip("_")
    return Path(settings.VAR_DIR) / "witness" / slug


@dataclass
class Seen:
    size: int
    kept_before: int | None
    cosignature: dict[str, Any]
    folder: Path


def _checked(cp: dict[str, Any], public_key: str) -> tuple[int, bytes]:
    """The size and root of a fetched checkpoint whose body and signature hold under `public_key`."""
    body = str(cp.get("checkpoint", ""))
    m = BODY.fullmatch(body)
    if m is None:
        raise Refused("The town's checkpoint is not a Clockford checkpoint body.")
    size, root = int(m.group(1)), base64.b64decode(m.group(2))
    if size != cp.get("size") or root.hex() != cp.get("root"):
        raise Refused("The town's checkpoint says other numbers than its signed body.")
    if not signing.verify_bytes(body.encode(), str(cp.get("signature", "")), public_key):
        raise Refused(f"The checkpoint of {size} footsteps is not signed by the town key this witness kept.")
    return size, root


def watch(town: str, fetch: Fetch = fetch_json) -> Seen:
    """Look at a town's Archive once: fetch its latest checkpoint, check it grew from the one kept,
    keep it and co-sign it. Refused says what is wrong; nothing new is kept then."""
    base = town.rstrip("/")
    folder = folder_for(base)
    kept_path = folder / "checkpoint.json"
    kept = json.loads(kept_path.read_text()) if kept_path.exists() else None
    latest = fetch(base + "/api/archive/checkpoint")
    if latest is None:
        if kept is not None:
            raise Refused(
                f"The town's Archive shrank: this witness kept a signed checkpoint of {kept['size']} footsteps, "
                "and the town now shows none. Footsteps were cut from its log."
            )
        raise Refused("The town has signed no checkpoint yet: there is nothing to witness.")
    if kept is None:
        # The first look trusts the key the town names; every later look holds it to that key.
        public_key = str(latest.get("publicKey") or "")
        if not re.fullmatch(r"[0-9a-f]{64}", public_key):
            raise Refused("The town's checkpoint names no public key to keep.")
    else:
        public_key = kept["publicKey"]
    size, root = _checked(latest, public_key)
    kept_before = None
    if kept is not None:
        old_size, old_root = int(kept["size"]), bytes.fromhex(kept["root"])
        kept_before = old_size
        if size < old_size:
            raise Refused(
                f"The town's Archive shrank: this witness kept a signed checkpoint of {old_size} footsteps, "
                f"and the town now shows {size}. Footsteps were cut from its log."
            )
        if size == old_size:
            if root != old_root:
                raise Refused(f"The town signed two different trees of {size} footsteps: its log forked.")
        else:
            proof = fetch(f"{base}/api/archive/consistency?first={old_size}&second={size}") or {}
            first, second = proof.get("first") or {}, proof.get("second") or {}
            hashes = [bytes.fromhex(x) for x in proof.get("proof", [])]
            if (
                first.get("root") != old_root.hex()
                or second.get("root") != root.hex()
                or not merkle.verify_consistency(old_size, size, old_root, root, hashes)
            ):
                raise Refused(
                    f"The town cannot prove its log of {size} footsteps grew from the checkpoint of {old_size} "
                    "this witness kept: footsteps it once signed were changed or cut."
                )
    c = cosign(str(latest["checkpoint"]))
    folder.mkdir(parents=True, exist_ok=True)
    kept_path.with_suffix(".new").write_text(
        json.dumps({**latest, "town": base, "publicKey": public_key, "size": size, "root": root.hex()}) + "\n"
    )
    kept_path.with_suffix(".new").replace(kept_path)
    (folder / f"cosignature-{size}.json").write_text(json.dumps(c) + "\n")
    return Seen(size=size, kept_before=kept_before, cosignature=c, folder=folder)
