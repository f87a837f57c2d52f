"""A 2026-07-28 client on the official Python SDK (`mcp` 2.x) or FastMCP, for
test/modern/strict-clients.int.test.ts: it connects to the MCP endpoint given as its first
argument, calls the tool named by its second (no arguments) with the client named by its third
(`mcp` or `fastmcp`), and prints one JSON line: the result's text, or the error it raised. Each
SDK's multi round-trip loop answers a roots ask from this client's roots and retries a state-only
result on its own."""

import asyncio
import json
import sys

ROOT = "file:///work/python"


async def with_mcp(url: str, tool: str) -> str:
    from mcp import types
    from mcp.client import Client

    async def list_roots(_context):
        return types.ListRootsResult(roots=[types.Root(uri=ROOT, name="python")])

    async with Client(url, list_roots_callback=list_roots) as client:
        result = await client.call_tool(tool, {})
    return "\n".join(block.text for block in result.content if getattr(block, "type", None) == "text")


async def with_fastmcp(url: str, tool: str) -> str:
    from fastmcp import Client

    async with Client(url, roots=[ROOT]) as client:
        result = await client.call_tool(tool, {})
    return "\n".join(block.text for block in result.content if getattr(block, "type", None) == "text")


async def main() -> None:
    url, tool, flavour = sys.argv[1:4]
    try:
        text = await (with_mcp if flavour == "mcp" else with_fastmcp)(url, tool)
        print(json.dumps({"text": text}))
    except BaseException as error:  # an ExceptionGroup from a task group included
        print(json.dumps({"error": f"{type(error).__name__}: {error}"}))


asyncio.run(main())
