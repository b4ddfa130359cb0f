"""A raw client of the fake Discord's gateway websocket, for its own tests."""

from __future__ import annotations

import json
from typing import Any

import aiohttp


async def receive(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    msg = await ws.receive(timeout=5)
    assert msg.type == aiohttp.WSMsgType.TEXT, msg
    payload: dict[str, Any] = json.loads(msg.data)
    return payload


async def identify(
    ws: aiohttp.ClientWebSocketResponse, token: str, intents: int = 1
) -> dict[str, Any]:
    await ws.send_json({"op": 2, "d": {"token": token, "intents": intents, "properties": {}}})
    return await receive(ws)
