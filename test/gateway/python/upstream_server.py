"""An upstream MCP server for the gateway's tests, on the official Python SDK (`mcp` 2.x).

Its tools are written the two ways the SDK's own users write a 2026-07-28 multi-round tool:
`confirm_order` returns an `InputRequiredResult` itself and reads `ctx.input_responses` and
`ctx.request_state` on the repeated call; `book_table`, `summarize` and `workspace` declare what
they need as `Resolve(...)` parameters (a form elicitation, a sampling request, the client's roots)
and the SDK asks for them. The SDK seals its own `requestState`, bound to the call's tool and
arguments, so a gateway that changed either byte would be refused.

Served over Streamable HTTP on a loopback port of its own choosing: the first stdout line is
`{"listening": <port>}`, and each `tools/call` it is sent follows as `{"call": <params>}` (with the
request's `authorization` header), for the tests to read.
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys
from typing import Annotated

import uvicorn
from mcp.server.mcpserver import Context, Elicit, ListRoots, MCPServer, Resolve, Sample
from mcp_types import (
    CreateMessageResult,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequiredResult,
    ListRootsResult,
    SamplingMessage,
    TextContent,
)
from pydantic import BaseModel

server = MCPServer("warehouse", log_level="WARNING")


@server.tool(description="Adds two numbers.")
def add(a: int, b: int) -> str:
    return str(a + b)


@server.tool(description="Places an order once the user confirms it.")
def confirm_order(order: str, ctx: Context) -> str | InputRequiredResult:
    answer = (ctx.input_responses or {}).get("confirm")
    if answer is None:
        return InputRequiredResult(
            input_requests={
                "confirm": ElicitRequest(
                    params=ElicitRequestFormParams(
                        message=f"Place order {order}?",
                        requested_schema={
                            "type": "object",
                            "properties": {"name": {"type": "string"}},
                            "required": ["name"],
                        },
                    )
                )
            },
            request_state=f"order:{order}",
        )
    if isinstance(answer, ElicitResult) and answer.action == "accept" and answer.content:
        return f"placed {order} for {answer.content.get('name')} ({ctx.request_state})"
    return "declined"


class Booking(BaseModel):
    name: str
    time: str


def ask_booking(guests: int) -> Elicit[Booking]:
    return Elicit(f"Book a table for {guests}: whose name, and when?", Booking)


@server.tool(description="Books a table, asking whose name and when.")
def book_table(guests: int, booking: Annotated[Booking, Resolve(ask_booking)]) -> str:
    return f"table for {guests} at {booking.time}, name {booking.name}"


def ask_summary(text: str) -> Sample:
    return Sample(
        [SamplingMessage(role="user", content=TextContent(type="text", text=f"Summarize: {text}"))],
        max_tokens=50,
    )


@server.tool(description="Summarizes a text with the client's model.")
def summarize(text: str, reply: Annotated[CreateMessageResult, Resolve(ask_summary)]) -> str:
    content = reply.content
    said = content.text if isinstance(content, TextContent) else "?"
    return f"summary by {reply.model}: {said}"


def ask_roots() -> ListRoots:
    return ListRoots()


@server.tool(description="Names the client's roots.")
def workspace(roots: Annotated[ListRootsResult, Resolve(ask_roots)]) -> str:
    return "roots: " + ", ".join(str(root.uri) for root in roots.roots)


def recording(app):
    """The app, printing each `tools/call` it is sent before the SDK reads it."""

    async def asgi(scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST":
            return await app(scope, receive, send)
        chunks = []
        more = True
        while more:
            message = await receive()
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        body = b"".join(chunks)
        try:
            sent = json.loads(body)
        except ValueError:
            sent = None
        if isinstance(sent, dict) and sent.get("method") == "tools/call":
            call = dict(sent.get("params") or {})
            headers = dict(scope["headers"])
            if b"authorization" in headers:
                call["authorization"] = headers[b"authorization"].decode()
            print(json.dumps({"call": call}), flush=True)
        replayed = False

        async def replay():
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        return await app(scope, replay, send)

    return asgi


async def main() -> None:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    # Listening before the port is printed: a connection made at once waits in the backlog.
    listener.listen(128)
    config = uvicorn.Config(recording(server.streamable_http_app()), log_level="warning")
    http = uvicorn.Server(config)
    print(json.dumps({"listening": listener.getsockname()[1]}), flush=True)
    await http.serve(sockets=[listener])


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
