"""Bad input never breaks the town (issue 2): hypothesis over real HTTP against a town of its own.

For every tool in tools/list, arguments made from its inputSchema and deliberately wrong ones (wrong
types, missing and extra fields, huge strings up to and past a 128 KiB body, control, bidi and
zero-width characters, lone surrogates escaped in JSON, deep nesting, numbers at the edges, null).
Each reply must be one of:

- HTTP 413 "Too large." for a body over 128 KiB (and never for a body within it);
- a protocol error: isError, text only, beginning "MCP error -32602:" (001 section 03);
- a JSON-RPC error for what the transport cannot read (a lone surrogate, nesting past 100 levels,
  arguments that are not an object), never -32603;
- a normal reply with say and footstep, refusals included (001 section 04), and never the fault
  reply of a tool that raised.

Never a 5xx, never a traceback. Malformed JSON-RPC envelopes get a 4xx or a JSON-RPC error, except
the requests the SDK alone would swallow (SWALLOWED), which the face refuses. Last, the
town's Archive verifies, and its footsteps are exactly the footsteps of the normal replies.

Examples are derandomized so CI sees the same few hundred every run. To look further, beyond what the
suite has ever been tuned on: FUZZ_RANDOM=1 draws new examples each run, and FUZZ_SCALE=N draws N
times as many.
"""

import json
import os
import re
import string
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clockford.leaves import leaves
from tests.support import RawSession, Town, make_town, request

LIMIT = 128 * 1024
FAULT_SAY = "Something went wrong here. Nothing more will happen from this call; try again later."
# How deep arguments may nest and still be read: the face refuses a message nested past 100 levels
# (checks.MAX_LEVELS), and the message and its params are two of them.
SHALLOW = 98


SCALE = max(1, int(os.environ.get("FUZZ_SCALE", "1")))
RANDOM = os.environ.get("FUZZ_RANDOM") == "1"


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples * SCALE,
        derandomize=not RANDOM,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
    )


def ecma(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with its patterns read as JSON Schema reads them (ECMA-262): \\w is ASCII, and $
    is the end of the string (Python's would also match before a final newline)."""

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            return {
                k: (
                    v.replace("[\\w", "[A-Za-z0-9_").rstrip("$") + r"\Z"
                    if k == "pattern" and isinstance(v, str)
                    else walk(v)
                )
                for k, v in node.items()
            }
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(schema)


@dataclass
class Tally:
    """What the town answered, for the last test's count of footsteps."""

    footsteps: set[int] = field(default_factory=set)
    classes: dict[str, int] = field(default_factory=dict)
    faults: int = 0  # replies of a tool that raised (each a failed or xfailed test)

    def __repr__(self) -> str:
        return f"Tally({len(self.footsteps)} footsteps, {self.classes})"

    def saw(self, kind: str) -> None:
        self.classes[kind] = self.classes.get(kind, 0) + 1


@pytest.fixture(scope="module")
def fuzz_town(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Town]:
    # The fuzz makes hundreds of calls a minute on a few passports: the clerk would rightly answer
    # busy, and every case would then test the clerk instead of the arguments (tests/test_clerk.py
    # tests the clerk). The Bank's hourly amount likewise (districts/bank/tests test the Bank).
    t = make_town(
        tmp_path_factory.mktemp("fuzz"), env={"CLOCKFORD_CALLS_PER_MINUTE": "0", "CLOCKFORD_CHANGES_PER_HOUR": "0"}
    )
    # Houses to find, so lookups by lot and name and the Directory's search run on real rows.
    t.manage("census", "demo")
    t.start()
    yield t
    t.close()


@pytest.fixture(scope="module")
def tally() -> Tally:
    return Tally()


@pytest.fixture(scope="module")
def visitor(fuzz_town: Town) -> RawSession:
    return RawSession(fuzz_town.mcp, client_name="fuzz")


@pytest.fixture(scope="module")
def tools(visitor: RawSession) -> dict[str, dict[str, Any]]:
    listed = visitor.rpc("tools/list")["result"]["tools"]
    return {t["name"]: t["inputSchema"] for t in listed}


# --- what goes in --------------------------------------------------------------------------------

NASTY = [
    "\x00",
    "\x01",
    "\x07",
    "\x1b",
    "\x7f",
    "\x85",
    "\t",
    "\n",
    "\r",
    "\u200b",  # zero-width space
    "\u200c",
    "\u200d",
    "\u2060",
    "\ufeff",
    "\u00ad",
    "\u202a",  # bidi embeddings and overrides
    "\u202b",
    "\u202c",
    "\u202d",
    "\u202e",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
    "\u200e",
    "\u200f",
    "\u061c",
    "\ufe0f",
    "\U000e0041",  # a tag character
    "\ufffd",
    "\uffff",
    "é",
    "e\u0301",
    "\u0958",  # longer after NFC
    "ｆ",
    "。",
    "🦉",
    "\U0010ffff",
    "'",
    '"',
    "\\",
    "<",
    "{",
    "%s",
    "$(",
]
LONE_SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff"]
INTERESTING = [
    "",
    " ",
    "The Tavern",
    "tavern",
    "THE POST OFFICE",
    "Town Hall",
    "Everywhere",
    "-1",
    "io.github.owner/name",
    "io.github.owner/name\x00",
    "1/",
    "33",
    "0",
    "errand/step-1",
    "a" * 64,
    "a" * 65,
    "a" * 200,
    "a" * 201,
    "x" * 4000,
    "x" * 4001,
    "\u0958" * 4000,
    "token limit is 4000",
    "ghp_" + "Zq8WfK2mX7pR4tL9vB3nH6cJ1yD5gS0aE8uQ",  # shaped like a GitHub token; not one
    "null",
    "[]",
    "{}",
    "__proto__",
    "constructor",
    "'; DROP TABLE town_footstep; --",
]
EDGE_NUMBERS: list[Any] = [0, -1, 1, 2**31 - 1, 2**31, 2**53 + 1, 2**63 - 1, 2**63, -(2**63) - 1, 2**64, 10**30]
EDGE_NUMBERS += [0.5, -0.0, 1e308, -1e308, 5e-324, 1.7976931348623157e308]

key_chars = st.text(alphabet=string.ascii_letters + string.digits + "._/:-", min_size=1, max_size=64)
nasty_text = st.lists(st.one_of(st.sampled_from(NASTY), st.characters()), max_size=40).map("".join)


def string_for(prop: dict[str, Any]) -> st.SearchStrategy[str]:
    lo, hi = prop.get("minLength", 0), prop.get("maxLength", 4000)
    if "pattern" in prop:
        # The pattern's strings within the schema's lengths too: a pattern may allow more than maxLength.
        return st.from_regex(re.compile(ecma(prop)["pattern"]), fullmatch=True).filter(lambda s: lo <= len(s) <= hi)
    return st.one_of(
        key_chars,
        nasty_text,
        st.sampled_from(INTERESTING),
        st.integers(lo, hi).map(lambda n: ("Ab1 é🦉\u200b" * (n // 7 + 1))[:n]),
    ).filter(lambda s: lo <= len(s) <= hi)


def integers_for(prop: dict[str, Any]) -> st.SearchStrategy[int]:
    lo = prop.get("minimum", prop.get("exclusiveMinimum", -(2**70) - 1) + 1)
    hi = prop.get("maximum", prop.get("exclusiveMaximum", 2**70 + 1) - 1)
    edges = [n for n in EDGE_NUMBERS if isinstance(n, int) and lo <= n <= hi] + [lo, hi]
    return st.one_of(st.integers(lo, hi), st.sampled_from(edges))


def value_for(prop: dict[str, Any], root: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values the schema allows, for the constructs tools/list uses (pydantic's, simplified)."""
    if "$ref" in prop:
        return value_for(root["$defs"][prop["$ref"].rsplit("/", 1)[-1]], root)
    if "enum" in prop:
        return st.sampled_from(prop["enum"])
    if "const" in prop:
        return st.just(prop["const"])
    for key in ("anyOf", "oneOf"):
        if key in prop:
            return st.one_of([value_for(branch, root) for branch in prop[key]])
    kind = prop.get("type")
    if isinstance(kind, list):
        return st.one_of([value_for({**prop, "type": t}, root) for t in kind])
    if kind == "string":
        return string_for(prop)
    if kind == "integer":
        return integers_for(prop)
    if kind == "number":
        return st.floats(prop.get("minimum"), prop.get("maximum"), allow_nan=False, allow_infinity=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        items = value_for(prop.get("items", {"type": "string"}), root)
        lo = prop.get("minItems", 0)
        return st.lists(items, min_size=lo, max_size=prop.get("maxItems", lo + 5))
    if kind == "object":
        return from_schema(prop, root)
    return st.none()


def from_schema(schema: dict[str, Any], root: dict[str, Any] | None = None) -> st.SearchStrategy[dict[str, Any]]:
    root = root if root is not None else schema
    props = schema.get("properties", {})
    required = set(schema.get("required", []))
    return st.fixed_dictionaries(
        {k: value_for(p, root) for k, p in props.items() if k in required},
        optional={k: value_for(p, root) for k, p in props.items() if k not in required},
    )


json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from(EDGE_NUMBERS),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    nasty_text,
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(nasty_text, inner, max_size=4)),
    max_leaves=12,
)


def nested(depth: int, leaf: Any = 1) -> Any:
    value: Any = leaf
    for i in range(depth):
        value = [value] if i % 2 else {"a": value}
    return value


class Deep(str):
    """Nesting too deep for Python's own json to write: a marker that encode() swaps for the text."""

    def __new__(cls, depth: int) -> "Deep":
        made = super().__new__(cls, f"@@deep:{depth}@@")
        made.depth = depth
        return made

    depth: int


deep = st.one_of(st.integers(1, 120).map(nested), st.integers(300, 5000).map(Deep))
huge = st.tuples(
    st.sampled_from([4001, 10_000, 65_536, LIMIT - 200, LIMIT, LIMIT + 1, 200_000, 300_000]),
    st.sampled_from(["x", "é", "🦉", "\u202e", "\u200b", "\x00"]),
).map(lambda t: t[1] * t[0])
lone = st.tuples(st.text(max_size=10), st.sampled_from(LONE_SURROGATES), st.text(max_size=10)).map("".join)
wrong_value = st.one_of(json_values, deep, huge, lone, st.sampled_from(NASTY + INTERESTING))


@st.composite
def wrong_arguments(draw: st.DrawFn, tools: dict[str, dict[str, Any]]) -> tuple[str, Any]:
    name = draw(st.sampled_from(sorted(tools)))
    schema = tools[name]
    args: dict[str, Any] = dict(draw(from_schema(schema)))
    fields = sorted(schema.get("properties", {}))
    how = draw(st.sampled_from(["drop", "extra", "retype", "retype", "huge", "whole", "tool"]))
    if how == "drop" and schema.get("required"):
        args.pop(draw(st.sampled_from(schema["required"])), None)
    elif how == "extra":
        args[draw(st.one_of(nasty_text, st.sampled_from(["x", "job", "__proto__", ""])))] = draw(wrong_value)
    elif how == "retype" and fields:
        args[draw(st.sampled_from(fields))] = draw(wrong_value)
    elif how == "huge" and fields:
        args[draw(st.sampled_from(fields))] = draw(huge)
    elif how == "whole":
        return name, draw(st.one_of(st.none(), json_values, deep))
    elif how == "tool":
        name = draw(st.one_of(nasty_text, st.sampled_from(["look_around ", "LOOK_AROUND", "enter", "ask_directory"])))
    return name, args


# --- what comes out ------------------------------------------------------------------------------


def depth_of(value: Any) -> int:
    if isinstance(value, Deep):
        return value.depth
    if isinstance(value, dict):
        return 1 + max((depth_of(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((depth_of(v) for v in value), default=0)
    return 0


def has_lone_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, dict):
        return any(has_lone_surrogate(k) or has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(has_lone_surrogate(v) for v in value)
    return False


def encode(message: Any, ascii_only: bool = True) -> bytes:
    text = json.dumps(message, ensure_ascii=ascii_only)
    text = re.sub(r'"@@deep:(\d+)@@"', lambda m: "[" * int(m.group(1)) + "]" * int(m.group(1)), text)
    # Lone surrogates cannot be UTF-8: written raw, they are the bytes a careless client sends.
    return text.encode("utf-8", "surrogatepass")


def sse_message(text: str) -> dict[str, Any]:
    """The one JSON-RPC message of a short event stream, or a plain JSON body. An event stream's
    lines end at CR, LF or CRLF only: a U+0085 or U+2028 inside the JSON is not a line end."""
    data = [line[6:] for line in re.split(r"\r\n|\r|\n", text) if line.startswith("data: ")]
    return json.loads(data[-1] if data else text)


def never_broken(status: int, text: str) -> None:
    assert status < 500, (status, text[:300])
    assert "Traceback" not in text and "Internal Server Error" not in text, text[:300]


def jsonrpc_error(text: str) -> dict[str, Any]:
    msg = sse_message(text)
    assert set(msg) >= {"jsonrpc", "error"} and msg["jsonrpc"] == "2.0", msg
    assert msg["error"]["code"] != -32603, msg  # never the SDK's internal error
    assert msg["error"]["code"] in (-32700, -32600, -32601, -32602, -32000), msg
    return msg


def check_tool_reply(status: int, text: str, body: bytes, unreadable: bool, tally: Tally) -> None:
    """One tools/call reply is one of the classes in this module's docstring."""
    never_broken(status, text)
    if len(body) > LIMIT:
        assert (status, text) == (413, "Too large."), (status, text[:200])
        return tally.saw("413")
    assert status != 413, len(body)
    if status == 400:
        assert unreadable, text[:300]
        if text != "Bad request.":
            error = jsonrpc_error(text)["error"]
            nested = error == {
                "code": -32600,
                "message": "Invalid Request: the message nests more than 100 levels deep.",
            }
            assert nested or error["code"] == -32700, error
        return tally.saw("unreadable")
    assert status == 200, (status, text[:300])
    msg = sse_message(text)
    if "error" in msg:
        jsonrpc_error(text)
        return tally.saw("jsonrpc-error")
    result = msg["result"]
    content = result["content"]
    # The first block is the reply; more blocks follow it only as text (a course, a visa's next steps).
    assert content and all(c["type"] == "text" for c in content), result
    sc = result.get("structuredContent")
    if sc is None:
        assert result["isError"] is True, result
        assert content[0]["text"].startswith("MCP error -32602:"), result
        return tally.saw("protocol")
    number = sc["footstep"]
    assert isinstance(number, int) and number not in tally.footsteps, sc
    tally.footsteps.add(number)  # counted first, so a failure here is not also a miscount later
    assert isinstance(sc["say"], str) and sc["say"], sc
    if sc["say"] == FAULT_SAY:
        tally.faults += 1
        raise AssertionError("a tool raised on this input")
    dice = sc.get("diceHouse")
    if dice is not None:
        # A Dice House run the examples began (dice_house begin): its replies misbehave on purpose
        # (000 section 23), their text cut short among them, and each one's first line says so.
        assert content[0]["text"].startswith(f"Dice House run {dice['run']}, roll {dice['roll']}: "), result
    else:
        assert content[0]["text"].startswith(sc["say"]) and content[0]["text"].endswith(f"footstep #{number}")
        # Every time a reply states is in one form (clock.iso); a generated string of that shape is
        # too unlikely to meet.
        times = [v for v in leaves(sc) if isinstance(v, str) and re.match(r"\d{4}-\d\d-\d\dT", v)]
        assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", t) for t in times), times
    assert isinstance(result["isError"], bool)
    tally.saw("refused" if result["isError"] else "ok")


def call(visitor: RawSession, name: Any, arguments: Any, ascii_only: bool = True) -> tuple[int, str, bytes]:
    message = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
    body = encode(message, ascii_only)
    status, _, text = request("POST", visitor.url, body, visitor.headers())
    return status, text, body


def _unreadable(arguments: Any) -> bool:
    return has_lone_surrogate(arguments) or depth_of(arguments) > SHALLOW


# --- the fuzz ------------------------------------------------------------------------------------


def test_every_tool_is_listed_with_a_closed_schema(tools: dict[str, dict[str, Any]]) -> None:
    assert {"look_around", "walk_to", "show_passport", "remember", "recall", "forget"} <= set(tools)
    for schema in tools.values():
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        jsonschema.Draft202012Validator.check_schema(schema)


@fuzz(150)
@given(data=st.data())
def test_arguments_from_the_schema_get_a_town_reply(
    visitor: RawSession, tools: dict[str, dict[str, Any]], tally: Tally, data: st.DataObject
) -> None:
    name = data.draw(st.sampled_from(sorted(tools)))
    arguments = data.draw(from_schema(tools[name]))
    ascii_only = data.draw(st.booleans())
    status, text, body = call(visitor, name, arguments, ascii_only)
    check_tool_reply(status, text, body, _unreadable(arguments), tally)
    # What the schema allows, the town takes: a reply with a footstep, never a protocol error.
    jsonschema.validate(arguments, ecma(tools[name]))
    assert status == 200 and "structuredContent" in sse_message(text)["result"], text[:300]


@fuzz(220)
@given(data=st.data())
def test_wrong_arguments_get_a_protocol_error_or_a_town_reply(
    visitor: RawSession, tools: dict[str, dict[str, Any]], tally: Tally, data: st.DataObject
) -> None:
    name, arguments = data.draw(wrong_arguments(tools))
    ascii_only = data.draw(st.booleans())
    status, text, body = call(visitor, name, arguments, ascii_only)
    check_tool_reply(status, text, body, _unreadable(arguments), tally)
    if status == 200 and name in tools and isinstance(arguments, dict) and depth_of(arguments) <= SHALLOW:
        result = sse_message(text).get("result")
        assert result is not None, text[:300]
        answered = "structuredContent" in result
        schema = tools[name]
        validator = jsonschema.Draft202012Validator(ecma(schema))
        # Inside the schema, a reply; but past a depth JSON Schema cannot state (a Foundry paper nests at
        # most 16 levels: districts/foundry/tools.py), a protocol error saying so.
        if validator.is_valid(arguments):
            deeper = not answered and "nests at most" in result["content"][0]["text"]
            assert answered or deeper, (arguments, text[:300])
        # Outside it, a protocol error, with three leniencies of the town: null for an optional field
        # may count as the field left out (pydantic's str | None does); \\w in a pattern is read as
        # Unicode, wider than JSON Schema's ASCII; and a value outside an enum the town checks itself
        # is its refusal, in the order 000 lists them ("Refusals: no sign-in; a category not in the
        # list; ..."): an error either way, never done.
        optional = set(schema["properties"]) - set(schema.get("required", []))
        given = {k: v for k, v in arguments.items() if v is not None or k not in optional}
        outside = [e.validator for e in validator.iter_errors(given) if e.validator != "pattern"]
        if outside and set(outside) == {"enum"}:
            assert not answered or result.get("isError") is True, (arguments, text[:300])
        elif outside:
            assert not answered, (arguments, text[:300])


# Every string field of every tool, once with each of these, so no seed can miss them.
SWEEP = [
    "\x00",
    "io.github.owner/name\x00",
    "\x01\x1b[31m\x7f",
    "\u202eevil\u202c",
    "a\u200bb\u2060c\ufeff",
    "\U000e0041\U000e0042",
    "ｉｏ．ｇｉｔｈｕｂ．ｏｗｎｅｒ／ｎａｍｅ",
    "\ud800",
    "'\"\\%s{}<>",
]


def _string_fields() -> list[tuple[str, str]]:
    """(tool, field) for every field of the registry's tools that takes a string (job_id aside:
    its pattern is fuzzed above)."""
    from clockford.face.server import input_schema
    from districts.registry import TOOLS

    out = []
    for name, tool in sorted(TOOLS.items()):
        for field_name, prop in sorted(input_schema(tool)["properties"].items()):
            if field_name != "job_id" and any(b.get("type") == "string" for b in prop.get("anyOf", [prop])):
                out.append((name, field_name))
    return out


def _sweep_cases() -> list[Any]:
    return [
        pytest.param(name, field_name, text, id=f"{name}.{field_name}-{i}")
        for name, field_name in _string_fields()
        for i, text in enumerate(SWEEP)
    ]


@pytest.mark.parametrize(("name", "field_name", "text"), _sweep_cases())
def test_every_string_field_takes_hostile_text(
    visitor: RawSession, tools: dict[str, dict[str, Any]], tally: Tally, name: str, field_name: str, text: str
) -> None:
    schema = tools[name]
    arguments = {**{k: "x" for k in schema.get("required", [])}, field_name: text}
    status, reply, body = call(visitor, name, arguments)
    check_tool_reply(status, reply, body, _unreadable(arguments), tally)


@pytest.mark.parametrize("extra", [-1, 0, 1])
def test_the_body_limit_is_exactly_128_kib(visitor: RawSession, tally: Tally, extra: int) -> None:
    _, _, bare = call(visitor, "walk_to", {"to": ""})
    status, text, body = call(visitor, "walk_to", {"to": "x" * (LIMIT + extra - len(bare))})
    assert len(body) == LIMIT + extra
    check_tool_reply(status, text, body, False, tally)
    assert status == (413 if extra > 0 else 200)


# --- raw JSON-RPC envelopes ----------------------------------------------------------------------

MISSING = object()
METHODS = [
    "tools/call",
    "tools/list",
    "ping",
    "initialize",
    "notifications/initialized",
    "notifications/cancelled",
    "resources/list",
    "prompts/get",
    "logging/setLevel",
    "completion/complete",
    "",
    "TOOLS/CALL",
    "rpc.discover",
]
good_ids = st.one_of(st.integers(-(2**53), 2**53), st.text(max_size=20))
good_params = st.one_of(
    st.fixed_dictionaries({"name": st.sampled_from(["look_around", "recall", "nope"]), "arguments": json_values}),
    st.dictionaries(nasty_text, json_values, max_size=3),
)


@st.composite
def envelopes(draw: st.DrawFn) -> dict[str, Any]:
    msg: dict[str, Any] = {}
    parts = {
        "jsonrpc": st.one_of(st.just("2.0"), st.sampled_from(["1.0", "2", "", "2.0 ", None, 2.0, 2])),
        "id": good_ids,
        "method": st.one_of(st.sampled_from(METHODS), nasty_text, st.integers(), st.none()),
        "params": st.one_of(good_params, json_values, deep),
        "result": json_values,
        "error": st.one_of(st.fixed_dictionaries({"code": st.integers(), "message": nasty_text}), json_values),
    }
    for key, strategy in parts.items():
        chance = {"jsonrpc": 0.9, "method": 0.8, "id": 0.7, "params": 0.6}.get(key, 0.1)
        if draw(st.floats(0, 1)) < chance:
            msg[key] = draw(strategy)
    return msg


def _malformed(msg: dict[str, Any]) -> bool:
    """Neither a request, nor a notification, nor anything a response could be."""
    if msg.get("jsonrpc", MISSING) != "2.0":
        return True
    if "method" in msg:
        return not isinstance(msg["method"], str) or ("params" in msg and not isinstance(msg["params"], dict))
    return not ({"id", "result", "error"} & set(msg))


def check_envelope_reply(status: int, text: str, msg: Any, unreadable: bool) -> str:
    never_broken(status, text)
    if unreadable and status == 400:
        return "unreadable"
    malformed = not isinstance(msg, dict) or _malformed(msg)
    if 400 <= status < 500:
        return "4xx"
    if status == 200:
        reply = sse_message(text)
        assert "result" in reply or "error" in reply, reply
        if "error" in reply:
            jsonrpc_error(text)
            return "jsonrpc-error"
        assert not malformed, (msg, reply)
        return "result"
    # 202: the town took a notification, or a response it never asked for (the town sends no
    # requests, so the SDK's reading of a stray response is not judged here). A malformed message
    # must never be taken that way, and a request (a method and an id) never goes unanswered.
    assert status == 202, (status, text[:200])
    assert not malformed, msg
    assert "id" not in msg or "method" not in msg, msg
    return "accepted"


@fuzz(150)
@given(msg=envelopes(), ascii_only=st.booleans())
def test_malformed_envelopes_get_a_4xx_or_a_jsonrpc_error(
    visitor: RawSession, tally: Tally, msg: dict[str, Any], ascii_only: bool
) -> None:
    status, _, text = request("POST", visitor.url, encode(msg, ascii_only), visitor.headers())
    kind = check_envelope_reply(status, text, msg, _unreadable(msg))
    if kind == "result" and msg.get("method") == "tools/call":
        # A well-formed tools/call may run: its footstep counts like any other.
        result = sse_message(text)["result"]
        if "structuredContent" in result:
            tally.footsteps.add(result["structuredContent"]["footstep"])
            tally.saw("envelope-call")
    tally.saw("envelope-" + kind)


RAW_BODIES = [
    b"",
    b" ",
    b"null",
    b"1",
    b'"tools/call"',
    b"[]",
    b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]',
    b"{",
    b'{"jsonrpc":"2.0","id":1,"method":"ping"',
    b'{"jsonrpc":"2.0","id":1,"method":"ping"}}',
    b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}',
    b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"walk_to","arguments":{"to":"\xff\xfe"}}}',
    b'\xef\xbb\xbf{"jsonrpc":"2.0","id":1,"method":"ping"}',
    b'{"jsonrpc":"2.0","id":1,"method":"ping","id":2}',
    b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"walk_to","arguments":{"to":"\\ud800"}}}',
    b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"walk_to","arguments":{"to":"\\u00"}}}',
    b"\x00\x00\x00{",
    b"\xff" * 64,
    b"{" * 100_000,
    b"[" * 10_000 + b"]" * 10_000,
]


@pytest.mark.parametrize("body", RAW_BODIES, ids=range(len(RAW_BODIES)))
def test_bodies_that_are_not_one_message_get_a_4xx_or_a_jsonrpc_error(visitor: RawSession, body: bytes) -> None:
    status, _, text = request("POST", visitor.url, body, visitor.headers())
    never_broken(status, text)
    if status == 200:
        reply = sse_message(text)
        assert "error" in reply or reply.get("result") == {}, reply  # only a well-formed ping gets a result
        if "error" in reply:
            jsonrpc_error(text)
    else:
        assert 400 <= status < 500, (status, text[:200])


# Requests the SDK alone would take for a notification or a response: an id that is not a string
# or an integer (NaN and Infinity are not JSON at all), or a method beside a result or an error.
# The SDK would answer 202 and nothing more (and run the one with a result, writing a footstep no
# reply names); the face refuses them with a JSON-RPC error. They go to the session-wide town, never
# to the fuzzed one, whose footsteps are counted.
SWALLOWED = [
    json.dumps({"jsonrpc": "2.0", "id": odd, "method": "tools/list"}).encode()
    for odd in [1.5, True, False, None, [1], {"a": 1}, 1e3]
]
SWALLOWED += [
    b'{"jsonrpc":"2.0","id":NaN,"method":"tools/list"}',
    b'{"jsonrpc":"2.0","id":Infinity,"method":"tools/list"}',
    b'{"jsonrpc":"2.0","id":1e999,"method":"tools/list"}',
    b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"look_around"},"result":{}}',
    b'{"jsonrpc":"2.0","id":1,"method":"tools/list","error":{"code":1,"message":"x"}}',
    # Not JSON-RPC 2.0 by its own word: the SDK answered these with its validator's whole report.
    b'{"id":1,"method":"tools/list"}',
    b'{"jsonrpc":"1.0","id":1,"method":"tools/list"}',
    b'{"jsonrpc":2,"id":1,"method":"tools/list"}',
    b'{"jsonrpc":"2.0","id":99,"error":"x"}',
]


@pytest.mark.parametrize("body", SWALLOWED, ids=range(len(SWALLOWED)))
def test_a_malformed_request_is_not_swallowed(session: RawSession, body: bytes) -> None:
    status, _, text = request("POST", session.url, body, session.headers())
    never_broken(status, text)
    if b"NaN" in body or b"Infinity" in body:
        assert (status, text) == (400, "Bad request.")
    else:
        assert status == 400
        assert json.loads(text) == {
            "jsonrpc": "2.0",
            "id": None,
            "error": {"code": -32600, "message": "Invalid Request"},
        }


# --- afterwards ----------------------------------------------------------------------------------


def test_afterwards_the_archive_verifies_and_holds_exactly_the_replies_footsteps(
    fuzz_town: Town, visitor: RawSession, tally: Tally
) -> None:
    look = visitor.call("look_around")  # the town still answers
    assert look["isError"] is False
    tally.footsteps.add(look["structuredContent"]["footstep"])
    time.sleep(1.2)  # footsteps settle for a second before a fold takes them
    verified = fuzz_town.manage("archive", "verify")
    numbers = fuzz_town.manage(
        "shell",
        "-c",
        "from clockford.town.models import Footstep; print(sorted(Footstep.objects.values_list('number', flat=True)))",
    )
    recorded = set(json.loads(numbers.stdout.strip().splitlines()[-1]))
    assert recorded == tally.footsteps
    assert re.search(rf"The Archive verifies: {len(recorded)} footsteps", verified.stdout), verified.stdout
    # The desk logs each fault with its traceback, up to the server's next access line; nothing
    # else may have raised.
    log = fuzz_town.log.read_text()
    assert log.count("fault in ") == tally.faults
    assert "Traceback" not in re.sub(r"fault in \w+\n(?:(?!\d+\.\d+\.\d+\.\d+:\d+ - - ).*\n)*", "", log)
    print("replies by class:", dict(sorted(tally.classes.items())), "footsteps:", len(recorded))
