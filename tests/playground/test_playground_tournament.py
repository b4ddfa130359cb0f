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


async def test_the_bet_form_refuses_what_the_client_would_not_send_and_stays_open(
    served: Served,
) -> None:
    alice, bob, channel = served.ids()
    croupier = str(served.playground.players()[2].id)
    assert (await served.command(croupier, channel, "/tournament create hands:1"))["ok"]
    for player in (alice, bob):
        assert (await served.command(player, channel, "/tournament join"))["ok"]
    assert (await served.command(croupier, channel, "/tournament start"))["ok"]
    board = tournament_board(await served.get(f"/api/messages?channel={channel}&viewer={alice}"))
    assert board is not None
    bet = next(
        b["custom_id"]
        for row in board["components"]
        for b in row["components"]
        if b.get("label") == "Bet"
    )
    _, opened = await served.post(
        "/api/press", {"viewer": alice, "message": board["id"], "custom_id": bet}
    )
    form = opened["modal"]
    assert form["title"] == "Your sealed bet"
    chips = form["components"][0]["components"][0]["custom_id"]
    sent = {"viewer": alice, "interaction": form["interaction"]}
    too_long = "1" * 33  # the form's amount is as long as /bet's (32 characters)
    _, refused = await served.post("/api/modal", {**sent, "values": {chips: too_long}})
    assert refused["refused"] == "Chips takes 0 to 32 characters"
    _, taken = await served.post("/api/modal", {**sent, "viewer": bob, "values": {chips: "10"}})
    assert taken["refused"] == "That form is closed."  # Alice's form, not Bob's
    _, sealed = await served.post("/api/modal", {**sent, "values": {chips: "10"}})
    assert sealed["ok"], sealed
    _, again = await served.post("/api/modal", {**sent, "values": {chips: "10"}})
    assert again["refused"] == "That form is closed."
    shown = await served.get(f"/api/messages?channel={channel}&viewer={alice}")
    assert any(m["content"] == "Your bet of 10 chips is sealed." for m in shown)
