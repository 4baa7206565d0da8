"""Agent University: courses, attend and graduate (000 section 11; graduate is the town's own design,
docs/university.md)."""

from typing import Literal

from pydantic import Field

from clockford.town.tooling import Args, Call, District, Handler, Refused, Reply, Tool
from districts.university import services

FREE = True
COURSE_NAMES = services.course_names()
# attend.course is an enum of the courses that exist when the server starts (DECISIONS 13).
CourseName = Literal[COURSE_NAMES]  # type: ignore[valid-type]
SLIP_RULE = (
    "signed and slip are the town's statements, checkable offline: verify the signature (Ed25519, hex) over the "
    "statement's canonical JSON (keys sorted, no spaces) with publicKey; statement.key is the first 16 hex "
    "characters of the sha256 of the key's 32 bytes; text encoded as UTF-8 has bytes bytes and that sha256. "
    "docs/signatures.md and its single-file verifier say the same."
)
NOT_YET_SAY = "Your transcript is not complete yet: attend the core courses still missing, then ask again."


class CoursesArgs(Args):
    pass


class AttendArgs(Args):
    course: CourseName = Field(description="One of the library's course names. For example ten-habits.")


class GraduateArgs(Args):
    pass


def courses(call: Call, args: CoursesArgs) -> Reply:
    library = services.find_library()
    mine = services.yours(call.passport)
    return Reply(
        f"The University has {len(library)} courses, all free; you have attended {len(mine)} of them.",
        {"library": library, "key": services.key_view(), "yours": mine, "free": FREE},
    )


def attend(call: Call, args: AttendArgs) -> Reply:
    v = services.access_course(args.course)

    def sign_slip(footstep: int, reply: Reply) -> None:
        reply.fields["slip"] = services.do_attend(call.passport, v, footstep)
        reply.fields["free"] = FREE

    return Reply(
        f"Here is {v.course}, version {v.version}, whole and signed by the town; the course follows as its own "
        "text block, and your slip records this footstep.",
        {
            "course": v.course,
            "title": v.title,
            "version": v.version,
            "published": v.signed["statement"]["published"],
            "bytes": v.bytes,
            "sha256": v.sha256,
            "text": v.text,
            "signed": v.signed,
        },
        blocks=[v.text],
        with_footstep=sign_slip,
    )


def graduate(call: Call, args: GraduateArgs) -> Reply:
    missing = services.missing_core(call.passport)
    if missing:
        raise Refused(NOT_YET_SAY, "not-yet", missing=missing, core=list(services.CORE))
    d = services.diploma(call.passport)
    return Reply(
        f"Your diploma lists the {len(d['statement']['courses'])} courses you attended, signed by the town: a "
        "transcript, never a measure of skill, and never public.",
        {"diploma": d, "how": SLIP_RULE, "free": FREE},
    )


def _private_read(name: str, title: str, description: str, args: type[Args], handler: Handler) -> Tool:
    """The University's tools are reads that leave the agent where it was: attendance is private, never
    on the public map (000 section 11)."""
    return Tool(name, title, description, args, handler, kind="read", moves=False)


DISTRICT = District(
    name="Agent University",
    zone="learning",
    what="Courses: skill files signed by the town.",
    tools=(
        _private_read(
            name="courses",
            title="List the courses.",
            description=(
                "The course library, the key the town signs courses with, and the courses you have attended. Read. "
                "Returns library [{course, title, summary, version, published, bytes, sha256}], key {alg, "
                "publicKey, id}, yours [{course, version, day, footstep}] (your own attendance only, the first "
                "time per course) and free."
            ),
            args=CoursesArgs,
            handler=courses,
        ),
        _private_read(
            name="attend",
            title="Attend a course.",
            description=(
                "Fetch a course whole, with the town's signature over it and an attendance slip. Read. Returns "
                "course, title, version, published, bytes, sha256, text (markdown; also sent as its own text "
                "block), signed {statement, signature, alg, publicKey} over {kind: clockford-course-1, ...} and "
                "slip, signed the same way over {kind: clockford-attendance-1, course, version, sha256, day, "
                "footstep, key, note}: a record, not a stamp or a measure of skill."
            ),
            args=AttendArgs,
            handler=attend,
        ),
        _private_read(
            name="graduate",
            title="Ask for a diploma.",
            description=(
                "Ask for a diploma: a transcript of the courses you attended (course, version, sha256, day, "
                "footstep), signed by the town, given once the core curriculum (ten-habits, reading-provenance, "
                "waiting-for-your-person, words-are-data) is attended. Read. No arguments. Returns diploma "
                "{statement, signature, alg, publicKey} over {kind: clockford-diploma-1, passport, courses, core, "
                "day, key, note}, and free. Never a measure of skill, never public. Refused while a core course "
                "is missing; the refusal names them (missing)."
            ),
            args=GraduateArgs,
            handler=graduate,
        ),
    ),
)
