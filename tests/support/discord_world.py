"""The people and places of the end-to-end tests, and what they do through the fake Discord."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import db
from bot.app import BlackjackBot
from bot.tables import TableSnapshot
from cogs.table.commands import table_cog
from fakediscord import FakeDiscord
from fakediscord.clock import ManualClock, settle
from fakediscord.interactions import FakeInteraction
from fakediscord.models import FakeChannel, FakeGuild, FakeMember
from fakediscord.records import FakeMessage


async def quiet(clock: ManualClock, max_wait: float = 5.0) -> None:
    """Return once every table timer is asleep on the clock or finished.

    A woken timer works through the database (a thread for SQLite), so it needs
    more than a few turns of the loop. Wait, event-driven, until a busy timer
    finishes or goes back to sleep, instead of guessing a number of turns (and
    without spinning, which would starve the database thread of the GIL).
    """
    loop = asyncio.get_running_loop()
    give_up = loop.time() + max_wait
    while True:
        timers = [
            t for t in asyncio.all_tasks() if t.get_name().startswith("table ") and not t.done()
        ]
        sleeping = clock.sleepers
        if len(timers) <= sleeping:
            await settle()
            return
        remaining = give_up - loop.time()
        if remaining <= 0:
            raise AssertionError(f"table timers still busy after {max_wait}s: {timers}")
        one_finished = asyncio.ensure_future(
            asyncio.wait(timers, return_when=asyncio.FIRST_COMPLETED)
        )
        one_asleep = asyncio.ensure_future(clock.wait_for_sleepers(sleeping + 1, remaining))
        try:
            await asyncio.wait(
                {one_finished, one_asleep}, timeout=remaining, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            for waiter in (one_finished, one_asleep):
                waiter.cancel()
            await asyncio.gather(one_finished, one_asleep, return_exceptions=True)


@dataclass
class World:
    """One server: two table channels, three players, an admin (Manage Server) and a moderator."""

    fake: FakeDiscord
    guild: FakeGuild
    channel: FakeChannel
    other_channel: FakeChannel
    alice: FakeMember
    bob: FakeMember
    carol: FakeMember
    admin: FakeMember
    mod: FakeMember
    bot: BlackjackBot | None = None
    transcript: list[str] = field(default_factory=list)

    @classmethod
    def build(cls, fake: FakeDiscord) -> World:
        """Create the server on the fake."""
        guild = fake.add_guild("Casino")
        return cls(
            fake=fake,
            guild=guild,
            channel=fake.add_text_channel(guild, "blackjack"),
            other_channel=fake.add_text_channel(guild, "high-rollers"),
            alice=fake.add_member(guild, "alice"),
            bob=fake.add_member(guild, "bob"),
            carol=fake.add_member(guild, "carol"),
            admin=fake.add_member(guild, "croupier", permissions=["manage_guild"]),
            mod=fake.add_member(guild, "moderator", permissions=["manage_channels"]),
        )

    @classmethod
    def speaking(cls, fake: FakeDiscord, server: str, alice: str, bob: str) -> World:
        """The server with its preferred locale, and Alice's and Bob's clients' locales."""
        world = cls.build(fake)
        world.guild.preferred_locale = server
        world.alice.user.locale = alice
        world.bob.user.locale = bob
        return world

    @property
    def running(self) -> BlackjackBot:
        assert self.bot is not None, "the test needs the bot fixture"
        return self.bot

    @property
    def store(self) -> db.Store:
        return self.running.store

    # -- acting ------------------------------------------------------------------------------

    async def start(
        self, member: FakeMember, channel: FakeChannel | None = None, **options: Any
    ) -> FakeMessage:
        """``/blackjack start``: the table message it posted."""
        reply = await self.fake.slash(member, "blackjack start", channel or self.channel, **options)
        assert reply.response_type == 4, reply.errors
        assert not reply.ephemeral, reply.content
        assert reply.original is not None
        await self.settle()
        return reply.original

    async def slash(
        self,
        member: FakeMember,
        command: str,
        channel: FakeChannel | None = None,
        /,
        **options: Any,
    ) -> FakeInteraction:
        """Any slash command; returns once the bot answered and the table message is current."""
        reply = await self.fake.slash(member, command, channel or self.channel, **options)
        if reply.deferred:
            # The first followup after "thinking" replaces the loading message.
            await reply.wait_until_loaded(max_wait=30)
        await self.settle()
        return reply

    async def say(
        self,
        member: FakeMember,
        command: str,
        channel: FakeChannel | None = None,
        /,
        **options: Any,
    ) -> str:
        """A slash command whose answer is an ephemeral text: that text."""
        reply = await self.slash(member, command, channel, **options)
        message = reply.original
        assert message is not None
        assert message.ephemeral, f"{command} answered publicly: {message.content!r}"
        return message.content

    async def bet(
        self, member: FakeMember, amount: str, hands: int = 1, channel: FakeChannel | None = None
    ) -> str:
        """``/bet``: the ephemeral answer."""
        return await self.say(member, "bet", channel, amount=amount, hands=hands)

    async def click(self, member: FakeMember, message: FakeMessage, label: str) -> FakeInteraction:
        """Press a button; returns once answered and every resulting edit is done."""
        reply = await self.fake.click(member, message, label=label)
        await self.settle()
        if reply.response_type == 7 and message.embed is not None:
            who = member.user.global_name or member.user.username
            self.transcript.append(f"{who} pressed {label}:\n{embed_text(message)}")
        return reply

    async def refused(self, member: FakeMember, message: FakeMessage, label: str) -> str:
        """Press a button that must be refused: the ephemeral reason (the table is unchanged)."""
        before = (message.embeds, message.components, message.edits)
        reply = await self.click(member, message, label)
        assert reply.response_type == 4, f"{label} by {member.user.username} was not refused"
        assert reply.ephemeral
        assert (message.embeds, message.components, message.edits) == before
        assert reply.content is not None
        return reply.content

    async def settle(self) -> None:
        """Wait until the table timers are asleep and every table message edit is done."""
        for _ in range(3):
            await quiet(self.fake.clock)
            await table_cog(self.running).messages.idle()
            await asyncio.sleep(0)

    async def tick(self, seconds: float) -> None:
        """Move the clock forward, each timer's work (and its message edit) done in turn."""
        clock = self.fake.clock
        target = clock.now() + seconds
        await self.settle()
        while (due := clock.next_wakeup()) is not None and due <= target:
            clock.advance(max(0.0, due - clock.now()))
            await self.settle()
        clock.advance(target - clock.now())
        await self.settle()

    # -- looking -----------------------------------------------------------------------------

    def table(self, channel: FakeChannel | None = None) -> TableSnapshot:
        """The service's current snapshot of the channel's table."""
        snapshot = self.running.tables.table_in((channel or self.channel).id)
        assert snapshot is not None
        return snapshot

    async def balance(self, member: FakeMember) -> int:
        return await self.store.balance(self.guild.id, member.id)

    async def chips(self) -> dict[int, tuple[int, int]]:
        """Every player's (balance, ledger rows): equal before and after = no chip moved."""
        result = {}
        for member in (self.alice, self.bob, self.carol, self.admin, self.mod):
            balance = await self.balance(member)  # opens the account first, if new
            rows = await self.store.reports.ledger(self.guild.id, member.id, 1000)
            result[member.id] = (balance, len(rows))
        return result

    async def ledger(self, member: FakeMember) -> list[tuple[str, int]]:
        """(kind, delta) rows, oldest first."""
        rows = await self.store.reports.ledger(self.guild.id, member.id, 1000)
        return [(row.kind, row.delta) for row in reversed(rows)]


def shown_net(text: str, player: str) -> str:
    """The balance change the table's Last round shows for ``player`` (its line
    ``player: ... · balance change +70``), or "" when it shows no line of theirs."""
    for line in text.split("\n"):
        head, _, net = line.rpartition(" · balance change ")
        if head.startswith(f"{player}: ") and net:
            return net
    return ""


async def round_details(world: World, member: FakeMember, table: FakeMessage) -> str:
    """The Round details button's private answer to ``member``: the account's lines."""
    answer = await world.click(member, table, "Round details")
    assert answer.response_type == 4
    assert answer.ephemeral
    return str((answer.embed or {}).get("description", ""))


def embed_text(message: FakeMessage) -> str:
    """The table embed as plain text, the way a reader sees it top to bottom."""
    embed = message.embed
    if message.components_v2:  # the text displays, as the embed would read
        lines = [message.text_displays()]
    elif embed is None:
        return message.content
    else:
        lines = [f"# {embed.get('title', '')}"]
        if embed.get("description"):
            lines.append(embed["description"])
        for fld in embed.get("fields", []):
            lines.append(f"## {fld['name']}")
            lines.append(fld["value"])
        if embed.get("footer"):
            lines.append(f"-- {embed['footer']['text']}")
    buttons = [
        f"[{b['label']}]" if not b.get("disabled") else f"({b['label']})" for b in message.buttons()
    ]
    if buttons:
        lines.append(" ".join(buttons))
    return "\n".join(lines)


def labels_enabled(message: FakeMessage) -> set[str]:
    """Labels of the buttons a player can press."""
    return {b["label"] for b in message.buttons() if not b.get("disabled")}
