"""manage.py archive verify | fold | blocks | proof N | checkpoint | head [--accept] | witness URL | cosigned FILE"""

import json
from typing import Any

from django.core.management.base import CommandError, CommandParser

from clockford.commands import TownCommand
from clockford.town import archive, head, signing, witness
from clockford.town.management.actions import actions


class Command(TownCommand):
    help = "Check, fold and prove the Archive: the town's tamper-evident log of footsteps."

    def add_arguments(self, parser: CommandParser) -> None:
        given = actions(
            parser,
            {
                "verify": "check every footstep, leaf and signed checkpoint",
                "fold": "fold settled footsteps into the tree now and sign a checkpoint",
                "blocks": "make the roots of the blocks of leaves that proofs read again, from the leaves",
                "proof": "an inclusion proof for one footstep, as JSON",
                "checkpoint": "the latest signed checkpoint",
                "head": "the last checkpoint this town signed, and whether this database reaches it",
                "witness": "check that a town's Archive grew from the checkpoint kept of it, then keep and co-sign",
                "cosigned": "show a named witness's co-signature (a file `archive witness` wrote)",
            },
        )
        given["proof"].add_argument("footstep", type=int)
        given["head"].add_argument(
            "--accept", action="store_true", help="after a restore: accept this database's Archive as it is"
        )
        given["witness"].add_argument("url", help="the town's address, e.g. https://town.example")
        given["cosigned"].add_argument("file")

    def handle(self, *args: Any, **options: Any) -> None:
        action = options["action"]
        if action == "fold":
            try:
                n = archive.fold_all()
            except archive.Behind as behind:
                raise CommandError(f"{behind} Nothing was folded (manage.py archive head).") from behind
            self.stdout.write(f"Folded {n} footsteps.")
        elif action == "verify":
            if why := head.behind():
                # What is here is still checked; that it is not all the town signed is said apart.
                self.stderr.write(f"{why} (manage.py archive head)")
            else:
                archive.fold_all()
            verdict = archive.verify()
            for said in [*verdict.problems[:50], *verdict.blocks[:50]]:
                self.stderr.write(said)
            blocks = verdict.blocks_said()
            if not verdict.ok:
                raise CommandError(
                    f"The Archive does not verify: {len(verdict.problems)} problems in {verdict.size} leaves.{blocks}"
                )
            self.stdout.write(
                f"The Archive verifies: {verdict.size} footsteps, every checkpoint signed by the town key.{blocks}"
            )
        elif action == "blocks":
            mended = archive.mend_blocks()
            self.stdout.write(
                f"Blocks made again from the leaves: {mended.written} written, {mended.removed} removed, "
                f"{mended.right} already right."
            )
        elif action == "proof":
            try:
                archive.fold_all()
            except archive.Behind as behind:
                # A footstep already in the tree still has its proof; nothing new is folded.
                self.stderr.write(f"{behind} (manage.py archive head)")
            if not archive.in_tree(options["footstep"]):
                raise CommandError(f"Footstep #{options['footstep']} is not in the tree (yet).")
            proof = archive.inclusion(options["footstep"])
            proof["verifies"] = archive.verify_inclusion(proof)
            self.stdout.write(json.dumps(proof, indent=2))
        elif action == "head":
            self.head(accept=options["accept"])
        elif action == "witness":
            self.witness(options["url"])
        elif action == "cosigned":
            try:
                name = witness.hand_in(json.loads(open(options["file"]).read()))  # noqa: SIM115, PTH123
            except (OSError, ValueError) as exc:
                raise CommandError(str(exc)) from exc
            self.stdout.write(f"Kept: the town now shows {name}'s co-signature of that checkpoint.")
        elif action == "checkpoint":
            cp = archive.latest_checkpoint()
            if cp is None:
                self.stdout.write("No checkpoint yet: the Archive is empty.")
                return
            body = archive.checkpoint_body(cp.size, bytes.fromhex(cp.root)).decode()
            key = f" ({signing.public_key_hex()})" if signing.key_id() == cp.key_id else ""
            self.stdout.write(body + f"\nsigned by key {cp.key_id}{key}: {cp.signature}")

    def witness(self, url: str) -> None:
        try:
            seen = witness.watch(url, witness.fetch_json)
        except witness.Refused as refused:
            raise CommandError(f"Not witnessed: {refused}") from refused
        except OSError as exc:
            raise CommandError(f"Could not read {url}: {exc}") from exc
        grew = (
            f"consistent with the checkpoint of {seen.kept_before} kept before"
            if seen.kept_before is not None
            else "the first look: its key is kept from now on"
        )
        self.stdout.write(
            f"Witnessed {url}: a signed checkpoint of {seen.size} footsteps ({grew}). "
            f"Co-signed with witness key {seen.cosignature['keyId']} ({seen.cosignature['publicKey']}); "
            f"kept in {seen.folder / f'cosignature-{seen.size}.json'}."
        )

    def head(self, *, accept: bool) -> None:
        if accept:
            given_up = head.accept_restore()
            now = head.signed_head()
            self.stdout.write(
                f"Accepted: the head is now {now.size if now else 0} footsteps"
                + (f" (it was {given_up.size})" if given_up else "")
                + ". Open the town with manage.py town_mode open."
            )
            return
        why = head.behind()  # first: a town that kept no head yet keeps its sound latest checkpoint now
        kept = head.signed_head()
        if kept is None:
            self.stdout.write("No head kept yet: this town has signed no checkpoint (or keeps no head file).")
            return
        if why:
            raise CommandError(why)
        self.stdout.write(f"This database reaches the last checkpoint the town signed: {kept.size} footsteps.")
