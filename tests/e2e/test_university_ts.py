"""Courses and the orientation as resources and the prompts with the TypeScript SDK client
(@modelcontextprotocol/client, the one errand.ts uses, on node 22 from npm): resources/list,
resources/read of a course counting as attendance in courses.yours, resources/read of the orientation,
and prompts/list."""

import json
import subprocess

import pytest

from tests.e2e.test_examples import NODE_DIR, node22
from tests.support import Town, have_shared

SCRIPT = """
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
const client = new Client({ name: 'university-ts-test', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(process.argv[2])));
const caps = client.getServerCapabilities();
const listed = await client.listResources();
const read = await client.readResource({ uri: 'clockford://university/ten-habits' });
const orientation = await client.readResource({ uri: 'clockford://embassies/orientation' });
const prompts = await client.listPrompts();
const courses = await client.callTool({ name: 'courses', arguments: {} });
console.log(JSON.stringify({
  resources: !!caps.resources, prompts: !!caps.prompts,
  uris: listed.resources.map((r) => r.uri),
  text: read.contents[0].text, meta: read.contents[0]._meta,
  orientation: orientation.contents[0].text, orientationMeta: orientation.contents[0]._meta,
  promptNames: prompts.prompts.map((p) => p.name),
  yours: courses.structuredContent.yours,
}));
await client.close();
"""


def test_the_typescript_client_lists_and_reads_courses(town: Town) -> None:
    if not have_shared():
        pytest.skip("../shared/spec/examples is not beside the repository")
    node, _ = node22()
    script = NODE_DIR / "university.mjs"
    script.write_text(SCRIPT)
    run = subprocess.run([node, str(script), town.mcp], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout.strip().splitlines()[-1])
    assert got["resources"] is True and got["prompts"] is True
    assert "clockford://university/ten-habits" in got["uris"] and len(got["uris"]) >= 8
    assert got["text"].startswith("# Ten habits")
    # The town's orientation is a resource too, read through the desk as a call of embassy.
    assert "clockford://embassies/orientation" in got["uris"]
    assert got["orientation"].startswith("# Welcome to ") and "\n## House rules\n" in got["orientation"]
    assert got["orientationMeta"]["town.clockford/footstep"] > got["meta"]["town.clockford/footstep"]
    slip = got["meta"]["town.clockford/slip"]
    assert slip["statement"]["kind"] == "clockford-attendance-1"
    assert got["yours"] == [
        {
            "course": "ten-habits",
            "version": 1,
            "day": slip["statement"]["day"],
            "footstep": slip["statement"]["footstep"],
        }
    ]
    assert set(got["promptNames"]) == {"look-around", "find-a-server", "hand-work-to-another-agent"}
