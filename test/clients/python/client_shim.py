"""One Python MCP client (the `mcp` SDK's Client, FastMCP's, or LangChain's MultiServerMCPClient)
held open for a test, driven over stdin/stdout one JSON line at a time, so the TypeScript test runs
the same scenarios through it as through the TypeScript clients (test/clients/python-client.ts).

    python3 client_shim.py --client mcp|fastmcp|langchain --mode auto|legacy --url URL --max-rounds N

LangChain's adapters pin the 1.x `mcp` SDK, so that client runs from an interpreter whose path has
its own install (.ci/run); it has no mode or round limit, and ignores both.

It prints {"ready": true} once connected, or {"unavailable": "..."} when its module cannot be
imported. Then each line {"id": n, "op": "call", "name": ..., "arguments": {...}} is answered
with {"id": n, "observation": {...}}: what the call returned (a result: its text, isError, and the
pending handle from its _meta), or what it raised (the exception's class, its code, its message);
{"op": "list"} answers the tool names. Ops run concurrently. The peers are the ones every client
under test has: a form is accepted with {"name": "Ada"} unless its message starts with "[decline]",
sampling answers "A small change.", and the one root is file:///src/checkout.
"""

import argparse
import asyncio
import json
import sys

PENDING = "io.durable-mcp/pending"
NAME = {"name": "Ada"}
SAMPLED = "A small change."
ROOT = "file:///src/checkout"


def emit(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def failure(error):
    code = getattr(error, "code", None)
    error_data = getattr(error, "error", None)
    if code is None and error_data is not None:
        code = getattr(error_data, "code", None)
    return {
        "kind": "error",
        "name": type(error).__name__,
        "code": code if isinstance(code, (int, str)) else None,
        "message": str(error)[:500],
    }


def result_of(content, is_error, meta):
    text = " ".join(getattr(block, "text", "") for block in content or [])
    pending = (meta or {}).get(PENDING) if isinstance(meta, dict) else None
    observation = {"kind": "result", "text": text, "isError": bool(is_error)}
    if isinstance(pending, dict) and isinstance(pending.get("handle"), str):
        observation["pendingHandle"] = pending["handle"]
    return observation


def sdk_peers(types, stop_reason_field):
    """The peers as the `mcp` SDK's callbacks take them, built from its types module (`mcp_types` in
    2.x, `mcp.types` in 1.x, which spells the sampling result's stop reason in camel case)."""

    async def elicit(_context, params):
        if params.message.startswith("[decline]"):
            return types.ElicitResult(action="decline")
        return types.ElicitResult(action="accept", content=NAME)

    async def sample(_context, _params):
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text=SAMPLED),
            model="test-model",
            **{stop_reason_field: "endTurn"},
        )

    async def roots(_context):
        return types.ListRootsResult(roots=[types.Root(uri=ROOT, name="checkout")])

    return elicit, sample, roots


def mcp_client(url, mode, max_rounds):
    import mcp_types as types
    from mcp import Client

    elicit, sample, roots = sdk_peers(types, "stop_reason")

    client = Client(
        url,
        mode=mode,
        elicitation_callback=elicit,
        sampling_callback=sample,
        list_roots_callback=roots,
        input_required_max_rounds=max_rounds,
    )

    async def call(name, arguments):
        result = await client.call_tool(name, arguments)
        return result_of(result.content, result.is_error, result.meta)

    async def list_tools():
        return [tool.name for tool in (await client.list_tools()).tools]

    return client, call, list_tools


def fastmcp_client(url, mode, max_rounds):
    from fastmcp import Client
    from fastmcp.client.elicitation import ElicitResult

    async def elicit(message, _response_type, _params, _context):
        if message.startswith("[decline]"):
            return ElicitResult(action="decline")
        return NAME

    async def sample(_messages, _params, _context):
        return SAMPLED

    client = Client(
        url,
        mode=mode,
        elicitation_handler=elicit,
        sampling_handler=sample,
        roots=[ROOT],
        input_required_max_rounds=max_rounds,
    )

    async def call(name, arguments):
        result = await client.call_tool(name, arguments)
        return result_of(result.content, result.is_error, result.meta)

    async def list_tools():
        return [tool.name for tool in await client.list_tools()]

    return client, call, list_tools


def langchain_client(url, _mode, _max_rounds):
    """LangChain's tools, each called as an agent's tool node calls it: with a tool call, answered by
    a ToolMessage (status "error" for an isError result: the adapters' handle_tool_errors default).
    Its input hooks: `on_elicitation`, and sampling and roots through `session_kwargs`, which the
    adapters hand to the SDK's ClientSession. It opens a session for each call (its default)."""
    import contextlib
    import uuid

    import mcp.types as types
    from langchain_mcp_adapters.callbacks import Callbacks
    from langchain_mcp_adapters.client import MultiServerMCPClient

    elicit, sample, roots = sdk_peers(types, "stopReason")

    async def on_elicitation(mcp_context, params, _context):
        return await elicit(mcp_context, params)

    client = MultiServerMCPClient(
        {
            "service": {
                "url": url,
                "transport": "streamable_http",
                "session_kwargs": {"sampling_callback": sample, "list_roots_callback": roots},
            }
        },
        callbacks=Callbacks(on_elicitation=on_elicitation),
    )
    tools = {}

    async def call(name, arguments):
        if not tools:
            tools.update({tool.name: tool for tool in await client.get_tools()})
        message = await tools[name].ainvoke(
            {"type": "tool_call", "id": str(uuid.uuid4()), "name": name, "args": arguments}
        )
        content = message.content
        text = content if isinstance(content, str) else " ".join(
            block.get("text", "") if isinstance(block, dict) else str(block) for block in content
        )
        return {"kind": "result", "text": text, "isError": message.status == "error"}

    async def list_tools():
        return [tool.name for tool in await client.get_tools()]

    # It holds no connection between calls, so there is nothing to open or close.
    return contextlib.nullcontext(), call, list_tools


BUILDERS = {"mcp": mcp_client, "fastmcp": fastmcp_client, "langchain": langchain_client}


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--client", choices=list(BUILDERS), required=True)
    parser.add_argument("--mode", default="auto")
    parser.add_argument("--url", required=True)
    parser.add_argument("--max-rounds", type=int, default=10)
    args = parser.parse_args()
    try:
        client, call, list_tools = BUILDERS[args.client](args.url, args.mode, args.max_rounds)
    except ImportError as error:
        emit({"unavailable": f"{type(error).__name__}: {error}"})
        return

    async with client:
        emit({"ready": True})
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        tasks = set()

        async def run(request):
            try:
                if request["op"] == "list":
                    emit({"id": request["id"], "tools": await list_tools()})
                else:
                    observation = await call(request["name"], request.get("arguments") or {})
                    emit({"id": request["id"], "observation": observation})
            except Exception as error:  # what the client raised is the observation
                emit({"id": request["id"], "observation": failure(error)})

        while line := await reader.readline():
            request = json.loads(line)
            if request["op"] == "close":
                break
            task = asyncio.ensure_future(run(request))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        for task in tasks:
            task.cancel()


asyncio.run(main())
