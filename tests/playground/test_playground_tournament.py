"""The playground runs a tournament: typed commands and pressed buttons, to its result."""

from __future__ import annotations

from typing import Any

from tests.playground.served import Served


def tournament_board(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
    for message in messages:
        embeds = message.get("embeds") or []
        if embeds and str(embeds[0].get("title", "")).startswith("Tournament"):
            return message
    return None


async def test_a_tournament_is_played_to_its_end_in_the_playground(served: Served) -> None:
    alice, bob, channel = served.ids()
    croupier = str(served.playground.players()[2].id)
    fake = served.playground.fake
    created = await served.command(croupier, channel, "/tournament create hands:1 eliminations:")
    assert created["ok"], created
    for player in (alice, bob):
        assert (await served.command(player, channel, "/tournament join"))["ok"]
    assert (await served.command(croupier, channel, "/tournament start"))["ok"]
    for player in (alice, bob):
        assert (await served.command(player, channel, "/tournament bet amount:10"))["ok"]
    chan = served.playground.channel(int(channel))

    def over() -> bool:
        return any(m.content.startswith("Tournament #1 is over.") for m in fake.messages_in(chan))

    def stand_buttons() -> list[str]:
        board = next(
            (m for m in fake.messages_in(chan) if m.embed and "Tournament" in m.embed["title"]),
            None,
        )
        if board is None:
            return []
        return [b["custom_id"] for b in board.buttons() if b["label"] == "Stand"]

    await fake.wait_for(lambda: over() or bool(stand_buttons()))
    for player in (alice, bob):
        board = tournament_board(
            await served.get(f"/api/messages?channel={channel}&viewer={player}")
        )
        if board is not None and stand_buttons():
            await served.post(
                "/api/press",
                {"viewer": player, "message": board["id"], "custom_id": stand_buttons()[0]},
            )
    await fake.wait_for(over, max_wait=10)
