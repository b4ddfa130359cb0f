"""The playground's world: the local Discord, the real bot connected to it, a database.

The fake Discord runs on the real clock, so Discord's 3 s answer window and its
timestamps are real; the bot is :func:`bot.app.build_bot`'s, started with the
fake's endpoints applied through :mod:`bot.endpoints` exactly as ``python -m bot``
applies ``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL``. Players act through the
fake as a Discord client would: :meth:`Playground.run_command` and
:meth:`Playground.press`.
"""

from __future__ import annotations

import contextlib
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from bot.app import BlackjackBot, build_bot
from bot.clock import SystemClock
from bot.config import Config
from bot.engine import KNOWN_PAY_TABLES
from bot.i18n import LANGUAGES
from bot.tables import ShoeFactory
from fakediscord import FakeDiscord, FakeInteraction, InteractionRejected, NoResponse
from fakediscord.harness import running_bot
from fakediscord.models import FakeChannel, FakeGuild, FakeMember
from fakediscord.records import FakeMessage
from fakeunb import FakeUnbelievaBoat
from playground import saved_world
from playground.command_line import CommandEntry, CommandLineError, catalogue, parse_line

#: What the Discord client shows when an application never answers.
COMMAND_FAILED: Final = "The application did not respond"
CLICK_FAILED: Final = "This interaction failed"
#: Real seconds to wait for the bot's first answer (Discord gives it 3).
ANSWER_WAIT_S: Final = 3.5
DEFAULT_PLAYERS: Final = ("Alice", "Bob")
#: The playground server's side bets: each bet's first known pay table.
PLAYGROUND_SIDE_BETS: Final = {
    "side_bets": {bet: tables[0] for bet, tables in KNOWN_PAY_TABLES.items()},
}
#: A member with Manage Server, for /blackjack-admin (hidden from the others, as on Discord).
CROUPIER: Final = "croupier"
DEFAULT_CHANNELS: Final = ("blackjack", "high-rollers")
#: The token the playground's fake UnbelievaBoat accepts for its server: the Croupier types it
#: into ``/blackjack-admin economy connect`` to bridge the server to it.
UNBELIEVABOAT_TOKEN: Final = "playground-unbelievaboat-token"
#: The UnbelievaBoat cash each member has there at first.
UNBELIEVABOAT_CASH: Final = 5_000


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the page shows after an action: nothing more (the bot answered), or an error.

    ``refused`` is the client's own refusal (nothing was sent); ``failed`` is
    Discord's line for an interaction the bot did not answer; ``modal`` the form it
    answered with instead of a message.
    """

    refused: str | None = None
    failed: str | None = None
    #: The form the bot answered with (Discord's modal object and the interaction's id, which
    #: its submit names); the page draws it over the channel.
    modal: dict[str, Any] | None = None

    def as_json(self) -> dict[str, Any]:
        """For the page."""
        ok = self.refused is None and self.failed is None
        shown = {"ok": ok, "refused": self.refused, "failed": self.failed}
        return shown if self.modal is None else {**shown, "modal": self.modal}


class Playground:
    """One server ("Playground") with channels and players, and the bot dealing in it."""

    def __init__(
        self,
        database_url: str,
        *,
        shoe_factory: ShoeFactory | None = None,
        players: Sequence[str] = DEFAULT_PLAYERS,
        channels: Sequence[str] = DEFAULT_CHANNELS,
        world_file: Path | None = None,
    ) -> None:
        self.database_url = database_url
        #: Where the server's ids are kept between runs (beside a ``--db`` file), if anywhere.
        self.world_file = world_file
        self.fake = FakeDiscord(clock=SystemClock())
        #: The playground's UnbelievaBoat (in memory: its cash starts afresh every run).
        self.unbelievaboat = FakeUnbelievaBoat(starting_cash=UNBELIEVABOAT_CASH)
        self._shoe_factory = shoe_factory
        self._first_players = tuple(players)
        self._first_channels = tuple(channels)
        self._stack = contextlib.AsyncExitStack()
        self._guild: FakeGuild | None = None
        self._croupier: FakeMember | None = None
        self.bot: BlackjackBot | None = None
        #: Modals on screen, by the id of the interaction they answered, with who sees each.
        self._modals: dict[int, tuple[int, FakeInteraction]] = {}

    async def start(self) -> None:
        """Start the fake, build the server, connect the bot (it migrates and syncs first)."""
        await self._stack.enter_async_context(self.fake)
        saved = saved_world.load(self.world_file) if self.world_file else None
        self._build_server(saved)
        await self._stack.enter_async_context(self.unbelievaboat)
        self.unbelievaboat.authorize(UNBELIEVABOAT_TOKEN, self.guild.id)
        config = Config(
            token=self.fake.token,
            database_url=self.database_url,
            card_pictures=True,
            unbelievaboat_api_url=self.unbelievaboat.url,
        )
        bot = build_bot(config, clock=SystemClock(), shoe_factory=self._shoe_factory)
        self.bot = await self._stack.enter_async_context(running_bot(self.fake, bot))
        if saved is None:
            # Every side bet on, so they can be tried (a server opts in with /blackjack-admin
            # config; the Croupier can turn them off there, and a saved server keeps that).
            await self.bot.store.set_guild_settings(self.guild.id, **PLAYGROUND_SIDE_BETS)

    def _build_server(self, saved: saved_world.SavedWorld | None) -> None:
        """The server as ``saved`` left it, with its ids; else a new one, saved if wanted."""
        if saved is None:
            self._guild = self.fake.add_guild("Playground")
            for name in self._first_channels:
                self.add_channel(name)
            for name in self._first_players:
                self.add_player(name)
            self._croupier = self.fake.add_member(
                self.guild, CROUPIER, permissions=["manage_guild"]
            )
        else:
            self._guild = self.fake.add_guild("Playground", guild_id=saved.guild)
            for channel in saved.channels:
                self.add_channel(channel.name, channel_id=channel.id)
            for player in saved.players:
                if player.id == saved.croupier:
                    self._croupier = self.fake.add_member(
                        self.guild, CROUPIER, permissions=["manage_guild"], user_id=player.id
                    )
                else:
                    self.add_player(player.name, user_id=player.id)
        self._save()

    def _save(self) -> None:
        if self.world_file is None or self._croupier is None:
            return
        saved = saved_world.SavedWorld(
            guild=self.guild.id,
            croupier=self._croupier.id,
            channels=[saved_world.Named(c.id, c.name) for c in self.channels()],
            players=[saved_world.Named(m.id, display_name(m)) for m in self.players()],
        )
        saved_world.save(self.world_file, saved)

    async def stop(self) -> None:
        """Close the bot (open rounds are refunded, as at any graceful stop), then the fake."""
        await self._stack.aclose()

    @property
    def guild(self) -> FakeGuild:
        """The playground's server."""
        if self._guild is None:
            raise RuntimeError("the playground has not started")
        return self._guild

    # -- the world ---------------------------------------------------------------------------
    def players(self) -> list[FakeMember]:
        """The people who can play (every member but the bot and the server's owner)."""
        skip = {self.fake.bot_user.id, self.fake.owner_user.id}
        return [m for m in self.guild.members.values() if m.id not in skip]

    def channels(self) -> list[FakeChannel]:
        """The server's text channels."""
        return self.guild.text_channels()

    def add_player(self, name: str, *, user_id: int | None = None) -> FakeMember:
        """A new member whose display name is ``name`` as typed, as Discord's may be."""
        display = _display_name(name)
        for member in self.players():
            if display_name(member).casefold() == display.casefold():
                raise ValueError(f"There is already a player called {display_name(member)}.")
        member = self.fake.add_member(self.guild, self._username(display), user_id=user_id)
        member.user.global_name = display
        self._save()
        return member

    def _username(self, display: str) -> str:
        """A free username like Discord's (lower case, letters, digits, ``_`` and ``.``)."""
        base = "".join(c for c in display.lower() if c.isascii() and (c.isalnum() or c in "_."))
        base = base[:28] or "player"
        taken = {m.user.username for m in self.guild.members.values()}
        return next(
            name
            for n in range(len(taken) + 1)
            if (name := base + (str(n) if n else "")) not in taken
        )

    def set_language(self, member: FakeMember, language: str) -> None:
        """The language of ``member``'s Discord client (``interaction.locale``)."""
        if language not in LANGUAGES:
            raise ValueError(f"The bot speaks {', '.join(LANGUAGES)}, not {language!r}.")
        member.user.locale = language

    def add_channel(self, name: str, *, channel_id: int | None = None) -> FakeChannel:
        """A new text channel."""
        channel_name = _clean_name(name)
        if any(c.name == channel_name for c in self.channels()):
            raise ValueError(f"There is already a channel #{channel_name}.")
        channel = self.fake.add_text_channel(self.guild, channel_name, channel_id=channel_id)
        self._save()
        return channel

    def member(self, member_id: int) -> FakeMember:
        """A player by id."""
        for member in self.players():
            if member.id == member_id:
                return member
        raise LookupError(f"no player {member_id}")

    def channel(self, channel_id: int) -> FakeChannel:
        """A channel by id."""
        for channel in self.channels():
            if channel.id == channel_id:
                return channel
        raise LookupError(f"no channel {channel_id}")

    def commands(self, member: FakeMember) -> list[CommandEntry]:
        """The commands the bot synced (globally and here) that ``member``'s client offers,
        in its language."""
        synced = self.fake.commands.get(None, []) + self.fake.commands.get(self.guild.id, [])
        return catalogue(synced, member.base_permissions(), member.user.locale)

    def messages(self, channel: FakeChannel, viewer: FakeMember) -> list[FakeMessage]:
        """The channel as ``viewer``'s client shows it (their own ephemeral replies included)."""
        return self.fake.messages_in(channel, viewer=viewer)

    # -- acting --------------------------------------------------------------------------------
    async def run_command(self, member: FakeMember, channel: FakeChannel, line: str) -> Outcome:
        """Run a typed slash command as ``member``; the client refuses what Discord's would."""
        try:
            parsed = parse_line(line, self.commands(member), self.guild)
            answered = await self.fake.slash(
                member, parsed.path, channel, max_wait=ANSWER_WAIT_S, **parsed.options
            )
        except (CommandLineError, InteractionRejected) as refusal:
            return Outcome(refused=str(refusal))
        except NoResponse:
            return Outcome(failed=COMMAND_FAILED)
        return self._answered(member, answered, COMMAND_FAILED)

    async def press(self, member: FakeMember, message_id: int, custom_id: str) -> Outcome:
        """Press a button as ``member``."""
        message = self.fake.messages.get(message_id)
        if message is None or not message.is_visible_to(member):
            return Outcome(refused="That message is gone.")
        try:
            answered = await self.fake.click(
                member, message, custom_id=custom_id, max_wait=ANSWER_WAIT_S
            )
        except InteractionRejected as refusal:
            return Outcome(refused=str(refusal))
        except NoResponse:
            return Outcome(failed=CLICK_FAILED)
        return self._answered(member, answered, CLICK_FAILED)

    async def submit(
        self, member: FakeMember, interaction_id: int, values: Mapping[str, Any]
    ) -> Outcome:
        """Submit, as ``member``, the modal shown to them (a ``MODAL_SUBMIT``, as Discord's).

        A value the client would not send leaves the form open, as the client does.
        """
        shown = self._modals.get(interaction_id)
        if shown is None or shown[0] != member.id:
            return Outcome(refused="That form is closed.")
        try:
            answered = await self.fake.submit_modal(
                member, shown[1], values, max_wait=ANSWER_WAIT_S, wait=False
            )
        except InteractionRejected as refusal:
            return Outcome(refused=str(refusal))
        del self._modals[interaction_id]
        try:
            await answered.wait_for_response(max_wait=ANSWER_WAIT_S)
        except NoResponse:
            return Outcome(failed=CLICK_FAILED)
        return self._answered(member, answered, CLICK_FAILED)

    def _answered(self, member: FakeMember, answered: FakeInteraction, failed: str) -> Outcome:
        if not answered.responded:
            return Outcome(failed=failed)
        if answered.modal is None:
            return Outcome()
        self._modals[answered.id] = (member.id, answered)
        return Outcome(modal={**answered.modal, "interaction": str(answered.id)})


def display_name(member: FakeMember) -> str:
    """The name a client shows: nickname, else global name, else username."""
    user = member.user
    return member.nick or user.global_name or user.username


def _display_name(name: str) -> str:
    """A Discord display name: 1 to 32 characters, any but control characters."""
    display = name.strip()
    if not 1 <= len(display) <= 32 or any(unicodedata.category(c) == "Cc" for c in display):
        raise ValueError("A name is 1 to 32 characters, without control characters.")
    return display


def _clean_name(name: str) -> str:
    """Discord-like channel names: lower case, letters, digits, ``-_.``, 2-32 long."""
    cleaned = "-".join(name.strip().lower().split())
    if not 2 <= len(cleaned) <= 32 or not all(c.isalnum() or c in "-_." for c in cleaned):
        raise ValueError("A name is 2 to 32 letters, digits, '-', '_' or '.'.")
    return cleaned
