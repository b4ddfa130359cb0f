"""A press of a table button: what each button does at the table service (one handler a
button of ``cogs.table.buttons.BUTTONS``), and the one answer every press gets.

The answer is the new table (type 7; or type 6, then an edit through the webhook, when the
table takes long), in whichever layout the table's message has; the Hint is answered with
words only the presser sees, and a game mode's Bet with its form.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final

import discord

from bot.discord_reply import tell
from bot.i18n import language_of
from bot.play_gate import Activity
from bot.shown_names import shows_blank
from bot.tables import Player, Reply, TableService
from bot.tables.registry import CLOSED
from bot.user_install import economy_scope
from cogs.responsible import asker_of
from cogs.table import round_details
from cogs.table.buttons import BY_ACTION, ButtonRef
from cogs.table.discord_codes import OLD_MESSAGE_EDITS
from cogs.table.hint_text import hint_text
from cogs.table.peers import BetForms
from cogs.table.pocket import POCKET_TABLE_MOVED, TABLE_TIMED_OUT, is_pocket_table
from cogs.table.practice_form import CountQuizForm
from cogs.table.response_window import BUSY, TimelyResponse

if TYPE_CHECKING:
    from cogs.table.commands import TableCog

log = logging.getLogger(__name__)

#: What a button does at the table service, by the button's action.
Press = Callable[[TableService, ButtonRef, Player], Awaitable[Reply]]


async def _play(tables: TableService, ref: ButtonRef, player: Player) -> Reply:
    assert ref.play is not None
    return await tables.act(ref.table_id, ref.round_no, player, ref.play)


async def _rebet(tables: TableService, ref: ButtonRef, player: Player) -> Reply:
    return await tables.rebet(
        ref.table_id, ref.round_no, player, 2 if ref.action == "rebet2" else 1
    )


async def _join(tables: TableService, ref: ButtonRef, player: Player) -> Reply:
    # Join and Leave belong to the table, not a round: only the table must still be open.
    return await tables.join_table(ref.table_id, player)


async def _leave(tables: TableService, ref: ButtonRef, player: Player) -> Reply:
    return await tables.leave_table(ref.table_id, player)


async def _hint(tables: TableService, ref: ButtonRef, player: Player) -> Reply:
    return await tables.hint(ref.table_id, ref.round_no, player)


async def _count(tables: TableService, ref: ButtonRef, player: Player) -> Reply:
    return await tables.count(ref.table_id, player)


#: Each button's handler ("bet", a game mode's form, and "quiz", a practice table's count
#: quiz, are answered with their forms before any handler, and Round details with the last
#: round's account, which changes nothing).
HANDLERS: Final[dict[str, Press]] = {
    **{button.action: _play for button in BY_ACTION.values() if button.play is not None},
    "hint": _hint,
    "rebet": _rebet,
    "rebet2": _rebet,
    "join": _join,
    "leave": _leave,
    "count": _count,
}
#: Buttons that take or leave a seat: their presses are dispatched as ``seat_interaction``
#: events (the bridge tells a seat's automatic transfer through the interaction).
SEATS: Final = frozenset({"join", "leave", "rebet", "rebet2"})
#: Buttons answered with words only the presser sees, not with the table.
PRIVATE: Final = frozenset({"hint", "count"})


def player_of(interaction: discord.Interaction[Any]) -> Player:
    """The person behind an interaction, as the table knows them: by their display name,
    or their account's name where the display name would show as blank."""
    user = interaction.user
    return Player(user.id, user.name if shows_blank(user.display_name) else user.display_name)


async def press(cog: TableCog, interaction: discord.Interaction[Any], ref: ButtonRef) -> None:
    """One response per press, or (raised) a TableError; "busy" at once when overloaded."""
    messages = cog.messages
    if messages.overloaded(ref.table_id):
        await tell(interaction, BUSY)
        return
    if await _elsewhere(cog, interaction, ref):
        return
    if ref.action == round_details.ACTION:  # private, changes nothing: no gate, no lock
        table = cog.bot.tables.get(ref.table_id)
        await round_details.answer_details(interaction, table, interaction.locale)
        return
    if not await _admitted(cog, interaction, ref):
        return
    player = player_of(interaction)
    if ref.action in SEATS:
        cog.bot.dispatch("seat_interaction", interaction)
    if ref.action == "quiz":  # a practice table's count quiz: its form
        form = CountQuizForm(cog.bot, messages, ref.table_id, player, interaction.locale)
        await interaction.response.send_modal(form)
        return
    async with (
        TimelyResponse(interaction, cog.bot.clock) as answer,
        messages.holding(ref.table_id),
    ):
        reply = await HANDLERS[ref.action](cog.bot.tables, ref, player)
        if ref.action == "hint":
            faces = await cog.card_emojis.faces_for(reply.snapshot.guild_id)
            language = language_of(interaction.locale)
            await answer.text(
                hint_text(reply.snapshot, player.user_id, reply.note, faces, language)
            )
            return
        if ref.action in PRIVATE:
            await answer.text(reply.note)
            return
        if not await _answer_with_table(cog, interaction, answer, ref, reply):
            return
    # A Bet button's receipt is the table the click answered with, which shows the bet: no
    # followup to send and then delete. Other notes are said privately.
    if reply.note and BY_ACTION[ref.action].gate is not Activity.BET:
        await tell(interaction, reply.note)


async def _elsewhere(cog: TableCog, interaction: discord.Interaction[Any], ref: ButtonRef) -> bool:
    """A press on a message the table has left, or on a pocket table's worn or expired
    message: answered (where the table is; the table as a new message; the table closed)."""
    messages = cog.messages
    message_id = interaction.message.id if interaction.message is not None else None
    moved = messages.moved_from(ref.table_id, message_id)
    if moved is not None:
        await tell(interaction, moved)
        return True
    worn = messages.pocket_worn(ref.table_id)
    if worn is not None:  # a pocket table's message near Discord's edit cap: a new one
        async with messages.holding(ref.table_id):
            await messages.move_pocket(worn, interaction)
        await tell(interaction, POCKET_TABLE_MOVED)
        return True
    closed = await messages.end_expired(ref.table_id)
    if closed is None:
        return False
    payload = await messages.payload(closed)  # a pocket table past its last token: closed
    async with messages.holding(ref.table_id):
        await interaction.response.edit_message(**payload.fields())
        messages.shown(closed)
    await tell(interaction, TABLE_TIMED_OUT)
    return True


async def _admitted(cog: TableCog, interaction: discord.Interaction[Any], ref: ButtonRef) -> bool:
    """Whether the presser may press it: a game mode's seat gate (its Bet answered with the
    form), else the play gate for what the button asks of it."""
    betting = cog.bot.get_cog("Betting")
    table = cog.bot.tables.get(ref.table_id)
    if table.mode != "cash" and isinstance(betting, BetForms):
        # A game mode's seat (a tournament's): only a break holds its player back.
        if not await betting.seat_gate(interaction, table):
            return False
        if ref.action == "bet":  # the sealed-bet form: its submission is a bet like /bet
            await interaction.response.send_modal(betting.form(interaction.locale))
            return False
        return True
    gate = BY_ACTION[ref.action].gate
    if gate is not None:
        await cog.bot.play_gate.require(economy_scope(interaction), asker_of(interaction), gate)
    return True


async def _answer_with_table(
    cog: TableCog,
    interaction: discord.Interaction[Any],
    answer: TimelyResponse,
    ref: ButtonRef,
    reply: Reply,
) -> bool:
    """Answer with the new table; False if it went to a new message instead."""
    messages = cog.messages
    payload = await messages.payload(reply.snapshot)
    try:
        async with messages.answering(reply.snapshot):
            await answer.table(payload)
    except discord.HTTPException as error:
        if error.code != OLD_MESSAGE_EDITS:
            raise
        # Too many edits of an old message: the round goes on in a fresh one.
        if is_pocket_table(reply.snapshot):  # posted as this click's answer
            await messages.move_pocket(reply.snapshot, interaction)
            return False
        where = await messages.move_now(ref.table_id, reply.snapshot)
        await answer.text(where or CLOSED)
        return False
    messages.shown(reply.snapshot)
    messages.answered_with_table(reply.snapshot, interaction)
    return True
