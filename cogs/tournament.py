"""``/tournament create | join | start | bet | standings | cancel``, and the tournament's
table message in each of its channels (buttons routed by custom id, so after a restart too).

The tournament itself lives in bot.tournaments; this cog shows it and passes clicks on.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.bet_amount import BetAmountError, needs_balance, parse_bet
from bot.discord_reply import tell
from bot.engine import MAX_BET_CEILING, Action
from bot.play_gate import Action as PlayAction
from bot.pocket import economy_scope
from bot.shown_names import shown_name
from bot.tables.players import Player
from bot.tournaments import rules as R
from bot.tournaments.service import TournamentError, TournamentService
from bot.tournaments.state import Phase, Status, TableState, Tournament
from cogs.responsible import asker_of
from cogs.table.buttons import ButtonSpec, SentButtons
from cogs.table.render import chips, timestamp

if TYPE_CHECKING:
    from bot.app import BlackjackBot

log = logging.getLogger(__name__)

COLOUR: Final = 0x9B59B6
#: ``tour:{tournament}:{channel}:{hand}:{action}``
_CUSTOM_ID: Final = re.compile(
    r"tour:(?P<t>[0-9]{1,15}):(?P<c>[0-9]{1,20}):(?P<hand>[0-9]{1,4}):"
    r"(?P<action>hit|stand|double|split|bet)"
)
_PLAYS: Final = {
    "hit": Action.HIT,
    "stand": Action.STAND,
    "double": Action.DOUBLE,
    "split": Action.SPLIT,
}
_LABELS: Final = {
    "bet": "Bet",
    "hit": "Hit",
    "stand": "Stand",
    "double": "Double",
    "split": "Split",
}


#: A player's bet or decision while on a break begun after they entered the tournament.
ON_BREAK: Final = (
    "{refusal} Your tournament seat plays on by itself until then:"
    " the minimum bet each hand, and basic strategy."
)


def tournament_service(bot: commands.Bot) -> TournamentService | None:
    """The loaded tournament cog's service; None when the cog is not loaded.

    Found by its name, not by ``isinstance``: discord.py imports an extension's modules
    afresh each time it loads it.
    """
    cog = bot.get_cog("Tournament")
    return cast("TournamentCog", cog).service if cog is not None else None


def player_of(interaction: discord.Interaction[Any]) -> Player:
    return Player(interaction.user.id, interaction.user.display_name)


def may_manage(interaction: discord.Interaction[Any]) -> bool:
    """Manage Channels, or the server's admin (Manage Server or Administrator)."""
    perms = interaction.permissions
    return perms.manage_channels or perms.manage_guild or perms.administrator


def _hand_text(cards: Any, total: int) -> str:
    return f"{' '.join(str(card) for card in cards)} ({total})"


def board(t: Tournament, table: TableState) -> discord.Embed:
    """The table message of one channel of the tournament."""
    fmt = t.fmt
    number = t.tables.index(table) + 1
    title = f"Tournament #{t.tournament_id}"
    if t.duplicate:
        title += f" · table {number} of {len(t.tables)}"
    lines: list[str] = []
    if t.status is Status.REGISTERING:
        lines.append("Taking entries: /tournament join. The host starts it with /tournament start.")
        lines.append(
            f"{fmt.hands} hands, {chips(fmt.stack)} tournament chips each, bets"
            f" {fmt.min_bet} to {fmt.max_bet}; the fewest chips go out after hands"
            f" {', '.join(str(h) for h in fmt.eliminations) or 'none'}."
        )
    elif t.status is Status.PLAYING and table.phase is not Phase.DONE:
        upcoming = fmt.next_elimination(table.hand_no)
        where = (
            f"next elimination after hand {upcoming}"
            if upcoming is not None
            else "no more eliminations: the most chips after the last hand wins"
        )
        lines.append(f"Hand {table.hand_no} of {fmt.hands} · {where}.")
        if table.phase is Phase.BETTING and table.deadline is not None:
            lines.append(
                "Bets are sealed until everyone has bet: press Bet or use /tournament bet."
                f" Bets close {timestamp(table.deadline)}."
            )
        elif table.round is not None and table.deadline is not None:
            up = table.round.dealer_up_card
            lines.append(f"Dealer shows {up}. Play your hand before {timestamp(table.deadline)}.")
    elif t.status is Status.PLAYING:
        lines.append("This table has played its last hand; waiting for the other tables.")
    else:
        lines.extend(t.final)
    if t.duplicate:
        lines.append("Duplicate: every table gets the same cards in the same seats.")
    embed = discord.Embed(title=title, description="\n".join(lines), colour=COLOUR)
    players = []
    for e in t.at(table):
        name = shown_name(e.name)
        if e.out_after is not None:
            players.append(f"~~{name}~~ · out after hand {e.out_after} ({e.chips} chips)")
            continue
        text = f"**{name}** · {e.chips} chips"
        round_ = table.round
        if round_ is not None and round_.has_player(e.pid):
            stake = "secret bet" if e.secret else f"bet {e.bet}"
            hands = " · ".join(_hand_text(h.cards, h.total) for h in round_.hands(e.pid))
            text += f" · {stake} · {hands}"
        elif table.phase is Phase.BETTING and t.status is Status.PLAYING:
            text += " · bet sealed" if e.bet is not None else " · betting"
        players.append(text)
    if players:
        embed.add_field(name="Players", value="\n".join(players), inline=False)
    latest = table.events + table.results
    if latest and t.open:
        embed.add_field(name="Latest", value="\n".join(latest)[:1024], inline=False)
    pool = f"Prize pool {chips(t.pool)} ({'/'.join(str(p) for p in fmt.split)})"
    fee = f" · entry {chips(fmt.fee)}" if fmt.fee else ""
    embed.set_footer(text=f"{pool}{fee}")
    return embed


def buttons(t: Tournament, table: TableState) -> SentButtons | None:
    """Bet while bets are open, the plays while the hand is played; none otherwise."""
    if not t.open or t.status is not Status.PLAYING:
        return None
    if table.phase is Phase.BETTING:
        names = ["bet"]
    elif table.phase is Phase.PLAYING:
        names = ["hit", "stand", "double", "split"]
    else:
        return None
    specs = tuple(
        ButtonSpec(
            action=name,
            label=_LABELS[name],
            custom_id=f"tour:{t.tournament_id}:{table.channel_id}:{table.hand_no}:{name}",
            style=discord.ButtonStyle.primary
            if name in ("bet", "hit")
            else discord.ButtonStyle.secondary,
            disabled=False,
            row=0,
        )
        for name in names
    )
    return SentButtons(specs)


def standings_text(service: TournamentService, t: Tournament) -> str:
    lines = [f"Tournament #{t.tournament_id} standings:"]
    for place, entry in enumerate(service.standings(t), start=1):
        e = t.entrant(entry.user_id)
        assert e is not None
        status = f"out after hand {e.out_after}" if e.out_after is not None else "still in"
        lines.append(f"{place}. {shown_name(e.name)}: {e.chips} chips ({status})")
    return "\n".join(lines)


class BetModal(discord.ui.Modal, title="Your sealed bet"):
    """The Bet button's form: the amount, and whether it is the one secret bet."""

    amount: discord.ui.TextInput[BetModal] = discord.ui.TextInput(label="Chips", max_length=9)
    secret: discord.ui.TextInput[BetModal] = discord.ui.TextInput(
        label="Your one secret bet? (yes or no)",
        default="no",
        max_length=3,
    )

    def __init__(self, cog: TournamentCog, channel_id: int) -> None:
        super().__init__()
        self._cog = cog
        self._channel_id = channel_id

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        try:
            amount = int(str(self.amount.value).strip())
        except ValueError:
            await tell(interaction, "Write the bet as a whole number of chips, like 50.")
            return
        secret = str(self.secret.value).strip().lower() in ("yes", "y")
        await self._cog.seal(interaction, self._channel_id, amount, secret)


class TournamentCog(commands.Cog, name="Tournament"):
    """The tournament commands, buttons and messages."""

    tournament = app_commands.Group(
        name="tournament", description="Elimination tournaments in this channel", guild_only=True
    )

    def __init__(self, bot: BlackjackBot) -> None:
        self.bot = bot
        self.service = TournamentService(bot.store, clock=bot.clock, publish=self._publish)
        self._showing: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()

    async def cog_load(self) -> None:
        for t in await self.service.resume():
            self._publish(t)

    async def cog_unload(self) -> None:
        await self.service.suspend()

    # -- showing -------------------------------------------------------------------------------

    def _publish(self, t: Tournament) -> None:
        """Bring every table message of ``t`` up to date (one edit at a time per tournament)."""
        key = t.tournament_id
        if key in self._showing and not self._showing[key].done():
            self._again.add(key)
            return
        self._showing[key] = asyncio.create_task(self._show(t), name=f"tournament {key} edits")

    async def _show(self, t: Tournament) -> None:
        while True:
            self._again.discard(t.tournament_id)
            for table in list(t.tables):
                try:
                    await self._show_table(t, table)
                except discord.HTTPException:
                    log.warning(
                        "tournament %s: its message in %s could not be edited",
                        t.tournament_id,
                        table.channel_id,
                    )
            if t.tournament_id not in self._again:
                break
        if not t.open and t.final:
            for table in t.tables:
                channel = self.bot.get_partial_messageable(table.channel_id)
                heading = (
                    f"Tournament #{t.tournament_id} is over."
                    if t.status is Status.FINISHED
                    else f"Tournament #{t.tournament_id} has ended."
                )
                try:
                    await channel.send("\n".join([heading, *t.final]))
                except discord.HTTPException:
                    log.warning("tournament %s: its result could not be posted", t.tournament_id)

    async def _show_table(self, t: Tournament, table: TableState) -> None:
        if table.message_id is None:
            return
        channel = self.bot.get_partial_messageable(table.channel_id)
        view = buttons(t, table)
        await channel.get_partial_message(table.message_id).edit(embed=board(t, table), view=view)

    async def idle(self) -> None:
        """Return once every message edit asked for so far is done (for tests)."""
        while pending := [task for task in self._showing.values() if not task.done()]:
            await asyncio.gather(*pending, return_exceptions=True)

    # -- commands ------------------------------------------------------------------------------

    @tournament.command(name="create")
    @app_commands.describe(
        fee="Entry fee in chips, paid into the prize pool (default none)",
        prize="Without a fee: chips from your balance for the prize pool",
        stack="Tournament chips each player starts with (default 1,000)",
        hands="Hands to play (default 30)",
        min_bet="Smallest bet (default 10)",
        max_bet="Largest bet (default 500)",
        eliminations="Hands after which the fewest chips go out (default 8, 16, 25)",
        split="Prize split in percent, first place first (default 60/30/10)",
        duplicate="Play the same cards at several channels: create it in each of them",
    )
    async def create(
        self,
        interaction: discord.Interaction[Any],
        fee: app_commands.Range[int, 0, 1_000_000_000] = 0,
        prize: app_commands.Range[int, 0, 1_000_000_000] = 0,
        stack: app_commands.Range[int, 1, 1_000_000] = R.DEFAULT_STACK,
        hands: app_commands.Range[int, 1, R.MAX_HANDS] = R.DEFAULT_HANDS,
        min_bet: app_commands.Range[int, 1, 1_000_000] = R.DEFAULT_MIN_BET,
        max_bet: app_commands.Range[int, 1, 1_000_000] = R.DEFAULT_MAX_BET,
        eliminations: str | None = None,
        split: str | None = None,
        duplicate: bool = False,
    ) -> None:
        """Create an elimination tournament in this channel (Manage Channels)."""
        assert interaction.guild_id is not None
        assert interaction.channel_id is not None
        if not may_manage(interaction):
            await tell(interaction, "Creating a tournament needs Manage Channels.")
            return
        if not await self._may_host(interaction):
            return
        if self.bot.tables.table_in(interaction.channel_id) is not None:
            await tell(
                interaction,
                "This channel has a blackjack table open: a tournament needs a channel of its own.",
            )
            return
        try:
            elim = (
                R.parse_hands(eliminations)
                if eliminations is not None
                else tuple(h for h in R.DEFAULT_ELIMINATIONS if h < hands)
            )
            parts = R.parse_split(split) if split is not None else R.DEFAULT_SPLIT
            fmt = R.Format(stack, hands, min_bet, max_bet, elim, fee, parts).check()
            settings = await self.bot.store.get_guild_settings(interaction.guild_id)
            t = await self.service.create(
                interaction.guild_id,
                interaction.channel_id,
                player_of(interaction),
                fmt,
                duplicate=duplicate,
                prize=prize,
                timers=(settings.bet_timer_s, settings.action_timer_s, settings.idle_close_s),
            )
        except (R.FormatError, TournamentError) as error:
            await tell(interaction, str(error))
            return
        table = t.table_of(interaction.channel_id)
        assert table is not None
        await interaction.response.send_message(embed=board(t, table))
        message = await interaction.original_response()
        await self.service.attach_message(t, interaction.channel_id, message.id)

    @tournament.command(name="join")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        """Enter this channel's tournament (its entry fee is taken now), if the play gate
        lets the player in (a break, the server's gates)."""
        assert interaction.channel_id is not None
        refusal = await self.bot.play_gate.check(
            economy_scope(interaction), asker_of(interaction), PlayAction.TOURNAMENT
        )
        if refusal is not None:
            await tell(interaction, str(refusal))
            return
        try:
            t = await self.service.join(interaction.channel_id, player_of(interaction))
        except TournamentError as error:
            await tell(interaction, str(error))
            return
        fee = f" Your entry fee of {chips(t.fmt.fee)} is in the prize pool." if t.fmt.fee else ""
        await tell(interaction, f"You are in tournament #{t.tournament_id}.{fee}")

    @tournament.command(name="start")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        """Close entries and deal the first hand (the host, or Manage Channels)."""
        if not await self._may_host(interaction):
            return
        await self._by_host(interaction, self.service.start, "{name} has started. Good luck!")

    async def _may_host(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether the play gate lets a tournament be created or started here (not while an
        admin has stopped all play); if not, the asker is told why."""
        refusal = await self.bot.play_gate.check(
            economy_scope(interaction), asker_of(interaction), PlayAction.HOST
        )
        if refusal is not None:
            await tell(interaction, str(refusal))
        return refusal is None

    async def _on_break(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether the player is on a break (begun after they entered): their seat plays on
        by itself, and they are told so."""
        refusal = await self.bot.play_gate.on_break(interaction.user.id)
        if refusal is not None:
            await tell(interaction, ON_BREAK.format(refusal=refusal))
        return refusal is not None

    async def _by_host(
        self,
        interaction: discord.Interaction[Any],
        step: Callable[..., Awaitable[Tournament]],
        done: str,
    ) -> None:
        """A host's command on this channel's tournament, and its answer (``done`` with the
        tournament's ``{name}``), or the refusal."""
        assert interaction.channel_id is not None
        try:
            t = await step(
                interaction.channel_id, player_of(interaction), may_manage=may_manage(interaction)
            )
        except TournamentError as error:
            await tell(interaction, str(error))
            return
        await tell(interaction, done.format(name=f"Tournament #{t.tournament_id}"))

    @tournament.command(name="bet")
    @app_commands.describe(
        amount="Chips to bet this hand", secret="Your one secret bet: hidden until the hand is paid"
    )
    async def bet(
        self,
        interaction: discord.Interaction[Any],
        amount: app_commands.Range[int, 1, 1_000_000],
        secret: bool = False,
    ) -> None:
        """Seal your bet for this hand; bets are shown when everyone has bet."""
        assert interaction.channel_id is not None
        await self.seal(interaction, interaction.channel_id, amount, secret)

    async def bet_in_channel(self, interaction: discord.Interaction[Any], amount: str) -> bool:
        """``/bet`` in a channel with a tournament: the player's sealed bet (not the secret
        one). False when the channel has no tournament."""
        channel_id = interaction.channel_id or 0
        t = self.service.in_channel(channel_id)
        if t is None:
            return False
        entrant = t.entrant(interaction.user.id)
        chips_left = 0 if entrant is None else entrant.chips
        word = amount.strip().lower()
        try:
            if needs_balance(amount):
                whole = {"max": min(t.fmt.max_bet, chips_left), "half": chips_left // 2}
                stake = whole.get(word, chips_left)
            else:
                stake = parse_bet(amount, balance=None, min_bet=1, max_bet=MAX_BET_CEILING)
        except BetAmountError as error:
            await tell(interaction, str(error))
            return True
        await self.seal(interaction, channel_id, stake, False)
        return True

    async def seal(
        self, interaction: discord.Interaction[Any], channel_id: int, amount: int, secret: bool
    ) -> None:
        if await self._on_break(interaction):
            return
        try:
            note = await self.service.bet(channel_id, player_of(interaction), amount, secret=secret)
        except TournamentError as error:
            note = str(error)
        await tell(interaction, note)

    @tournament.command(name="standings")
    async def standings(self, interaction: discord.Interaction[Any]) -> None:
        """Every player of this channel's tournament, best first."""
        assert interaction.channel_id is not None
        t = self.service.in_channel(interaction.channel_id)
        if t is None:
            await tell(interaction, "There is no tournament in this channel.")
            return
        await tell(interaction, standings_text(self.service, t))

    @tournament.command(name="cancel")
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        """End this channel's tournament now, refunding every fee (host or Manage Channels)."""
        await self._by_host(
            interaction, self.service.cancel, "{name} is cancelled; every fee is refunded."
        )

    # -- buttons -------------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A click on a tournament button, routed by its custom id."""
        if interaction.type is not discord.InteractionType.component or interaction.data is None:
            return
        match = _CUSTOM_ID.fullmatch(str(interaction.data.get("custom_id", "")))
        if match is None or not await self.bot.admit(interaction):
            return
        channel_id, action = int(match["c"]), match["action"]
        if await self._on_break(interaction):
            return
        if action == "bet":
            await interaction.response.send_modal(BetModal(self, channel_id))
            return
        try:
            await self.service.act(
                int(match["t"]),
                channel_id,
                int(match["hand"]),
                player_of(interaction),
                _PLAYS[action],
            )
        except TournamentError as error:
            await tell(interaction, str(error))
            return
        await interaction.response.defer()


async def setup(bot: BlackjackBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(TournamentCog(bot))
