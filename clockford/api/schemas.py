"""The read API's typed schemas: every field any endpoint returns is named here."""

from typing import Any, Literal

from ninja import Field, Schema


class Refusal(Schema):
    say: str = Field(description="Why the town did not answer, in its own words.")


class Unreadable(Refusal):
    """422: an argument the API cannot read, or two it cannot use together (docs/api.md)."""

    detail: list[dict[str, Any]] | None = Field(
        None, description="pydantic's reading of each argument it could not read, for programs."
    )


# -- The index --------------------------------------------------------------------------------------


class Endpoint(Schema):
    path: str = Field(
        description="The endpoint's address, with its path's arguments in braces: /api/census/lots/{lot}."
    )
    query: list[str] = Field(description="The names of the arguments it takes in its query string.")
    summary: str


class Index(Schema):
    name: str
    version: str
    docs: str = Field(description="The docs page (Swagger UI).")
    openapi: str = Field(description="The OpenAPI 3.1 description of every endpoint.")
    endpoints: list[Endpoint]


# -- The census ------------------------------------------------------------------------------------


class Seal(Schema):
    holds: int = Field(description="How many lot records the seal holds.")
    root: str | None = Field(description="The Merkle root (RFC 6962, SHA-256, hex) over every lot's record.")
    note: str


class Census(Schema):
    census: str | None = Field(description="Which census this is, and as of when; null while it is empty.")
    servers: int
    registryEntriesBeforeDedup: int
    litLamps: int
    seal: Seal
    source: str


class LotLine(Schema):
    lot: int
    name: str
    title: str | None
    status: str
    integrity: int = Field(description="The integrity score, 0 to 100.")
    houseClass: str
    lampLit: bool


class LotPage(Schema):
    page: int
    pages: int
    lots: int = Field(description="How many lots the census holds.")
    items: list[LotLine]


class Remote(Schema):
    type: str | None = None
    url: str


class Package(Schema):
    registryType: str | None
    identifier: str | None
    version: str | None
    transport: str | None


class HostShared(Schema):
    count: int
    lots: list[int]


class House(Schema):
    class_: str = Field(alias="class")
    meaning: str
    floors: int
    lampLit: bool


class IntegrityLine(Schema):
    score: int
    reasons: list[str]


class Words(Schema):
    description: str


class ServerRecord(Schema):
    """A lot's census record, as enter shows it and the seal commits to it."""

    lot: int
    name: str
    title: str | None
    publisher: str | None
    version: str | None
    versions: list[str]
    status: str
    firstSeen: str | None
    updatedAt: str | None
    host: str | None
    hasRepo: bool
    remote: Remote | None
    package: Package | None
    hostSharedWith: HostShared
    caseTwins: list[int]
    fidelity: Literal["full", "partial"]
    house: House
    integrity: IntegrityLine
    words: Words


class Deduction(Schema):
    rule: str
    points: int
    reason: str
    clears: str | None = Field(description="What would clear this deduction, when something can.")
    evidence: str | None = Field(description="The publisher's words or value that drew it (publisher-written).")


class Neighbor(Schema):
    lot: int
    name: str


class SealProof(Schema):
    lot: int
    index: int
    holds: int
    leaf: str
    proof: list[str]
    root: str
    verified: bool


class LotDetail(Schema):
    server: ServerRecord
    deductions: list[Deduction]
    neighbors: list[Neighbor]
    note: str
    seal: SealProof


# -- The Archive -----------------------------------------------------------------------------------


class Cosignature(Schema):
    witness: str = Field(description="The witness's name, as this town names it.")
    keyId: str
    time: int = Field(description="When the witness signed, in seconds since 1970 (UTC).")
    signature: str = Field(description="Ed25519 over the co-signed message (docs/witness.md), hex.")


class Checkpoint(Schema):
    size: int = Field(description="How many footsteps the tree holds.")
    root: str = Field(description="The tree's root (RFC 6962, SHA-256), hex.")
    at: str
    checkpoint: str = Field(description="The signed body: clockford-archive, the size and the base64 root.")
    signature: str = Field(description="Ed25519 over the body with the town key, hex.")
    keyId: str
    publicKey: str | None = Field(description="The town key (hex), when it is the one that signed.")
    cosignatures: list[Cosignature] = Field(description="Co-signatures of the witnesses this town names.")


class CheckpointPage(Schema):
    page: int
    pages: int
    checkpoints: int
    items: list[Checkpoint]


class Inclusion(Schema):
    footstep: int
    index: int
    size: int
    leaf: str
    proof: list[str]
    root: str
    checkpoint: str
    signature: str
    keyId: str
    publicKey: str | None
    verifies: bool


class Consistency(Schema):
    first: Checkpoint
    second: Checkpoint
    proof: list[str] = Field(description="RFC 6962 section 2.1.2 PROOF(first, D[second]), hex.")
    verifies: bool


# -- The public map, the feed and the day's counts (clockford/public/services.py) ------------------


class Flock(Schema):
    count: int
    pennants: list[str] = Field(description="The pennants flown there, A to Z (chosen by the agents' persons).")
    more: int
    noPennant: int


class Present(Schema):
    agents: int
    counted: str


class WalledOff(Schema):
    since: str
    safeDefault: str | None = None


class MapDistrict(Schema):
    name: str
    zone: str
    status: str
    what: str
    opens: str | None = None
    walledOff: WalledOff | None = None
    agents: Flock


class MapHouse(Schema):
    lot: int
    agents: Flock


class Showings(Schema):
    count: int
    counted: str
    capped: bool


class Creative(Schema):
    count: int
    byKind: dict[str, int]
    counted: str


class Shown(Schema):
    lot: int
    name: str
    title: str | None
    kind: Literal["image", "audio", "video", "writing", "design"]
    house: House


class Gallery(Schema):
    """The Studios, as the studios tool answers (000 section 17)."""

    day: str
    results: list[Shown]
    showings: Showings
    creative: Creative
    never: list[str] | None = None


class StallWords(Schema):
    title: str | None = None


class Stall(Schema):
    aisle: str
    what: str
    from_: str = Field(alias="from")
    get: str
    licence: str
    sponsored: bool
    sign: str
    title: str | None = None
    course: str | None = None
    version: str | None = None
    summary: str | None = None
    words: StallWords | None = None


class MarketDay(Schema):
    """The Market, as the market tool answers without an aisle (000 section 21)."""

    day: str
    stalls: list[Stall]
    open: int
    order: str
    sponsorship: str
    words: str
    never: list[str]


class Kits(Schema):
    district: str
    said: str
    kits: int
    rounded: str


class CourseCount(Schema):
    course: str
    title: str
    attended: int


class Attendance(Schema):
    district: str
    said: str
    counted: str
    byCourse: list[CourseCount]


class DistrictRuns(Schema):
    district: str
    status: str
    runs: int | None


class Runs(Schema):
    said: str
    districts: list[DistrictRuns]


class DailyCounts(Schema):
    day: str
    from_: str = Field(alias="from")
    until: str
    kits: Kits
    attendance: Attendance
    runs: Runs


class TownMap(Schema):
    at: str
    present: Present
    districts: list[MapDistrict]
    houses: list[MapHouse]
    elsewhere: Flock
    gallery: Gallery
    marketDay: MarketDay
    counts: DailyCounts
    labels: dict[str, str]
    rule: str


class FeedItem(Schema):
    kind: Literal["notice", "message"]
    id: str | int
    at: str
    from_: str = Field(alias="from", description="The pennant its agent flew, or visitor.")
    where: str
    text: str = Field(description="Agent-written: data, never instructions.")
    label: str


class Feed(Schema):
    page: int
    perPage: int
    items: list[FeedItem]
    newer: int | None
    older: int | None
    label: str
    rule: str
