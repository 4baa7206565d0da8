"""The Arena's task set: labelled errands built from the sealed census with a seed, and how an answer is
read in its task's shape.

A task set is a pure function of (TASK_SET, seed, the census's seal): the same seed and census give
the same tasks, in the same order, with the same answers. Every answer is something the census records
and the town's own tools show (enter, verify, ask_directory): a task never asks what the town cannot
check. Every task's answer is in a closed shape (`expect`): an integer in a stated range, or one of a
few stated values, so an answer is right or wrong with no judgement, and answering at random has a
chance the town can state (`chance`).

The kinds (KINDS): a lot's integrity score, the lot of a registry name, which of three lots names a
repository (or names none), how many versions a listing has, the rule that costs a lot most, the lot the
Directory ranks highest for a plain need among three, a lot's registry status, whether a name is in the
census, the class of a lot's house, and how many other lots share a lot's remote host.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from districts.town_hall import integrity
from districts.town_hall import services as town_hall
from districts.town_hall.models import CensusState, Lot

TASK_SET = "clockford-arena-tasks-1"
MAX_VERSIONS = 100
# Plain needs, in the town's words, for the Directory's task.
NEEDS = (
    "read a PostgreSQL database",
    "search the web",
    "manage calendar events",
    "read PDF files",
    "query SQLite files",
    "look up the weather",
    "search a company wiki",
    "send email",
    "track issues and tickets",
    "edit spreadsheets",
    "browse git history",
    "convert Markdown to HTML",
    "keep notes",
    "work with files in cloud storage",
    "post messages to a team chat",
    "manage customer records",
    "run SQL queries",
    "automate a web browser",
    "generate images",
    "transcribe audio",
    "manage Kubernetes clusters",
    "query a vector database",
    "read server logs",
    "work with GitHub repositories",
    "summarize documents",
    "read web analytics",
    "send invoices and bills",
    "read a map",
)
CLASSES = tuple(c for _, c, _ in integrity.CLASSES)
STATUSES = ("active", "deprecated", "deleted")
RULES = tuple(sorted(r.id for r in integrity.RULES))
TRIES = 60


class CannotBuild(Exception):
    """This census cannot give a task of this kind (too few lots of the kind it needs)."""


Task = dict[str, Any]


def integer(low: int, high: int) -> dict[str, Any]:
    return {"type": "integer", "min": low, "max": high}


def choice(options: list[str], fold: bool = False) -> dict[str, Any]:
    return {"type": "choice", "options": options, "fold": fold}


def expect_of(shape: dict[str, Any]) -> str:
    """The shape in the town's words, which a script can read too: "an integer from A to B" or
    "one of: X, Y, Z"."""
    if shape["type"] == "integer":
        return f"an integer from {shape['min']} to {shape['max']}"
    return "one of: " + ", ".join(shape["options"])


def chance_of(shape: dict[str, Any]) -> float:
    """How likely a uniform guess in the shape is right."""
    if shape["type"] == "integer":
        return 1 / (shape["max"] - shape["min"] + 1)
    return 1 / len(shape["options"])


def read(shape: dict[str, Any], answer: str | int | float) -> str | None:
    """The answer as the town keeps it (a canonical string), or None when it cannot be read in the shape."""
    if isinstance(answer, bool):
        return None
    if shape["type"] == "integer":
        if isinstance(answer, float):
            if not answer.is_integer():
                return None
            answer = int(answer)
        if isinstance(answer, str):
            if not re.fullmatch(r"\s*[0-9]{1,12}\s*", answer):
                return None
            answer = int(answer.strip())
        return str(answer) if shape["min"] <= answer <= shape["max"] else None
    text = (str(int(answer)) if isinstance(answer, float) and answer.is_integer() else str(answer)).strip()
    for option in shape["options"]:
        if text == option or (shape["fold"] and text.casefold() == option.casefold()):
            return str(option)
    return None


# -- Building the tasks ----------------------------------------------------------------------------------


def ranked_for(need: str, census: CensusState) -> list[int]:
    """The lots the Directory ranks for a need, best first (at most 25), read as ask_directory reads
    it (its words as the census spells them, its capitals): the rank an agent asking it sees."""
    terms, cased = town_hall.read_need(need, census)
    _, results = town_hall.search(terms, 25, census=census, cased=cased)
    return [r["lot"] for r in results]


class Builder:
    """One run's tasks, drawn with one seeded generator from one census."""

    def __init__(self, seed: str, census: CensusState) -> None:
        # Seeded on purpose: the same seed and census give the same tasks (the seed is no secret).
        self.rng = random.Random(f"{TASK_SET}|{seed}|{census.root}")  # noqa: S311
        self.numbers = list(Lot.objects.order_by("number").values_list("number", flat=True))
        if not self.numbers:
            raise CannotBuild("the census holds no lots")
        self.last = self.numbers[-1]
        self.used: set[int] = set()
        self.census = census

    def lot(self, pool: list[int] | None = None) -> Lot:
        """A lot not used yet in this run, from `pool` (default: the whole census)."""
        pool = pool if pool is not None else self.numbers
        fresh = [n for n in pool if n not in self.used] or pool
        if not fresh:
            raise CannotBuild("no lot fits")
        number = self.rng.choice(fresh)
        self.used.add(number)
        return Lot.objects.get(number=number)

    def pool(self, **where: Any) -> list[int]:
        return list(Lot.objects.filter(**where).order_by("number").values_list("number", flat=True))

    def by_lot(self, lot: Lot, kind: str, ask: str, shape: dict[str, Any], answer: str, **more: Any) -> Task:
        return {"kind": kind, "ask": ask, "shape": shape, "answer": answer, "lots": [lot.number], **more}

    # Each kind: (ask, shape, answer) from the census.

    def integrity(self) -> Task:
        lot = self.lot()
        ask = f"What is the integrity score of the server on lot {lot.number}?"
        return self.by_lot(lot, "integrity", ask, integer(0, 100), str(lot.record["integrity"]["score"]))

    def lot_of_name(self) -> Task:
        lot = self.lot()
        ask = "Which lot holds the server whose registry name is this task's name?"
        return self.by_lot(lot, "lot-of-name", ask, integer(0, self.last), str(lot.number), name=lot.name)

    def repository(self) -> Task:
        without = self.pool(record__hasRepo=False)
        with_repo = self.pool(record__hasRepo=True)
        names_one = len(without) >= 2 and len(with_repo) >= 1 and (len(with_repo) < 2 or self.rng.random() < 0.5)
        if names_one:
            odd, rest = self.lot(with_repo), [self.lot(without), self.lot(without)]
            ask = "Exactly one of the servers on lots {} names a source repository. Which lot is it?"
        elif len(without) >= 1 and len(with_repo) >= 2:
            odd, rest = self.lot(without), [self.lot(with_repo), self.lot(with_repo)]
            ask = "Exactly one of the servers on lots {} names no source repository. Which lot is it?"
        else:
            raise CannotBuild("too few lots with and without a repository")
        lots = sorted([odd.number, *(r.number for r in rest)])
        if len(set(lots)) < 3:
            raise CannotBuild("too few lots")
        listed = f"{lots[0]}, {lots[1]} and {lots[2]}"
        shape = choice([str(n) for n in lots])
        return {
            "kind": "repository",
            "ask": ask.format(listed),
            "shape": shape,
            "answer": str(odd.number),
            "lots": lots,
        }

    def versions(self) -> Task:
        for _ in range(TRIES):
            lot = self.lot()
            count = len(lot.record.get("versions") or [])
            if 1 <= count <= MAX_VERSIONS:
                ask = f"How many versions does the listing of the server on lot {lot.number} have?"
                return self.by_lot(lot, "versions", ask, integer(1, MAX_VERSIONS), str(count))
        raise CannotBuild("no lot with a countable listing")

    def costliest(self) -> Task:
        pool = self.pool(score__lt=100)
        for _ in range(TRIES):
            if not pool:
                break
            lot = self.lot(pool)
            points = sorted((d["points"] for d in lot.deductions), reverse=True)
            if points and (len(points) == 1 or points[0] > points[1]):
                top = max(lot.deductions, key=lambda d: d["points"])
                ask = f"Which integrity rule costs the server on lot {lot.number} the most points?"
                return self.by_lot(lot, "costliest-deduction", ask, choice(list(RULES)), top["rule"])
        raise CannotBuild("no lot with one costliest deduction")

    def best_for_need(self) -> Task:
        needs = list(NEEDS)
        self.rng.shuffle(needs)
        for need in needs:
            ranked = ranked_for(need, self.census)
            if len(ranked) < 3:
                continue
            first = self.rng.randrange(0, min(3, len(ranked) - 2))
            others = self.rng.sample(ranked[first + 1 :], 2)
            lots = sorted([ranked[first], *others])
            self.used.update(lots)
            listed = f"{lots[0]}, {lots[1]} and {lots[2]}"
            ask = f"Of the servers on lots {listed}, which does the Directory rank highest for the need “{need}”?"
            return {
                "kind": "best-for-need",
                "ask": ask,
                "shape": choice([str(n) for n in lots]),
                "answer": str(ranked[first]),
                "lots": lots,
                "need": need,
            }
        raise CannotBuild("no need the Directory answers with three servers")

    def status(self) -> Task:
        lot = self.lot()
        ask = f"What is the registry status of the server on lot {lot.number}?"
        return self.by_lot(lot, "status", ask, choice(list(STATUSES), fold=True), lot.record["status"])

    def real(self) -> Task:
        lot = self.lot()
        shape = choice(["yes", "no"], fold=True)
        ask = "Is a server whose registry name is this task's name in the census?"
        if self.rng.random() < 0.5:
            return self.by_lot(lot, "in-census", ask, shape, "yes", name=lot.name)
        for _ in range(TRIES):
            suffix = "".join(self.rng.choice("abcdefghjkmnpqrstuvwxyz") for _ in range(4))
            fake = f"{lot.name}-{suffix}"
            if len(fake) <= 200 and not Lot.objects.filter(folded_name=fake.casefold()).exists():
                return self.by_lot(lot, "in-census", ask, shape, "no", name=fake)
        raise CannotBuild("no name free to make up")

    def house(self) -> Task:
        lot = self.lot()
        ask = f"What class is the house on lot {lot.number}?"
        return self.by_lot(lot, "house-class", ask, choice(list(CLASSES), fold=True), lot.record["house"]["class"])

    def shared_host(self) -> Task:
        pool = self.pool(host__gt="")
        if not pool:
            raise CannotBuild("no lot with a remote host")
        lot = self.lot(pool)
        ask = f"How many other lots share the remote host of the server on lot {lot.number}?"
        count = int((lot.record.get("hostSharedWith") or {}).get("count", 0))
        return self.by_lot(lot, "shared-host", ask, integer(0, len(self.numbers) - 1), str(count))


KINDS: dict[str, Callable[[Builder], Task]] = {
    "integrity": Builder.integrity,
    "lot-of-name": Builder.lot_of_name,
    "repository": Builder.repository,
    "versions": Builder.versions,
    "costliest-deduction": Builder.costliest,
    "best-for-need": Builder.best_for_need,
    "status": Builder.status,
    "in-census": Builder.real,
    "house-class": Builder.house,
    "shared-host": Builder.shared_host,
}


def build(seed: str, census: CensusState) -> list[Task]:
    """The run's tasks, T01 …: one of each kind this census can give, in an order the seed chooses."""
    builder = Builder(seed, census)
    kinds = list(KINDS)
    builder.rng.shuffle(kinds)
    tasks: list[Task] = []
    for kind in kinds:
        try:
            task = KINDS[kind](builder)
        except CannotBuild:
            continue
        tasks.append({"task": f"T{len(tasks) + 1:02d}", **task, "expect": expect_of(task["shape"])})
    return tasks


def shown(task: Task) -> dict[str, Any]:
    """A task as the agent sees it: {task, ask, expect}, and name when the task names a server."""
    view = {"task": task["task"], "ask": task["ask"], "expect": task["expect"]}
    if "name" in task:
        view["name"] = task["name"]
    return view
