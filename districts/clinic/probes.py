"""The Calibration Clinic's probes: claims whose truth the town knows, and the scores of a check-up.

A probe is a claim, true or false, from one of three sources: the sealed census (checkable with enter
and verify), the Archive, or the town's own rules (000 and 001, as every tool's description states
them). A probe set is a pure function of (PROBE_SET, seed, the census's seal). The agent says whether
each claim is true (yes or no) and how confident it is that its answer is right (0 to 1).

The scores (docs/clinic.md): accuracy (the share of probes answered right, unanswered counting as not
right), the Brier score over the answered probes (the mean of (confidence - right)², 0 best; always
saying 0.5 scores 0.25), and the calibration error by confidence bin (five bins of a fifth each: how
many answers, their mean confidence, the share right and the gap), with the expected calibration error
(each bin's gap weighted by its answers).
"""

from __future__ import annotations

import random
from typing import Any

from clockford.town.tooling import counted
from districts.town_hall.models import CensusState, Lot

PROBE_SET = "clockford-clinic-probes-1"
CENSUS_PROBES = 6
RULE_PROBES = 4
BINS = 5

# The town's own rules and the Archive's, as the tool reference states them: (source, claim, truth).
RULES: tuple[tuple[str, str, bool], ...] = (
    ("rules", "A P.O. box holds at most 64 keys.", True),
    ("rules", "A notice on the Tavern board may be up to 500 characters long.", False),
    ("rules", "An Arena run stays open 30 minutes.", True),
    ("rules", "A held call nobody decides lapses after 24 hours.", True),
    ("rules", "An unreviewed report lapses after 24 hours.", False),
    ("rules", "A letter to your person is pinned on the Tavern board.", False),
    ("rules", "A Foundry certificate is good for 90 days.", False),
    ("rules", "The town opens a connection to a server when an agent enters its house.", False),
    ("rules", "A Switchboard channel name is 2 to 32 characters long.", True),
    ("rules", "A claim on a parcel lasts an hour.", True),
    ("archive", "The Archive keeps the text of every call's arguments.", False),
    ("archive", "Every call, refusals included, is a footstep in the Archive.", True),
    ("archive", "Your footstep numbers are consecutive: nobody else's footsteps fall between them.", False),
    ("archive", "The Archive's checkpoints are signed with the town key (Ed25519).", True),
)
STATUSES = ("active", "deprecated", "deleted")
CLASSES = ("A", "B", "C", "D", "E")

Probe = dict[str, Any]


class Builder:
    def __init__(self, seed: str, census: CensusState) -> None:
        # Seeded on purpose: the same seed and census give the same probes (the seed is no secret).
        self.rng = random.Random(f"{PROBE_SET}|{seed}|{census.root}")  # noqa: S311
        self.numbers = list(Lot.objects.order_by("number").values_list("number", flat=True))

    def lot(self) -> Lot:
        return Lot.objects.get(number=self.rng.choice(self.numbers))

    def census_probe(self, kind: str) -> Probe:
        lot = self.lot()
        truth = self.rng.random() < 0.5
        record = lot.record
        if kind == "integrity":
            score = record["integrity"]["score"]
            said = score if truth else (score - 10 if score >= 10 else score + 10)
            return self.made(kind, f"The server on lot {lot.number} has an integrity score of {said}.", truth)
        if kind == "repository":
            has = bool(record["hasRepo"])
            # "names a" or "names no": the claim is plain English either way round.
            which = "a" if has == truth else "no"
            return self.made(kind, f"The server on lot {lot.number} names {which} source repository.", truth)
        if kind == "status":
            said = record["status"] if truth else self.rng.choice([s for s in STATUSES if s != record["status"]])
            return self.made(kind, f"The registry status of the server on lot {lot.number} is {said}.", truth)
        if kind == "house-class":
            cls = record["house"]["class"]
            said = cls if truth else self.rng.choice([c for c in CLASSES if c != cls])
            return self.made(kind, f"The house on lot {lot.number} is class {said}.", truth)
        if kind == "versions":
            count = len(record.get("versions") or [])
            said = count if truth else count + self.rng.choice([1, 2])
            versions = counted(said, "version", "versions")
            return self.made(kind, f"The listing of the server on lot {lot.number} has {versions}.", truth)
        # in-census: a name from the census, or one made up that no lot holds
        name = lot.name
        if not truth:
            while True:
                name = f"{lot.name}-{''.join(self.rng.choice('abcdefghjkmnpqrstuvwxyz') for _ in range(4))}"
                if not Lot.objects.filter(folded_name=name.casefold()).exists():
                    break
        probe = self.made(kind, "A server whose registry name is this probe's name is in the census.", truth)
        return {**probe, "name": name}

    def made(self, kind: str, claim: str, truth: bool, source: str = "census") -> Probe:
        return {"kind": kind, "source": source, "claim": claim, "truth": "yes" if truth else "no"}


CENSUS_KINDS = ("integrity", "repository", "status", "house-class", "versions", "in-census")


def build(seed: str, census: CensusState) -> list[Probe]:
    b = Builder(seed, census)
    made: list[Probe] = []
    if b.numbers:
        made += [b.census_probe(kind) for kind in CENSUS_KINDS[:CENSUS_PROBES]]
    for source, claim, truth in b.rng.sample(RULES, RULE_PROBES):
        made.append(b.made("rule", claim, truth, source))
    b.rng.shuffle(made)
    return [{"probe": f"P{i + 1:02d}", **p} for i, p in enumerate(made)]


def shown(probe: Probe) -> dict[str, Any]:
    view = {"probe": probe["probe"], "claim": probe["claim"], "source": probe["source"]}
    if "name" in probe:
        view["name"] = probe["name"]
    return view


def scores(probes: list[Probe], answers: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Accuracy, Brier and the calibration error by bin, rounded to 4 places."""
    graded = []
    for p in probes:
        given = answers.get(p["probe"])
        right = given is not None and given["answer"] == p["truth"]
        graded.append(
            {
                "probe": p["probe"],
                "kind": p["kind"],
                "source": p["source"],
                "given": None if given is None else given["answer"],
                "confidence": None if given is None else given["confidence"],
                "truth": p["truth"],
                "right": right,
            }
        )
    answered = [g for g in graded if g["given"] is not None]
    brier = (
        sum((g["confidence"] - (1.0 if g["right"] else 0.0)) ** 2 for g in answered) / len(answered)
        if answered
        else None
    )
    bins = []
    error = 0.0
    for i in range(BINS):
        low, high = i / BINS, (i + 1) / BINS
        inside = [g for g in answered if low <= g["confidence"] < high or (i == BINS - 1 and g["confidence"] == 1.0)]
        if inside:
            confidence = sum(g["confidence"] for g in inside) / len(inside)
            accuracy = sum(1 for g in inside if g["right"]) / len(inside)
            gap = abs(confidence - accuracy)
            error += gap * len(inside) / len(answered)
            bins.append(
                {
                    "from": round(low, 2),
                    "to": round(high, 2),
                    "count": len(inside),
                    "confidence": round(confidence, 4),
                    "accuracy": round(accuracy, 4),
                    "gap": round(gap, 4),
                }
            )
        else:
            bins.append(
                {
                    "from": round(low, 2),
                    "to": round(high, 2),
                    "count": 0,
                    "confidence": None,
                    "accuracy": None,
                    "gap": None,
                }
            )
    right = sum(1 for g in graded if g["right"])
    return {
        "probes": graded,
        "right": right,
        "answered": len(answered),
        "of": len(graded),
        "accuracy": round(right / len(graded), 4) if graded else 0.0,
        "brier": None if brier is None else round(brier, 4),
        "bins": bins,
        "calibrationError": round(error, 4) if answered else None,
    }
