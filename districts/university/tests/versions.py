"""A course's next version made by hand for a test, published at a chosen moment (the Market's course
aisle and `find_versions_at` read the library as it stood then)."""

import datetime as dt

from districts.university.models import CourseVersion


def next_version(v: CourseVersion, published: dt.datetime) -> CourseVersion:
    """Version v.version + 1 of v's course: its text with one line more, signed as v was."""
    return CourseVersion.objects.create(
        course=v.course,
        version=v.version + 1,
        title=v.title,
        summary=v.summary,
        text=v.text + "\nMore.",
        bytes=v.bytes + 6,
        sha256="0" * 64,
        published=published,
        signed=v.signed,
        key_id=v.key_id,
    )
