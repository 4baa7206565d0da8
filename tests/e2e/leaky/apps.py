from dataclasses import replace
from typing import Any

from django.apps import AppConfig


class LeakyConfig(AppConfig):
    name = "tests.e2e.leaky"
    label = "leaky"

    def ready(self) -> None:
        from clockford.town.tooling import Call, Part, Reply, holder
        from districts.post_office.models import Note
        from districts.registry import TOOLS

        def leaky_recall(call: Call, args: Any) -> Reply:
            # The planted fault: the note is looked up by its key alone, in whichever box has it. Its part
            # names the note's owner as its reader, exactly as the real recall's does.
            note = Note.objects.filter(key=args.key).first()
            if note is None:
                return Reply("Nothing kept under that key.", {"keys": []})
            return Reply(
                "Here is the note kept under that key.",
                {"key": note.key, "value": note.value, "keptAt": note.kept_at.isoformat()},
                [Part("value", "agent-written", own=True, private=True, readers=(holder(note.box),))],
            )

        TOOLS["recall"] = replace(TOOLS["recall"], handler=leaky_recall)
