"""Pocket tables: a table where the app may only answer interactions (a DM, a group DM, or
a server that did not add the bot; see :mod:`bot.user_install`).

There the bot posts no channel message and edits none through the channel: the table
message is the answer to ``/blackjack start``, and it changes only through an interaction
token: a click's own answer (type 7), or, for a change nobody clicked (a timer, a /bet),
``edit_original_response`` of the *anchor*, the latest interaction whose original response
is the table message (the start, or a click on the table). Discord keeps a token for 15
minutes; so the table's timers act only while its anchor is valid, and a table whose
anchor expired ends at the next click or command, its round in progress refunded. A /bet
keeps a table going too: when its anchor has less than ``RENEW_BEFORE_S`` left, the table
moves to a new message answering the /bet, whose token then owns it.

An anchor is held in memory only: after a restart a pocket table has none, its timers
wait, and the first click on it becomes its anchor again (the round goes on).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Final

import discord

from bot.clock import Clock
from bot.i18n import _
from bot.tables.snapshot import TableSnapshot
from bot.user_install import POCKET_SCOPE
from cogs.table.layouts import TablePayload

log = logging.getLogger(__name__)

#: Discord's lifetime of an interaction token.
TOKEN_LIFETIME_S: Final = 15 * 60.0
#: Stop using a token this long before it expires: an edit sent then still arrives in time.
TOKEN_MARGIN_S: Final = 10.0
#: A /bet at a table whose token has less than this left renews it: the table moves to a
#: new message answering the /bet (a /bet's own token owns no message the table is on). Longer
#: than a round's timers, so a round dealt on a token's last minutes never outlives it.
RENEW_BEFORE_S: Final = 5 * 60.0

#: What a click or command on a pocket table past its anchor's life is told.
TABLE_TIMED_OUT: Final = _(
    "This table ended: nobody played for 15 minutes, and Discord no longer lets me update "
    "its message. Any round in progress was refunded. Start a new one with /blackjack start."
)
#: What /blackjack start is told, under its new table, when the table it replaced had
#: outlived its last token.
EARLIER_TABLE_TIMED_OUT: Final = _(
    "The table that was open here ended first: nobody played for 15 minutes. "
    "Any round in progress there was refunded."
)
#: What a click is told when its answer is the table as a new message (the old one was
#: near Discord's cap on edits of an hour-old message); the click itself was not applied.
POCKET_TABLE_MOVED: Final = _(
    "This table moved to a new message, since Discord limits edits of old messages. "
    "Nothing was changed: press your button again there."
)
#: The reason the closed table shows.
TIMED_OUT_REASON: Final = _("Nobody played for 15 minutes.")


def is_pocket_table(snapshot: TableSnapshot) -> bool:
    """Whether the table lives in the pocket scope (answers only)."""
    return snapshot.guild_id == POCKET_SCOPE


@dataclass
class _Anchor:
    interaction: discord.Interaction[Any]
    #: The bot clock's time after which its token is not used any more.
    usable_until: float
    #: The table message when it is a followup of the interaction (else its original).
    followup_id: int | None = None


class PocketAnchors:
    """Each pocket table's anchor: the interaction whose token edits its message."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._anchors: dict[str, _Anchor] = {}
        #: Pocket tables whose anchor expired: they end at the next click or command.
        self._expired: set[str] = set()

    def anchor(
        self,
        table_id: str,
        interaction: discord.Interaction[Any],
        followup_id: int | None = None,
    ) -> None:
        """``interaction``'s original response (or its followup ``followup_id``) is now the
        table message (its answer was the table, or it was a click on it): edits go through
        its token from now on."""
        created = interaction.created_at.timestamp()
        until = created + TOKEN_LIFETIME_S - TOKEN_MARGIN_S
        old = self._anchors.get(table_id)
        if old is None or until >= old.usable_until or followup_id is not None:
            self._anchors[table_id] = _Anchor(interaction, until, followup_id)
        self._expired.discard(table_id)

    def valid(self, table_id: str) -> bool:
        """Whether the table has an anchor whose token may still be used."""
        anchor = self._anchors.get(table_id)
        if anchor is None:
            return False
        if self._clock.now() < anchor.usable_until:
            return True
        self._expired.add(table_id)
        return False

    def needs_renewal(self, table_id: str) -> bool:
        """Whether the table's token is near its end (or unknown, as after a restart): the
        next /bet moves the table to a message its own token owns."""
        anchor = self._anchors.get(table_id)
        return anchor is None or anchor.usable_until - self._clock.now() < RENEW_BEFORE_S

    def expired(self, table_id: str) -> bool:
        """Whether the table's anchor ran out (not merely unknown, as after a restart)."""
        self.valid(table_id)
        return table_id in self._expired

    async def edit(self, table_id: str, payload: TablePayload) -> None:
        """Edit the table message through its anchor's token (the caller checked ``valid``)."""
        anchor = self._anchors[table_id]
        if anchor.followup_id is None:
            await anchor.interaction.edit_original_response(**payload.fields())
        else:
            await anchor.interaction.followup.edit_message(anchor.followup_id, **payload.fields())

    def forget(self, table_id: str) -> None:
        """The table closed and is shown closed: drop its anchor."""
        self._anchors.pop(table_id, None)
        self._expired.discard(table_id)
