"""Drives `brain mcp` with the official Python MCP SDK, then over a raw pipe.

Usage: python client.py BRAIN_BINARY STORE_ROOT
Prints one JSON document describing what it saw; any failed check raises.
"""

import asyncio
import json
import os
import subprocess
import sys

import jsonschema
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

BRAIN, ROOT = sys.argv[1], sys.argv[2]
ENV = {
    "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
    "HOME": os.path.join(ROOT, ".home"),
    "BRAIN_NOW": "2026-11-20T12:00:00Z",
    "BRAIN_ACTOR": "Dana Okafor <dana@tollbooth.example>",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_SYSTEM": "/dev/null",
    "NO_COLOR": "1",
}

CALLS = {
    "brain_context": {"task": "add a migration that creates an index on usage_events"},
    "brain_route": {"task": "add a migration", "budget": 800},
    "brain_capture": {
        "text": "We decided to keep all money amounts as integer cents in a bigint column, "
        "because floating point rounding broke invoice totals.",
        "task": "fix invoice rounding",
    },
}


def wire(model):
    """The message as it was on the wire (camelCase), whatever the SDK's naming."""
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def with_sdk():
    seen = {}
    params = StdioServerParameters(command=BRAIN, args=["mcp"], env=ENV, cwd=ROOT)
    async with stdio_client(params) as streams:
        read, write = streams[0], streams[1]
        async with ClientSession(read, write) as session:
            init = wire(await session.initialize())
            seen["protocolVersion"] = init["protocolVersion"]
            tools = [wire(t) for t in (await session.list_tools()).tools]
            seen["tools"] = [t["name"] for t in tools]
            schemas = {t["name"]: t["outputSchema"] for t in tools}
            seen["readOnly"] = {t["name"]: t["annotations"]["readOnlyHint"] for t in tools}
            for name, arguments in CALLS.items():
                result = wire(await session.call_tool(name, arguments))
                assert result.get("isError") is not True, (name, result)
                structured = result["structuredContent"]
                jsonschema.validate(structured, schemas[name])
                seen[name] = {
                    "text": result["content"][0]["text"],
                    "result": structured["result"],
                    "truncated": structured["truncated"],
                }
    return seen


def raw_pipe():
    """Unusable lines get JSON-RPC errors, the server keeps serving, EOF exits 0."""
    proc = subprocess.Popen(
        [BRAIN, "mcp"],
        cwd=ROOT,
        env=ENV,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )

    def send(line):
        proc.stdin.write(line)
        proc.stdin.flush()

    def receive():
        line = proc.stdout.readline()
        assert line.endswith(b"\n"), line
        return json.loads(line)

    send(
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": {"name": "raw", "version": "1"},
                },
            }
        ).encode()
        + b"\n"
    )
    assert receive()["result"]["protocolVersion"] == "2025-11-25"
    send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    answers = {}
    lines = {
        "garbage": b"}}}garbage{{{\n",
        "invalid_utf8": b'{"jsonrpc":"2.0","id":5,"method":"ping\xc3\x28"}\n',
        "oversized": b'{"pad":"' + b"x" * (5 * 1024 * 1024) + b'"}\n',
    }
    for i, (kind, line) in enumerate(lines.items(), start=1):
        send(line)
        error = receive()
        assert error["id"] is None and "error" in error, (kind, error)
        send(json.dumps({"jsonrpc": "2.0", "id": 100 + i, "method": "ping"}).encode() + b"\n")
        pong = receive()
        assert pong == {"jsonrpc": "2.0", "id": 100 + i, "result": {}}, (kind, pong)
        answers[kind] = error["error"]["code"]
    proc.stdin.close()
    rest = proc.stdout.read()
    code = proc.wait(timeout=60)
    assert rest == b"", rest
    return {"errors": answers, "exit": code}


def main():
    seen = asyncio.run(with_sdk())
    seen["raw"] = raw_pipe()
    print(json.dumps(seen))


main()
