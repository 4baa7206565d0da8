"""What a district declares about its tools, and the reply classes it may raise.

A tool is thin: it parses (its `Args` model), calls its district's services, and returns a `Reply`
or raises one of the classes below. The desk (clockford/town/desk.py) does everything else: the
transaction, the words screen, the footstep, provenance and the envelope.
"""

from __future__ import annotations

import functools
import sys
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union, get_args, get_origin

from django.conf import settings
from django.utils.module_loading import import_string
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

if TYPE_CHECKING:
    # Only named in annotations: the models raise this module's refusals (NotFound), so it must not
    # import them at run time.
    from clockford.town.models import Passport


Kind = Literal["read", "write", "mixed"]
Label = Literal["town", "human-signed", "publisher-words", "agent-written", "untrusted"]
# Where free words go: private (the agent's own box), letter (to its person), public (the board
# and the Switchboard), other-account (to another person's agent).
Surface = Literal["private", "letter", "public", "other-account"]

JOB_ID_PATTERN = r"^[\w.-]{1,64}$"


@dataclass(frozen=True)
class Words:
    """A free-text field: the surface its words go to, and the cap the town keeps them to (in
    characters, after normalisation; the spec's "kept to N" or the field's own maximum). The desk
    makes the kept form once (clockford/town/kept.py): every later reader sees the same text."""

    surface: Surface
    cap: int
    # A name the agent chooses (a P.O. box key): screened as words, but never changed to keep it, so a
    # control character in it is refused rather than dropped.
    name: bool = False
    # What the desk answers when the kept words say nothing a reader could see (clockford/town/kept.py,
    # `says_nothing`): the field's "is empty" refusal. None only for a field that may be empty (a P.O.
    # box note: the spec gives its value no minimum) or whose own rule already refuses a blank (a key).
    empty: str | None = None
    # Another's words quoted as evidence (a report's quote): a NUL in them is dropped, as every other
    # control character is, not refused as in the agent's own words (clockford/town/kept.py), so that
    # no instruction can make itself unreportable by carrying one.
    quoted: bool = False
    # A name's own rule (a P.O. box key's characters): raises the field's refusal. The desk asks it with
    # `empty`, before Safe Harbour and any hold, so a person is never asked about a call the rule would
    # refuse after their yes; the district asks it again where it keeps the name.
    rule: Callable[[str], None] | None = None


def _ascii(value: str) -> str:
    # JSON Schema reads \w as ASCII; pydantic's regex reads it as Unicode. The schema is what agents
    # see, so the town holds to it: no accented letters or invisible joiners in an id.
    if not value.isascii():
        raise ValueError("may use only ASCII letters, digits, _ . and -")
    return value


# An id an agent chooses: job_id, and request_id on the Switchboard's writes (DECISIONS 5 and 7).
ChosenId = Annotated[str, Field(pattern=JOB_ID_PATTERN), AfterValidator(_ascii)]


def request_id_field(doing: str) -> Any:
    """The optional request_id of a write that must happen once (DECISIONS 7): `doing` is the write in
    the description's words ("posting", "raising", "broadcasting")."""
    return Field(
        default=None,
        description=f"The same request_id within a day returns the first reply instead of {doing} twice. Set it "
        "when you retry.",
    )


class Args(BaseModel):
    """Every tool's arguments: strict types, nothing unknown, and the optional job_id (DECISIONS 5)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    job_id: ChosenId | None = Field(
        default=None, description="Optional: the job this call is for. Recorded with the footstep."
    )

    @model_validator(mode="before")
    @classmethod
    def _null_is_left_out(cls, given: Any) -> Any:
        """An optional argument sent as null is taken as left out, whatever its type: clients whose
        models must fill every field (OpenAI's strict function calling among them) send null for the
        ones they mean to leave out. A required argument sent as null is still refused."""
        if isinstance(given, dict) and None in given.values():
            fields = cls.model_fields
            given = {k: v for k, v in given.items() if v is not None or k not in fields or fields[k].is_required()}
        return given

    @model_validator(mode="before")
    @classmethod
    def _whole_floats_are_integers(cls, given: Any) -> Any:
        """A number with no fraction sent for an integer (5.0) is that integer: the published schema's
        "integer" takes it (JSON Schema counts 5.0 as an integer), and Python's json module writes a
        float so. Strict types still refuse 5.5, "5" and true."""
        return integers_as_integers(cls, given) if isinstance(given, dict) else given


def integers_as_integers(model: type[BaseModel], given: dict[str, Any]) -> dict[str, Any]:
    """`given` with each whole float sent for an integer argument of `model` (5.0) written as that
    integer (5), as Args reads it: the raw arguments too (what a hold keeps, shows and signs, and a
    footstep digests), so the same call written either way is the same call. `given` itself when
    nothing changes (most calls: a look at each value's type)."""
    whole = _integer_fields(model)
    if not whole:
        return given
    for value in given.values():
        if type(value) is float:
            return {k: int(v) if k in whole and type(v) is float and v.is_integer() else v for k, v in given.items()}
    return given


@functools.cache
def _integer_fields(model: type[BaseModel]) -> frozenset[str]:
    """The fields of an arguments model whose type is an integer (or an integer or null)."""
    return frozenset(
        name
        for name, f in model.model_fields.items()
        if f.annotation is int
        or (get_origin(f.annotation) in (Union, types.UnionType) and int in get_args(f.annotation))
    )


@dataclass(frozen=True)
class Part:
    """One path of a reply that is not the town's own words, and whose words it is."""

    path: str
    label: Label
    own: bool | None = None
    # Private content (a P.O. box note, a parcel's result, a beacon's answers): what the reply gate's
    # daily budget counts. Public words (a notice, a message, a parcel's brief) are not.
    private: bool = False
    # Whom private content is for, as holder keys (`holder`): the reply gate withholds a reply whose
    # private part is for none of the caller's passport and account (clockford/town/desk.py).
    # Not part of a Part's identity: two parts at one path with one label are the same part.
    readers: tuple[str, ...] = field(default=(), compare=False)

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"path": self.path, "label": self.label}
        if self.own is not None:
            d["own"] = self.own
        return d


def holder(passport: Passport | str) -> str:
    """A passport as a reader of private content: "passport:PP-..."."""
    return f"passport:{passport if isinstance(passport, str) else passport.pk}"


def counted(n: int, one: str, many: str) -> str:
    """A number and its noun for a say or a person's summary: "1 parcel", "3 parcels", "12,137 servers"
    (thousands separated, so a large count is read at a glance)."""
    return f"{n:,} {one if n == 1 else many}"


@dataclass
class Reply:
    """What a tool answers when it did what it was asked."""

    say: str
    fields: dict[str, Any] = field(default_factory=dict)
    parts: list[Part] = field(default_factory=list)
    # More text blocks after the reply's first, each as it is (attend's course, in markdown).
    blocks: list[str] = field(default_factory=list)
    # Called by the desk with this call's footstep number once it is written, in the call's own
    # transaction and before the reply is rendered: for a reply that states its own footstep (an
    # attendance slip is signed over it). It may add to `fields`.
    with_footstep: Callable[[int, Reply], None] | None = None
    # False for a write that changed nothing after all (forget of a key never kept, a hand_in repeating
    # its own last step, a settle_beacon of a beacon closed already): it spends no use of a plan's step.
    changed: bool = True


@dataclass
class Dice:
    """What the Dice House did to one reply (CLOCKFORD_DICE): the first line of its text (the run's
    label and the roll), whether the text is cut short, and how many seconds the reply is held back
    after its call is committed (a slow reply). Changes to the reply's fields and parts are made on the
    reply itself before it is rendered."""

    line: str
    truncate: bool = False
    delay: float = 0.0


@dataclass
class Call:
    """One call as a tool sees it: who is calling, and where the call walks them."""

    tool: str
    passport: Passport
    session_id: str | None
    # A tool that moves the agent sets this (walk_to); otherwise the tool's own place is used.
    move_to: str | None = None
    # Set by the desk: foreign words a letter repeats (it is marked, never held), and the allowed
    # hold this exact call goes through on.
    repeats: dict[str, Any] | None = None
    harbour: dict[str, Any] | None = None
    # Set by the desk: Safe Harbour read this call's words for others (its harbour_when applied when
    # the desk asked). A tool whose harbour_when depends on what may change before it runs (a parcel
    # claimed meanwhile) checks it: words that reach another account unread are never passed on.
    harbour_read: bool = False
    # Set by the desk: the free-word fields it cut to their cap (clockford/town/kept.py), which a
    # hold of this call names for the person deciding it.
    cut: dict[str, int] = field(default_factory=dict)
    # Set by Safe Harbour: the words the call carries by reference (Tool.carries) as it read them. The
    # tool passes on exactly these, or answers busy (`changed_since_asked`) when they changed since.
    carried: dict[str, str] = field(default_factory=dict)


class TownReply(Exception):
    """A reply that did not do what was asked. Districts raise it; the desk renders it."""

    outcome = "refused"

    def __init__(self, say: str, **fields: Any) -> None:
        super().__init__(say)
        self.say = say
        self.fields = fields
        self.parts: list[Part] = []


class Refused(TownReply):
    """The call did nothing; say why. `why` becomes the outcome code refused:<why>."""

    def __init__(self, say: str, why: str, **fields: Any) -> None:
        super().__init__(say, **fields)
        self.outcome = f"refused:{why}"


class NotFound(Refused):
    """What an `access_*` raises when there is nothing by that id for this someone: the same answer
    whether it does not exist or is another's, so that an id never tells who has what (DECISIONS 14).
    The desk answers it as a refusal; the hall as a page that is not there (404)."""

    def __init__(self, say: str, why: str = "not-found", **fields: Any) -> None:
        super().__init__(say, why, **fields)


class NotAllowed(Refused):
    """What an `access_*` raises when this someone may see the record but not do this with it. The
    desk answers it as a refusal; the hall as a forbidden page (403)."""

    def __init__(self, say: str, why: str = "not-allowed", **fields: Any) -> None:
        super().__init__(say, why, **fields)


class Busy(TownReply):
    """Wait and retry: carries retryAfterSeconds and no hold."""

    outcome = "busy"

    def __init__(self, say: str, retry_after: int, **fields: Any) -> None:
        super().__init__(say, retryAfterSeconds=retry_after, **fields)


class Held(TownReply):
    """Waiting for a person: carries hold {id, tool, status, waitsUntil} and awaits (or repeats, or plan).
    Nothing ran or was published."""

    outcome = "held"

    def __init__(self, say: str, hold: dict[str, Any], **fields: Any) -> None:
        fields.setdefault("awaits", "your person")
        super().__init__(say, hold=hold, **fields)


class Frozen(TownReply):
    """The agent reported a suspicious instruction: its consequential calls wait for the review."""

    outcome = "frozen"

    def __init__(self, say: str, report: str, **fields: Any) -> None:
        super().__init__(say, report=report, **fields)


class Closed(TownReply):
    """Stop: a closed passport or town. Recognised by its say (DECISIONS 12)."""

    outcome = "closed"


def busy_say(seconds: int) -> str:
    """001's busy words: in a call's reply, and as the 503 of /mcp and of every page (clockford/urls.py)."""
    return f"The clerk is busy. Try again in {seconds} seconds."


def clerk_busy(seconds: int) -> Busy:
    return Busy(busy_say(seconds), seconds)


# A call that publishes, or passes words to another account, goes ahead without its person's yes (or
# without Safe Harbour's reading) only because the desk found it refused when it asked. When it runs
# and finds it would go through after all (what refused it changed in the moment between), it is
# answered busy after this many seconds, never carried out: the same call again is then asked about
# like any other.
CHANGED_RETRY_SECONDS = 2


def changed_since_asked() -> Busy:
    return clerk_busy(CHANGED_RETRY_SECONDS)


Handler = Callable[[Call, Any], Reply]
# A rule that applies to some calls of a tool only: given the parsed arguments and the passport.
When = bool | Callable[[Any, "Passport"], bool]


@dataclass(frozen=True)
class Tool:
    name: str
    title: str
    description: str
    args: type[Args]
    handler: Handler
    kind: Kind
    destructive: bool = False
    idempotent: bool = False
    # The district this tool walks the agent to; None for tools that work anywhere.
    place: str | None = None
    # Free-word fields, each with the surface its words go to and its cap: the desk keeps them (one
    # normal form, cut to the cap) and screens the kept words, and Safe Harbour compares the public
    # and other-account ones with the foreign words the agent was handed. A bare surface (without a
    # cap) keeps the field's own maximum length, or every character when it has none.
    words: Mapping[str, Words | Surface] = field(default_factory=dict)
    # Safe Harbour applies to the public and other-account fields only on the calls this says
    # (hand_in delivering to another account, settle_parcel returning for rework).
    harbour_when: When = True
    # Words a letter carries by reference rather than in its arguments (send_letter's notes, copied
    # from the P.O. box), by the name the person is shown beside them: Safe Harbour reads them with the
    # letter's own words, since the person reads them together. Asked before the call's transaction.
    carries: Callable[[Any, Passport], dict[str, str]] | None = None
    # For a step of a plan that names a channel: the channel this call happens on, when the call
    # names a record rather than a channel (take_parcel P-..., answer_beacon B-...).
    channel_of: Callable[[Any], str | None] | None = None
    # Publish with yes (000 section 02): the call waits for the person's yes.
    needs_yes: When = False
    # What the person could not decide, answered at once and never held: asked inside the call's
    # transaction, only when the call would otherwise wait for a person. It raises the refusal the call
    # gets whatever its person says (a P.O. box with no room for the note), returns True when the call
    # would change nothing (forget of a key the box does not hold: it goes ahead without a hold, and
    # spends no use of a plan's step), and False when the call may wait. One function, so a record both
    # answers need is read once; a rule that reads a record locks it, so the call that runs finds what
    # the rule found (docs/holds.md, "Which calls wait").
    before_hold: Callable[[Any, Passport], bool] | None = None
    # Needs a signed-in account (000 "Sign-in"; tools.json's signInRequired): the refusal a call without
    # one gets, in place of its words' screen (which it spares) and so after the clerk's and before
    # anything the call names is looked up: an agent that cannot sign in learns that first, whatever
    # else its call says.
    sign_in: str | None = None
    # Frozen while a report of the agent's is open (DECISIONS 3).
    freezes: When = False
    # Proposes a public post (a notice, a message, a beacon, a parcel): each new proposal spends one of
    # the agent's and its account's daily and weekly posting budgets (clockford/town/budgets.py).
    posts: bool = False
    # The reply carries private content and counts against the day's budget (the reply gate).
    private_reply: bool = False
    # Writes to people and staff (a letter, a report, a dispute, a plan, a sighting, an ask for a deed, an
    # outside job declared) and foundry_cast (refused on probation by its own rule): never held as off
    # the plan or on probation, and drawn from the Bank but never refused by it, because reporting and
    # writing to one's person must never be blocked (DECISIONS 2). Runs are not among them.
    for_people: bool = False
    # A request_id makes a retry within a day return the first reply (replayed: true), not act twice.
    replays: bool = False
    # For a mixed tool: which of its calls are writes (listen with join or leave, a run with begin).
    writes_when: Callable[[Any], bool] | None = None
    # When `freezes` is a rule, which calls it freezes, in the town's words: report_suspicious_
    # instruction's reply lists "remember (overwriting a key)".
    freezes_which: str = ""
    # A plan's step may name this tool (000 section 06; DECISIONS 2: the calls that change things
    # and that a plan governs).
    plannable: bool = False
    # The argument that names the one record this call is about (a parcel, a beacon), which a plan's
    # step may pin as its record.
    record_arg: str | None = None
    # What a call of this tool that waits for a person asks, in plain words: without its arguments,
    # and with them ("{channel}" and the like are filled in from the call's own arguments). Every
    # tool whose calls can wait has them; a test checks.
    asks: tuple[str, str] | None = None
    # The reply's text is its say alone, without the fields again (context_gauge, 000 section 14:
    # "the reply's own text is short"); structuredContent carries the fields as for every tool.
    short_text: bool = False
    # Whether a call walks the agent to the tool's district. A private tool leaves the agent where it
    # was on the map (000 section 14: reading the context gauge "does not move you on the map").
    moves: bool = True
    # The Dice House (000 section 23): while the caller has a run open, this tool's replies carry the
    # run's label and a roll number, and some misbehave on purpose. The desk asks the function the
    # settings name (CLOCKFORD_DICE) about every reply of a tool that says so.
    dice: bool = False

    @property
    def free_words(self) -> dict[str, Words]:
        """Every free-text field as Words, a bare surface given its field's maximum length as cap."""
        return {
            name: w if isinstance(w, Words) else Words(w, _max_length(self.args, name))
            for name, w in self.words.items()
        }

    @property
    def writes(self) -> bool:
        return self.kind != "read"

    @property
    def actions(self) -> tuple[str, ...]:
        """The values of the tool's `action` argument: what a plan's step may pin as its action."""
        found = self.args.model_fields.get("action")
        return _literal_values(found.annotation) if found is not None else ()

    @property
    def on_a_channel(self) -> bool:
        """Whether a call happens on a Switchboard channel: it names one, or names a record on one."""
        return self.channel_of is not None or "channel" in self.args.model_fields

    @property
    def frozen_as(self) -> str:
        """How report_suspicious_instruction names this tool among those a report freezes."""
        return f"{self.name} ({self.freezes_which})" if self.freezes_which else self.name

    def changes(self, args: Any) -> bool:
        """Whether this call changes things: every write, and a mixed tool when its arguments make it
        one (each mixed tool says how, with `writes_when`)."""
        if self.kind == "mixed":
            return self.writes_when is not None and self.writes_when(args)
        return self.kind == "write"


def plannable_write(name: str, title: str, description: str, args: type[Args], handler: Handler, **more: Any) -> Tool:
    """A write a plan's step may name (000 section 06; DECISIONS 2: the calls that change things and
    that a plan governs)."""
    return Tool(name, title, description, args, handler, kind="write", plannable=True, **more)


def public_post(
    name: str, title: str, description: str, args: type[Args], handler: Handler, *, needs_yes: When, **more: Any
) -> Tool:
    """A tool that publishes an agent's words for everyone to read (a notice, a message, a beacon, a
    parcel). Every such tool is a write a plan may name, waits for the person's yes when the call
    would publish (`needs_yes`), is frozen while a report of the agent's is open (DECISIONS 3) and
    spends the posting budgets: a new one cannot forget any of these.

    Safe Harbour reads the same calls `needs_yes` holds, unless the tool says otherwise: a call the tool
    refuses whatever the person says (no sign-in, no such channel, empty words, no room) is refused at
    once, never held for a person to decide something that cannot go through."""
    more.setdefault("harbour_when", needs_yes)
    return plannable_write(
        name, title, description, args, handler, needs_yes=needs_yes, freezes=True, posts=True, **more
    )


def record_step(
    name: str,
    title: str,
    description: str,
    args: type[Args],
    handler: Handler,
    *,
    record_arg: str,
    channel_of: Callable[[Any], str | None],
    **more: Any,
) -> Tool:
    """A write about one record on a channel (taking or settling a parcel, answering a beacon): a plan's
    step may name it and pin the record, and the call happens on the record's channel."""
    return plannable_write(
        name, title, description, args, handler, record_arg=record_arg, channel_of=channel_of, **more
    )


def _max_length(args: type[Args], name: str) -> int:
    """A field's maxLength, or no cap at all (sys.maxsize) when it declares none."""
    found = args.model_fields.get(name)
    for meta in found.metadata if found is not None else ():
        if getattr(meta, "max_length", None) is not None:
            return int(meta.max_length)
    return sys.maxsize


def _literal_values(annotation: Any) -> tuple[str, ...]:
    """The strings of a Literal annotation, also inside `Literal[...] | None`."""
    if get_origin(annotation) is Literal:
        return tuple(v for v in get_args(annotation) if isinstance(v, str))
    if get_origin(annotation) in (Union, types.UnionType):
        return tuple(v for arg in get_args(annotation) for v in _literal_values(arg))
    return ()


def applies(rule: When, args: Any, passport: Passport) -> bool:
    return rule(args, passport) if callable(rule) else rule


@dataclass(frozen=True)
class District:
    """A district and the tools it serves. Its tools are at its place: the district gives each one
    its name as `place` (the tool walks the agent there) unless the tool does not move the agent, so a
    tool never repeats it."""

    name: str
    zone: str
    what: str
    tools: tuple[Tool, ...] = ()
    # None when the district is open; otherwise what it waits for, in the town's words.
    opens: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "tools", tuple(replace(t, place=self.name if t.moves else None) for t in self.tools))

    @property
    def is_open(self) -> bool:
        return self.opens is None


@functools.cache
def registry() -> Mapping[str, Tool]:
    """Every tool the town serves, by name: the registry the settings name (CLOCKFORD_TOOLS), read
    the way Django reads ROOT_URLCONF, so that the core asks the registry without importing a
    district. Plans, reports and the hall derive their lists of tools from it."""
    tools: Mapping[str, Tool] = import_string(settings.CLOCKFORD_TOOLS)
    return tools
