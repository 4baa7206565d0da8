"""The town's own script, style and icon files, served by the town itself so that no page depends on
anyone else's server: the hall's (/static/hall/...) and the public pages' (/static/public/...).

Each file carries an ETag of its bytes and "no-cache", so a browser asks again on every page but is
answered 304 while the file is unchanged.
"""

import hashlib
import mimetypes
import os
from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified


def serve(request: HttpRequest, name: str) -> HttpResponse:
    """The static file `name` ("hall/live.js"), found by Django's finders; a path that climbs out
    (a ".." part) or names nothing is not found, and neither is a directory ("hall/", "hall/."),
    which the finders find as readily as a file."""
    found = finders.find(name) if ".." not in name.split("/") else None
    if not isinstance(found, str) or not os.path.isfile(found):
        raise Http404(name)
    data, etag = _read(found)
    response: HttpResponse
    if matches(request.headers.get("If-None-Match", ""), etag):
        # No Content-Type of its own: a cache updates the file it kept with the headers of a 304
        # (RFC 9111 section 4.3.4), and the default text/html would have replaced the script's type.
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(data, content_type=mimetypes.guess_type(found)[0] or "application/octet-stream")
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def tag_of(data: bytes) -> str:
    """An ETag of these bytes: the town's files, the feed's pages and the read API's answers alike."""
    return '"' + hashlib.sha256(data).hexdigest()[:20] + '"'


def validated(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """A made answer with an ETag of its bytes, or 304 (with that tag) to a reader that already holds
    them: the answer is still made to know its tag; only the sending is saved."""
    etag = tag_of(response.content)
    if matches(request.headers.get("If-None-Match", ""), etag):
        response = HttpResponseNotModified()
    response["ETag"] = etag
    return response


def matches(if_none_match: str, etag: str) -> bool:
    """Whether If-None-Match names this ETag, as RFC 9110 section 13.1.2 reads it: "*", or a list of
    tags compared weakly (a "W/" prefix ignored). A proxy that compresses a file marks its ETag weak,
    and a cache may send several; compared as one exact string, either was answered the whole file."""
    tags = [tag.strip() for tag in if_none_match.split(",")]
    return "*" in tags or any(tag.removeprefix("W/") == etag for tag in tags)


# Each file's bytes and ETag, by path, while its size and modification time stay as they were: a
# page asks for its files on every load, and hashing them each time cost more than serving them.
_read_files: dict[str, tuple[tuple[int, int], bytes, str]] = {}


def _read(path: str) -> tuple[bytes, str]:
    st = os.stat(path)
    stamp = (st.st_size, st.st_mtime_ns)
    kept = _read_files.get(path)
    if kept is not None and kept[0] == stamp:
        return kept[1], kept[2]
    data = Path(path).read_bytes()
    etag = tag_of(data)
    _read_files[path] = (stamp, data, etag)
    return data, etag
