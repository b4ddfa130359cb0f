"""The playground has its own UnbelievaBoat: the Croupier connects the server to it with the
token the playground names, and players cash in, play and cash out against it."""

from __future__ import annotations

from pathlib import Path

from playground.running import (
    CROUPIER,
    UNBELIEVABOAT_CASH,
    UNBELIEVABOAT_TOKEN,
    Playground,
)


async def said(playground: Playground, start: str) -> None:
    """Return once the bot has said something starting with ``start`` (its answer follows
    a deferral)."""
    messages = playground.fake.messages
    await playground.fake.wait_for(
        lambda: any((m.content or "").startswith(start) for m in messages.values())
    )


async def test_the_croupier_connects_the_playground_to_its_unbelievaboat(tmp_path: Path) -> None:
    playground = Playground(f"sqlite:///{tmp_path / 'playground.sqlite3'}")
    await playground.start()
    try:
        [croupier] = [m for m in playground.players() if m.user.username == CROUPIER]
        alice = next(m for m in playground.players() if m is not croupier)
        channel = playground.channels()[0]
        opened = await playground.run_command(croupier, channel, "blackjack-admin economy connect")
        assert opened.modal is not None
        submitted = await playground.submit(
            croupier,
            int(opened.modal["interaction"]),
            {"UnbelievaBoat API token": UNBELIEVABOAT_TOKEN},
        )
        assert submitted.failed is None
        await said(playground, "Connected to UnbelievaBoat.")
        guild = playground.guild.id
        assert playground.bot is not None
        assert await playground.bot.store.bridge.bridge(guild) is not None
        cashed = await playground.run_command(alice, channel, "blackjack cash-in amount:300")
        assert cashed.failed is None
        assert cashed.refused is None
        await said(playground, "You bought 300 chips with 300 cash.")
        assert playground.unbelievaboat.cash(guild, alice.id) == UNBELIEVABOAT_CASH - 300
        assert await playground.bot.store.balance(guild, alice.id) == 300
    finally:
        await playground.stop()
