"""A decision at the table: a button press (hit, stand, double, split, surrender, insurance).

The press is judged legal, journaled (with its stake when it costs chips) and then
applied to the round, all in one change under the table's lock.
"""

from __future__ import annotations

import db
from bot.engine import Action
from bot.tables.changes import TableStep
from bot.tables.errors import NotEnoughChips
from bot.tables.journal import decision
from bot.tables.players import Player
from bot.tables.press_checks import judged, player_in_round
from bot.tables.snapshot import Reply

_COST_KINDS = {Action.DOUBLE: "double", Action.SPLIT: "split", Action.INSURANCE: "insurance"}
_COST_WORDS = {Action.DOUBLE: "Doubling", Action.SPLIT: "Splitting", Action.INSURANCE: "Insurance"}


class Playing(TableStep):
    """The players' decisions in a round."""

    async def act(self, table_id: str, round_no: int, player: Player, action: Action) -> Reply:
        """Apply a button press to the player's first unfinished hand (or insurance decision).

        The cost (double, split, insurance) is staked first; if the balance cannot
        cover it, NotEnoughChips and nothing changes.
        """
        table = self._registry.table(table_id)

        async def press() -> None:
            pid = player_in_round(table, round_no, player.user_id)
            round_ = table.round
            assert round_ is not None
            assert table.round_id is not None
            verdict = judged(round_, pid, action)  # the one legality check of this press
            cost, checked = verdict.cost, verdict.action
            assert checked is not None
            # Journaled before the click is answered; with its stake when it costs chips.
            row = decision(table, pid, checked, self._clock.now())
            if cost:
                purse = self._flow.mode_of(table).purse
                try:
                    await purse.stake(
                        table, player.user_id, cost, _COST_KINDS[checked], actions=[row]
                    )
                except db.InsufficientChips as error:
                    raise NotEnoughChips(
                        error.amount, error.balance, _COST_WORDS[checked]
                    ) from None
            else:
                await self._store.tables.append_actions([row])
            await self._flow.apply(table, row, verdict)

        _nothing, snapshot = await self._changes.mutate(table, press)
        return Reply(snapshot)
