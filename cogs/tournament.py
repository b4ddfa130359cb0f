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

from bot.amount_words import HALF, MAX
from bot.bet_amount import AmbiguousAmount, BetAmountError, balance_word, parse_bet
from bot.discord_reply import tell
from bot.engine import MAX_BET_CEILING, Action
from bot.failures import answer_failure, failures_answered
from bot.i18n import ENGLISH, Text, _, joined, known_language, speak, speaking, tr
from bot.play_gate import Action as PlayAction
from bot.pocket import economy_scope
from bot.shown_names import shown_name
from bot.tournaments import rules as R
from bot.tournaments.service import TournamentError, TournamentService
from bot.tournaments.state import Phase, Status, TableState, Tournament
from cogs.responsible import asker_of, tell_refusal
from cogs.table.buttons import ButtonSpec, SentButtons
from cogs.table.commands import player_of, table_cog
from cogs.table.render import timestamp

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
_LABELS: Final[dict[str, Text]] = {
    "bet": _("Bet"),
    "hit": _("Hit"),
    "stand": _("Stand"),
    "double": _("Double"),
    "split": _("Split"),
}


#: A player's bet or decision while on a break begun after they entered the tournament.
ON_BREAK: Final = _(
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


def refusal(error: Exception) -> str:
    """What a refusal says: its catalog message (said in the reader's language by ``tell``)."""
    return error.args[0] if error.args and isinstance(error.args[0], str) else str(error)


def may_manage(interaction: discord.Interaction[Any]) -> bool:
    """Manage Channels, or the server's admin (Manage Server or Administrator)."""
    perms = interaction.permissions
    return perms.manage_channels or perms.manage_guild or perms.administrator


def _hand_text(cards: Any, total: int) -> str:
    return f"{' '.join(str(card) for card in cards)} ({total})"


def board(t: Tournament, table: TableState) -> discord.Embed:
    """The table message of one channel of the tournament, in the language being spoken."""
    fmt = t.fmt
    number = t.tables.index(table) + 1
    if t.duplicate:
        title = speak(
            "Tournament #{id} · table {number} of {count}",
            id=str(t.tournament_id),
            number=number,
            count=len(t.tables),
        )
    else:
        title = speak("Tournament #{id}", id=str(t.tournament_id))
    lines: list[str] = []
    if t.status is Status.REGISTERING:
        lines.append(
            speak("Taking entries: /tournament join. The host starts it with /tournament start.")
        )
        terms = {"hands": fmt.hands, "stack": fmt.stack, "low": fmt.min_bet, "high": fmt.max_bet}
        if fmt.eliminations:
            lines.append(
                speak(
                    "{hands} hands, {stack} tournament chips each, bets {low} to {high}; the "
                    "fewest chips go out after hands {eliminations}.",
                    eliminations=", ".join(str(h) for h in fmt.eliminations),
                    **terms,
                )
            )
        else:
            lines.append(
                speak(
                    "{hands} hands, {stack} tournament chips each, bets {low} to {high}; nobody "
                    "goes out before the last hand.",
                    **terms,
                )
            )
    elif t.status is Status.PLAYING and table.phase is not Phase.DONE:
        upcoming = fmt.next_elimination(table.hand_no)
        if upcoming is not None:
            lines.append(
                speak(
                    "Hand {hand} of {hands} · next elimination after hand {upcoming}.",
                    hand=table.hand_no,
                    hands=fmt.hands,
                    upcoming=upcoming,
                )
            )
        else:
            lines.append(
                speak(
                    "Hand {hand} of {hands} · no more eliminations: the most chips after the "
                    "last hand wins.",
                    hand=table.hand_no,
                    hands=fmt.hands,
                )
            )
        if table.phase is Phase.BETTING and table.deadline is not None:
            lines.append(
                speak(
                    "Bets are sealed until everyone has bet: press Bet or use /tournament bet. "
                    "Bets close {when}.",
                    when=timestamp(table.deadline),
                )
            )
        elif table.round is not None and table.deadline is not None:
            lines.append(
                speak(
                    "Dealer shows {card}. Play your hand before {when}.",
                    card=str(table.round.dealer_up_card),
                    when=timestamp(table.deadline),
                )
            )
    elif t.status is Status.PLAYING:
        lines.append(speak("This table has played its last hand; waiting for the other tables."))
    else:
        lines.extend(tr(line) for line in t.final)
    if t.duplicate:
        lines.append(speak("Duplicate: every table gets the same cards in the same seats."))
    embed = discord.Embed(title=title, description="\n".join(lines), colour=COLOUR)
    players = []
    for e in t.at(table):
        name = shown_name(e.name)
        if e.out_after is not None:
            players.append(
                speak(
                    "~~{player}~~ · out after hand {hand} ({chips} chips)",
                    player=name,
                    hand=e.out_after,
                    chips=e.chips,
                )
            )
            continue
        text = speak("**{player}** · {chips} chips", player=name, chips=e.chips)
        round_ = table.round
        if round_ is not None and round_.has_player(e.pid):
            stake = speak("secret bet") if e.secret else speak("bet {amount}", amount=e.bet or 0)
            hands = " · ".join(_hand_text(h.cards, h.total) for h in round_.hands(e.pid))
            text += f" · {stake} · {hands}"
        elif table.phase is Phase.BETTING and t.status is Status.PLAYING:
            text += " · " + (speak("bet sealed") if e.bet is not None else speak("betting"))
        players.append(text)
    if players:
        embed.add_field(name=speak("Players"), value="\n".join(players), inline=False)
    latest = [tr(line) for line in [*table.events, *table.results]]
    if latest and t.open:
        embed.add_field(name=speak("Latest"), value="\n".join(latest)[:1024], inline=False)
    split = "/".join(str(p) for p in fmt.split)
    if fmt.fee:
        footer = speak(
            "Prize pool {pool} ({split}) · entry {fee}", pool=t.pool, split=split, fee=fmt.fee
        )
    else:
        footer = speak("Prize pool {pool} ({split})", pool=t.pool, split=split)
    embed.set_footer(text=footer)
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
            label=tr(_LABELS[name]),
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


def standings_text(service: TournamentService, t: Tournament) -> Text:
    """The tournament's standings, best first (a catalog message: said in the reader's
    language)."""
    lines = [_("Tournament #{id} standings:", id=str(t.tournament_id))]
    for place, entry in enumerate(service.standings(t), start=1):
        e = t.entrant(entry.user_id)
        assert e is not None
        who = {"place": place, "player": shown_name(e.name), "chips": e.chips}
        if e.out_after is not None:
            lines.append(
                _(
                    "{place}. {player}: {chips} chips (out after hand {hand})",
                    hand=e.out_after,
                    **who,
                )
            )
        else:
            lines.append(_("{place}. {player}: {chips} chips (still in)", **who))
    return joined(lines, "\n")


#: The answers to the secret-bet question that mean yes, in every language the bot speaks.
YES: Final = ("yes", "y", "sí", "si", "s", "sim")


class BetModal(discord.ui.Modal):
    """The Bet button's form: the amount, and whether it is the one secret bet (in the
    language of the player's client)."""

    def __init__(self, cog: TournamentCog, channel_id: int, locale: object) -> None:
        with speaking(locale):
            super().__init__(title=speak("Your sealed bet"))
            self.amount: discord.ui.TextInput[BetModal] = discord.ui.TextInput(
                label=speak("Chips"), max_length=9
            )
            self.secret: discord.ui.TextInput[BetModal] = discord.ui.TextInput(
                label=speak("Your one secret bet? (yes or no)"), default=speak("no"), max_length=3
            )
        self.add_item(self.amount)
        self.add_item(self.secret)
        self._cog = cog
        self._channel_id = channel_id

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        language = await self._cog.reading_language(interaction, self._channel_id)
        try:
            amount = parse_bet(
                str(self.amount.value),
                language=language,
                balance=None,
                min_bet=1,
                max_bet=MAX_BET_CEILING,
            )
        except AmbiguousAmount as error:  # both readings shown, whatever the form asks
            await tell(interaction, refusal(error))
            return
        except ValueError:  # not a number of chips (the form takes no words such as max)
            await tell(interaction, _("Write the bet as a whole number of chips, like 50."))
            return
        secret = str(self.secret.value).strip().lower() in YES
        await self._cog.seal(interaction, self._channel_id, amount, secret)

    async def on_error(  # type: ignore[override]  # discord.py 2.7 types it as a view's
        self, interaction: discord.Interaction[Any], error: Exception, /
    ) -> None:
        """A failed bet is answered (discord.py only logs it)."""
        await answer_failure(interaction, error, "a tournament bet")


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
            with speaking(await self.language(t)):
                if t.status is Status.FINISHED:
                    heading = speak("Tournament #{id} is over.", id=str(t.tournament_id))
                else:
                    heading = speak("Tournament #{id} has ended.", id=str(t.tournament_id))
                result = "\n".join([heading, *(tr(line) for line in t.final)])
            for table in t.tables:
                channel = self.bot.get_partial_messageable(table.channel_id)
                try:
                    await channel.send(result)
                except discord.HTTPException:
                    log.warning("tournament %s: its result could not be posted", t.tournament_id)

    async def _show_table(self, t: Tournament, table: TableState) -> None:
        if table.message_id is None:
            return
        channel = self.bot.get_partial_messageable(table.channel_id)
        with speaking(await self.language(t)):
            view = buttons(t, table)
            embed = board(t, table)
        await channel.get_partial_message(table.message_id).edit(embed=embed, view=view)

    async def language(self, t: Tournament) -> str:
        """The language of the tournament's messages: its server's table language."""
        tables = table_cog(self.bot)
        return ENGLISH if tables is None else await tables.languages.of(t.guild_id)

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
            await tell(interaction, _("Creating a tournament needs Manage Channels."))
            return
        if not await self._may_host(interaction):
            return
        if self.bot.tables.table_in(interaction.channel_id) is not None:
            await tell(
                interaction,
                _(
                    "This channel has a blackjack table open: a tournament needs a channel of "
                    "its own."
                ),
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
            await tell(interaction, refusal(error))
            return
        table = t.table_of(interaction.channel_id)
        assert table is not None
        with speaking(await self.language(t)):
            embed = board(t, table)
        await interaction.response.send_message(embed=embed)
        message = await interaction.original_response()
        await self.service.attach_message(t, interaction.channel_id, message.id)

    @tournament.command(name="join")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        """Enter this channel's tournament (its entry fee is taken now).

        The play gate is asked first: a break or the server's gates keep the player out."""
        assert interaction.channel_id is not None
        refused = await self.bot.play_gate.check(
            economy_scope(interaction), asker_of(interaction), PlayAction.TOURNAMENT
        )
        if refused is not None:
            await tell_refusal(interaction, refused)
            return
        try:
            t = await self.service.join(interaction.channel_id, player_of(interaction))
        except TournamentError as error:
            await tell(interaction, refusal(error))
            return
        if t.fmt.fee:
            text = _(
                "You are in tournament #{id}. Your entry fee of {fee} is in the prize pool.",
                id=str(t.tournament_id),
                fee=t.fmt.fee,
            )
        else:
            text = _("You are in tournament #{id}.", id=str(t.tournament_id))
        await tell(interaction, text)

    @tournament.command(name="start")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        """Close entries and deal the first hand (the host, or Manage Channels)."""
        if not await self._may_host(interaction):
            return
        await self._by_host(
            interaction, self.service.start, _("Tournament #{id} has started. Good luck!")
        )

    async def _may_host(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether the play gate lets a tournament be created or started here (not while an
        admin has stopped all play); if not, the asker is told why."""
        refusal = await self.bot.play_gate.check(
            economy_scope(interaction), asker_of(interaction), PlayAction.HOST
        )
        if refusal is not None:
            await tell_refusal(interaction, refusal)
        return refusal is None

    async def _on_break(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether the player is on a break (begun after they entered): their seat plays on
        by itself, and they are told so."""
        assert interaction.guild_id is not None  # tournaments are a server's
        refusal = await self.bot.play_gate.on_break(interaction.guild_id, interaction.user.id)
        if refusal is not None:
            await tell(interaction, ON_BREAK.filled(refusal=refusal.args[0]))
        return refusal is not None

    async def _by_host(
        self,
        interaction: discord.Interaction[Any],
        step: Callable[..., Awaitable[Tournament]],
        done: Text,
    ) -> None:
        """A host's command on this channel's tournament, and its answer (``done``, a message
        written once and filled with the tournament's ``{id}``), or the refusal."""
        assert interaction.channel_id is not None
        try:
            t = await step(
                interaction.channel_id, player_of(interaction), may_manage=may_manage(interaction)
            )
        except TournamentError as error:
            await tell(interaction, refusal(error))
            return
        await tell(interaction, done.filled(id=str(t.tournament_id)))

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
        language = await self.reading_language(interaction, channel_id)
        word = balance_word(amount, language=language)
        try:
            if word is not None:
                whole = {MAX: min(t.fmt.max_bet, chips_left), HALF: chips_left // 2}
                stake = whole.get(word, chips_left)
            else:
                stake = parse_bet(
                    amount, language=language, balance=None, min_bet=1, max_bet=MAX_BET_CEILING
                )
        except BetAmountError as error:
            await tell(interaction, refusal(error))
            return True
        await self.seal(interaction, channel_id, stake, False)
        return True

    async def reading_language(self, interaction: discord.Interaction[Any], channel_id: int) -> str:
        """The language a bet is read in: the player's client's, or where the bot does not
        speak it, the tournament's."""
        language = known_language(interaction.locale)
        if language is not None:
            return language
        t = self.service.in_channel(channel_id)
        return ENGLISH if t is None else await self.language(t)

    async def seal(
        self, interaction: discord.Interaction[Any], channel_id: int, amount: int, secret: bool
    ) -> None:
        if await self._on_break(interaction):
            return
        try:
            note = await self.service.bet(channel_id, player_of(interaction), amount, secret=secret)
        except TournamentError as error:
            note = refusal(error)
        await tell(interaction, note)

    @tournament.command(name="standings")
    async def standings(self, interaction: discord.Interaction[Any]) -> None:
        """Every player of this channel's tournament, best first."""
        assert interaction.channel_id is not None
        t = self.service.in_channel(interaction.channel_id)
        if t is None:
            await tell(interaction, _("There is no tournament in this channel."))
            return
        await tell(interaction, standings_text(self.service, t))

    @tournament.command(name="cancel")
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        """End this channel's tournament now, refunding every fee (host or Manage Channels)."""
        await self._by_host(
            interaction,
            self.service.cancel,
            _("Tournament #{id} is cancelled; every fee is refunded."),
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
        async with failures_answered(interaction, "a click on a tournament table"):
            await self._press(interaction, int(match["t"]), int(match["c"]), match)

    async def _press(
        self, interaction: discord.Interaction[Any], t: int, channel_id: int, match: re.Match[str]
    ) -> None:
        action = match["action"]
        if await self._on_break(interaction):
            return
        if action == "bet":
            await interaction.response.send_modal(BetModal(self, channel_id, interaction.locale))
            return
        try:
            await self.service.act(
                t, channel_id, int(match["hand"]), player_of(interaction), _PLAYS[action]
            )
        except TournamentError as error:
            await tell(interaction, refusal(error))
            return
        await interaction.response.defer()


async def setup(bot: BlackjackBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(TournamentCog(bot))
