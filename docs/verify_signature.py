#!/usr/bin/env python3
"""Check any signature Clockford makes, offline, with nothing of the town's code (docs/signatures.md).

usage: verify_signature.py FILE [--key HEX]...

FILE is JSON: a signed statement {statement, signature, alg, publicKey} of any kind the town makes
(clockford-course-1, clockford-attendance-1, clockford-diploma-1, clockford-certificate-1, and the run
results of docs/runs.md: clockford-arena-1, ...), or a whole reply that carries them (attend: signed, text
and slip; graduate: diploma; foundry_cast: certificate; arena_answer: signed; arena_run: last.signed),
or an Archive inclusion proof (`./town manage archive proof N`), or an account's export (docs/export.md:
every section, the checkpoint and each footstep's proof), or a list of any of these. With
--key, every signature must also be made by one of the keys given (hex, or a 16-hex-character key id).

Prints one line per signature (ok or the reason it fails) and exits 0 only when every one checks.
Needs Python 3.10+ and one standard Ed25519 library: `cryptography` or PyNaCl.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sys
from typing import Any

KINDS = ("clockford-course-1", "clockford-attendance-1", "clockford-diploma-1", "clockford-certificate-1")
FIELDS = {
    "clockford-course-1": {"kind", "course", "version", "title", "sha256", "bytes", "published", "key"},
    "clockford-attendance-1": {"kind", "course", "version", "sha256", "day", "footstep", "key", "note"},
    "clockford-diploma-1": {"kind", "passport", "courses", "core", "day", "key", "note"},
    "clockford-certificate-1": {"kind", "certificate", "passport", "papers", "issued", "until", "key", "note"},
}
ARCHIVE_ORIGIN = "clockford-archive"


# -- Run results (docs/runs.md) ---------------------------------------------------------------------------
# Each run district keeps its kinds in a function of its own named `<district>_result_kinds`, returning
# {kind: (its statement's fields, a check that its numbers add up)}; every such function here is read.

Sums = Any  # a function of a statement returning the problem, or None when its numbers add up


def arena_result_kinds() -> dict[str, tuple[set[str], Sums]]:
    """The Arena's result (clockford-arena-1): `right` counts the tasks marked right, `of` counts them all,
    and a task is right only when what was given is what was expected."""
    fields = {"kind", "run", "passport", "taskSet", "seed", "census", "begun", "scored", "tasks", "right", "of"}
    fields |= {"chance", "key", "note"}

    def sums(statement: dict[str, Any]) -> str | None:
        tasks = statement["tasks"]
        if not isinstance(tasks, list) or not all(isinstance(t, dict) for t in tasks):
            return "tasks is not a list of tasks"
        if any(t.get("right") != (t.get("given") is not None and t.get("given") == t.get("expected")) for t in tasks):
            return "a task is marked right or wrong against what was given and expected"
        if statement["right"] != sum(1 for t in tasks if t.get("right")) or statement["of"] != len(tasks):
            return "right and of do not count the tasks"
        return None

    return {"clockford-arena-1": (fields, sums)}


def clinic_result_kinds() -> dict[str, tuple[set[str], Sums]]:
    """The Calibration Clinic's result (clockford-clinic-1, docs/clinic.md): right, answered and of count
    the probes, and accuracy is right of of."""
    fields = {"kind", "checkup", "passport", "probeSet", "seed", "census", "begun", "scored", "probes", "right"}
    fields |= {"answered", "of", "accuracy", "brier", "bins", "calibrationError", "key", "note"}

    def sums(statement: dict[str, Any]) -> str | None:
        probes = statement["probes"]
        if not isinstance(probes, list) or not all(isinstance(p, dict) for p in probes):
            return "probes is not a list of probes"
        if any(p.get("right") != (p.get("given") is not None and p.get("given") == p.get("truth")) for p in probes):
            return "a probe is marked right or wrong against what was given and its truth"
        right, of = sum(1 for p in probes if p.get("right")), len(probes)
        if (statement["right"], statement["of"]) != (right, of) or statement["answered"] != sum(
            1 for p in probes if p.get("given") is not None
        ):
            return "right, answered and of do not count the probes"
        if of and abs(statement["accuracy"] - right / of) > 0.0001:
            return "accuracy is not right of of"
        return None

    return {"clockford-clinic-1": (fields, sums)}


def result_kinds() -> dict[str, tuple[set[str], Sums]]:
    """Every run result kind the districts' functions above name."""
    found: dict[str, tuple[set[str], Sums]] = {}
    for name, make in sorted(globals().items()):
        if name.endswith("_result_kinds") and name != "result_kinds" and callable(make):
            found.update(make())
    return found


# -- Injection Alley (docs/alley.md): a run's scored result ------------------------------------------
ALLEY_FIELDS = {
    "clockford-alley-1": {"kind", "run", "passport", "suite", "begun", "scored", "boards", "counts", "key"},
}


def alley_signed(value: dict[str, Any]) -> list[Any]:
    """The Alley's signed results in a reply: alley_answer's `signed`, alley_run's `last.signed`."""
    return _last_signed(value, ALLEY_FIELDS)


def _last_signed(value: dict[str, Any], kinds: dict[str, Any]) -> list[Any]:
    """`last.signed` of a reply (a run tool without begin), when its statement is of one of `kinds`."""
    last = value.get("last")
    signed = last.get("signed") if isinstance(last, dict) else None
    statement = signed.get("statement") if isinstance(signed, dict) else None
    return [signed] if isinstance(statement, dict) and statement.get("kind") in kinds else []


# -- The Dice House (docs/dice-house.md): a run's report, scored -----------------------------------------
DICE_FIELDS = {
    "clockford-dice-1": {
        "kind",
        "run",
        "passport",
        "replayOf",
        "begun",
        "ended",
        "rolls",
        "bad",
        "noticed",
        "caught",
        "missed",
        "falseAlarms",
        "byKind",
        "key",
    },
}


def dice_signed(value: dict[str, Any]) -> list[Any]:
    """The Dice House's signed results in a reply: dice_house_report's `signed`, dice_house's `last.signed`."""
    return _last_signed(value, DICE_FIELDS)


KINDS = (*KINDS, *ALLEY_FIELDS, *DICE_FIELDS)
FIELDS = {**FIELDS, **ALLEY_FIELDS, **DICE_FIELDS}
SIGNED_IN_REPLIES = (alley_signed, dice_signed)


def ed25519_verify(public_key: bytes, signature: bytes, message: bytes) -> bool:
    """Ed25519 with whichever standard library is installed."""
    try:
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    except ImportError:
        from nacl.exceptions import BadSignatureError
        from nacl.signing import VerifyKey

        try:
            VerifyKey(public_key).verify(message, signature)
        except (BadSignatureError, ValueError):
            return False
        return True
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def canonical_json(value: Any) -> bytes:
    """Keys sorted, no spaces, UTF-8 (non-ASCII characters as themselves, not escaped)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def key_id(public_key: bytes) -> str:
    return hashlib.sha256(public_key).hexdigest()[:16]


def _hex(value: Any, size: int) -> bytes | None:
    try:
        raw = bytes.fromhex(value) if isinstance(value, str) else None
    except ValueError:
        return None
    return raw if raw is not None and len(raw) == size else None


def _pinned(public_key: bytes, keys: list[str]) -> bool:
    return not keys or public_key.hex() in keys or key_id(public_key) in keys


def check_signed(signed: Any, keys: list[str], text: str | None = None) -> tuple[str, str | None]:
    """(what, problem): problem is None when the statement checks."""
    if not isinstance(signed, dict) or not isinstance(signed.get("statement"), dict):
        return "?", "not a signed statement {statement, signature, alg, publicKey}"
    statement = signed["statement"]
    kind = statement.get("kind")
    named = statement.get("course") or statement.get("certificate") or statement.get("run") or statement.get("checkup")
    what = f"{kind} {named or statement.get('passport') or ''}"
    runs = result_kinds()
    if kind not in KINDS and kind not in runs:
        return what, f"unknown kind {kind!r}"
    if set(statement) != (FIELDS[kind] if kind in FIELDS else runs[kind][0]):
        return what, f"the statement's fields are not those of {kind}"
    if signed.get("alg") != "Ed25519":
        return what, "alg is not Ed25519"
    public_key, signature = _hex(signed.get("publicKey"), 32), _hex(signed.get("signature"), 64)
    if public_key is None or signature is None:
        return what, "publicKey must be 32 bytes and signature 64 bytes, in hex"
    if statement.get("key") != key_id(public_key):
        return what, "statement.key is not the id of publicKey (the first 16 hex of its sha256)"
    if not ed25519_verify(public_key, signature, canonical_json(statement)):
        return what, "the signature does not check: the statement was changed, or another key signed it"
    if not _pinned(public_key, keys):
        return what, "signed by a key that is not one of those given with --key"
    if kind in runs:
        problem = runs[kind][1](statement)
        if problem is not None:
            return what, problem
    if text is not None and kind == "clockford-course-1":
        raw = text.encode("utf-8")
        if len(raw) != statement["bytes"]:
            return what, f"the text has {len(raw)} bytes, not {statement['bytes']}"
        if hashlib.sha256(raw).hexdigest() != statement["sha256"]:
            return what, "the text's sha256 is not the statement's"
    return what, None


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def inclusion_ok(index: int, size: int, leaf: bytes, proof: list[bytes], root: bytes) -> bool:
    """RFC 9162 section 2.1.3.2: recompute the root from a leaf hash and its audit path."""
    if not 0 <= index < size:
        return False
    fn, sn, node = index, size - 1, leaf
    for p in proof:
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


def check_export(value: dict[str, Any], keys: list[str]) -> tuple[str, str | None]:
    """An account's export (docs/export.md): the manifest signed by the town key, every section the one
    the manifest names (count and sha256), the checkpoint signed by the same key, and every footstep's
    leaf its entry's, with an inclusion proof that reaches the checkpoint's root. Its problems, joined by
    "; ", are one line, as every signature's are."""
    manifest: dict[str, Any] = value["manifest"] if isinstance(value.get("manifest"), dict) else {}
    statement: dict[str, Any] = manifest["statement"] if isinstance(manifest.get("statement"), dict) else {}
    sections: dict[str, Any] = value["sections"] if isinstance(value.get("sections"), dict) else {}
    what = f"clockford-export of {len(sections.get('footsteps') or [])} footsteps"
    problems: list[str] = []
    public_key, signature = _hex(manifest.get("publicKey"), 32), _hex(manifest.get("signature"), 64)
    if statement.get("kind") != "clockford-export" or manifest.get("alg") != "Ed25519":
        problems.append("the manifest is not a clockford-export statement signed with Ed25519")
    if public_key is None or signature is None:
        return what, "the manifest's publicKey must be 32 bytes and signature 64 bytes, in hex"
    if not ed25519_verify(public_key, signature, canonical_json(statement)):
        problems.append("the manifest is not signed by the key it names")
    if not _pinned(public_key, keys):
        problems.append("the manifest is signed by a key that is not one of those given with --key")
    if statement.get("keyId") != key_id(public_key):
        problems.append("the manifest's keyId is not the key's")
    named: dict[str, Any] = statement["sections"] if isinstance(statement.get("sections"), dict) else {}
    if set(named) != set(sections):
        problems.append(f"the sections are {sorted(sections)}, the manifest names {sorted(named)}")
    for name, section in sections.items():
        want = named.get(name) or {}
        count = len(section) if isinstance(section, list) else 1
        if want.get("sha256") != hashlib.sha256(canonical_json(section)).hexdigest() or want.get("count") != count:
            problems.append(f"the section {name} is not the one the manifest signed")
    cp: dict[str, Any] | None = sections["checkpoint"] if isinstance(sections.get("checkpoint"), dict) else None
    root = _hex(cp.get("root"), 32) if cp else None
    if cp:
        body = f"{ARCHIVE_ORIGIN}\n{cp.get('size')}\n{base64.b64encode(root or b'').decode()}\n"
        cp_signature = _hex(cp.get("signature"), 64)
        if root is None or cp.get("body") != body or cp_signature is None:
            problems.append(f"the checkpoint of size {cp.get('size')} is not the one its size and root make")
        elif not ed25519_verify(public_key, cp_signature, body.encode()):
            problems.append(f"the checkpoint of size {cp.get('size')} is not signed by the town key")
        if statement.get("checkpoint") != cp.get("size"):
            problems.append("the manifest names another checkpoint")
    for step in sections.get("footsteps") or []:
        entry = step.get("entry") if isinstance(step, dict) else None
        number = (entry or {}).get("number")
        leaf = hashlib.sha256(b"\x00" + canonical_json(entry)).digest()
        if leaf.hex() != step.get("leaf"):
            problems.append(f"footstep #{number} does not match its leaf")
        proof = step.get("proof")
        if not isinstance(proof, dict):
            problems.append(f"footstep #{number} has no inclusion proof")
            continue
        try:
            path, index, size = [bytes.fromhex(p) for p in proof["path"]], int(proof["index"]), int((cp or {})["size"])
        except (KeyError, TypeError, ValueError):
            path, index, size = [], -1, 0
        if root is None or not inclusion_ok(index, size, leaf, path, root):
            problems.append(f"footstep #{number} is not in the tree of the checkpoint")
    return what, "; ".join(problems) or None


def check_archive(p: dict[str, Any], keys: list[str]) -> tuple[str, str | None]:
    what = f"clockford-archive checkpoint of size {p.get('size')}"
    try:
        size, index = int(p["size"]), int(p["index"])
        root = bytes.fromhex(p["root"])
        body = f"{ARCHIVE_ORIGIN}\n{size}\n{base64.b64encode(root).decode()}\n"
        leaf, proof = bytes.fromhex(p["leaf"]), [bytes.fromhex(x) for x in p["proof"]]
    except (KeyError, TypeError, ValueError):
        return what, "not an Archive proof {checkpoint, signature, publicKey, size, index, root, leaf, proof}"
    if p.get("checkpoint") != body:
        return what, "the checkpoint is not the one its size and root make"
    public_key, signature = _hex(p.get("publicKey"), 32), _hex(p.get("signature"), 64)
    if public_key is None or signature is None:
        return what, "publicKey must be 32 bytes and signature 64 bytes, in hex"
    if p.get("keyId") not in (None, key_id(public_key)):
        return what, "keyId is not the id of publicKey"
    if not ed25519_verify(public_key, signature, body.encode()):
        return what, "the checkpoint's signature does not check"
    if not _pinned(public_key, keys):
        return what, "signed by a key that is not one of those given with --key"
    if not inclusion_ok(index, size, leaf, proof, root):
        return what, f"footstep #{p.get('footstep')} is not included under this root"
    return f"{what}, footstep #{p.get('footstep')} included", None


def check_any(value: Any, keys: list[str]) -> list[tuple[str, str | None]]:
    """Every signature in a file: one statement, a reply that carries some, a proof, or a list."""
    if isinstance(value, list):
        return [r for item in value for r in check_any(item, keys)]
    if not isinstance(value, dict):
        return [("?", "not JSON an object or a list")]
    if "structuredContent" in value:  # a whole CallToolResult
        return check_any(value["structuredContent"], keys)
    if "checkpoint" in value and "proof" in value:
        return [check_archive(value, keys)]
    if "manifest" in value and "sections" in value:
        return [check_export(value, keys)]
    if "statement" in value:
        return [check_signed(value, keys)]
    found = []
    # arena_run and calibration_checkup: the last result, signed (the Alley's and the Dice House's below)
    found += [check_signed(signed, keys) for signed in _last_signed(value, result_kinds())]
    if "signed" in value:
        found.append(
            check_signed(value["signed"], keys, value.get("text") if isinstance(value.get("text"), str) else None)
        )
    for name in ("slip", "diploma", "certificate", "check"):
        if isinstance(value.get(name), dict):
            found.append(check_signed(value[name], keys))
    for signed_in in SIGNED_IN_REPLIES:
        found += [check_signed(signed, keys) for signed in signed_in(value)]
    return found or [("?", "no signature of the town found in this JSON")]


def main(argv: list[str]) -> int:
    args, keys = [], []
    it = iter(argv)
    for a in it:
        if a == "--key":
            keys.append(next(it, "").lower())
        else:
            args.append(a)
    if len(args) != 1:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    with open(args[0], encoding="utf-8") as f:
        results = check_any(json.load(f), keys)
    for what, problem in results:
        print(f"{what.strip()}: {'ok' if problem is None else 'FAILS: ' + problem}")
    return 0 if all(problem is None for _, problem in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
