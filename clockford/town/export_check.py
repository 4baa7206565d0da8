"""Check a Clockford export offline (docs/export.md): python3 export_check.py FILE [PUBLIC_KEY_HEX]

Standalone: the standard library and PyNaCl, nothing of the town. It checks that the manifest is a
statement of kind clockford-export signed with Ed25519 over its canonical JSON (keys sorted, no
spaces, UTF-8) by the town key (the one given, or the one the file names), that every section is the
one the manifest names (count and sha256), that the checkpoint is signed by the same key, and that
every footstep's leaf is its entry's and its inclusion proof (RFC 6962) reaches the checkpoint's
root. Prints each problem, then "ok" or "N problems"; exits 0 only when there are none.
"""

import base64
import hashlib
import json
import sys
from typing import Any

from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def signed(message: bytes, signature_hex: str, public_key_hex: str) -> bool:
    try:
        VerifyKey(bytes.fromhex(public_key_hex)).verify(message, bytes.fromhex(signature_hex))
    except (BadSignatureError, ValueError, TypeError):
        return False
    return True


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def included(index: int, size: int, leaf: bytes, path: list[bytes], root: bytes) -> bool:
    """RFC 9162 section 2.1.3.2."""
    if not 0 <= index < size:
        return False
    fn, sn, node = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            node = _node(p, node)
            if fn % 2 == 0:
                while fn % 2 == 0 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            node = _node(node, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and node == root


def check(data: dict[str, Any], public_key_hex: str | None = None) -> list[str]:
    """Every problem with an export, or [] when it checks."""
    problems: list[str] = []
    manifest = data.get("manifest") or {}
    statement = manifest.get("statement") or {}
    key = public_key_hex or manifest.get("publicKey") or ""
    if public_key_hex and manifest.get("publicKey") != public_key_hex:
        problems.append("the manifest names another key than the town key given")
    if statement.get("kind") != "clockford-export" or manifest.get("alg") != "Ed25519":
        problems.append("the manifest is not a clockford-export statement signed with Ed25519")
    if not signed(canonical(statement), manifest.get("signature", ""), key):
        problems.append("the manifest is not signed by the town key")
    if statement.get("keyId") != hashlib.sha256(bytes.fromhex(key or "")).hexdigest()[:16]:
        problems.append("the manifest's keyId is not the key's")
    sections = data.get("sections") or {}
    named = statement.get("sections") or {}
    if set(named) != set(sections):
        problems.append(f"the sections are {sorted(sections)}, the manifest names {sorted(named)}")
    for name, value in sections.items():
        want = named.get(name) or {}
        count = len(value) if isinstance(value, list) else 1
        if want.get("sha256") != hashlib.sha256(canonical(value)).hexdigest() or want.get("count") != count:
            problems.append(f"the section {name} is not the one the manifest signed")
    cp = sections.get("checkpoint")
    if cp:
        body = f"clockford-archive\n{cp['size']}\n{base64.b64encode(bytes.fromhex(cp['root'])).decode()}\n"
        if cp.get("body") != body or not signed(body.encode(), cp.get("signature", ""), key):
            problems.append(f"the checkpoint of size {cp.get('size')} is not signed by the town key")
        if statement.get("checkpoint") != cp.get("size"):
            problems.append("the manifest names another checkpoint")
    for step in sections.get("footsteps") or []:
        number = (step.get("entry") or {}).get("number")
        leaf = hashlib.sha256(b"\x00" + canonical(step.get("entry"))).digest()
        if leaf.hex() != step.get("leaf"):
            problems.append(f"footstep #{number} does not match its leaf")
        proof = step.get("proof")
        if proof is None:
            problems.append(f"footstep #{number} has no inclusion proof")
        elif not cp or not included(
            proof["index"], cp["size"], leaf, [bytes.fromhex(p) for p in proof["path"]], bytes.fromhex(cp["root"])
        ):
            problems.append(f"footstep #{number} is not in the tree of the checkpoint")
    return problems


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        data = json.load(f)
    problems = check(data, argv[2] if len(argv) > 2 else None)
    for p in problems:
        print(p)
    print("ok" if not problems else f"{len(problems)} problem{'s' if len(problems) != 1 else ''}")
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
