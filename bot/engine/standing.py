"""A running tally per player of "action" (total bet) and "standing" (net), across rounds.

The Reno 1972 table (Unix V3 bj) announces both at every shuffle.
"""

from __future__ import annotations

from bot.engine.settlement import Settlement


class Standing:
    """Action and standing per player, fed one settlement at a time."""

    __slots__ = ("_action", "_rows", "_standing")

    def __init__(self) -> None:
        self._action: dict[str, int] = {}
        self._standing: dict[str, int] = {}
        self._rows: tuple[tuple[str, int, int], ...] | None = None

    def record(self, settlement: Settlement) -> None:
        """Add a settled round: every chip staked is action; the net is standing."""
        for result in settlement.players:
            player = result.player_id
            self._action[player] = self._action.get(player, 0) + result.staked
            self._standing[player] = self._standing.get(player, 0) + result.net
        self._rows = None

    def action(self, player_id: str) -> int:
        """Total bet so far (bets, doubles, splits and insurance)."""
        return self._action.get(player_id, 0)

    def standing(self, player_id: str) -> int:
        """Total won (positive) or lost (negative) so far."""
        return self._standing.get(player_id, 0)

    def restore(self, totals: dict[str, tuple[int, int]]) -> None:
        """Take back tallies saved from ``action`` and ``standing`` (a table resuming)."""
        for player, (action, net) in totals.items():
            self._action[player] = action
            self._standing[player] = net
        self._rows = None

    def rows(self) -> tuple[tuple[str, int, int], ...]:
        """``(player, action, standing)`` for each player, in ``players`` order: what a
        table's stored document keeps. Made once per change (``record``, ``restore``): a
        table saves its document on every bet, and the tallies change only at settlement."""
        if self._rows is None:
            self._rows = tuple(
                (player, action, self._standing[player]) for player, action in self._action.items()
            )
        return self._rows

    @property
    def players(self) -> tuple[str, ...]:
        """Players in the order they first played."""
        return tuple(self._action)

    def announcement(self) -> str:
        """What the dealer says at a shuffle: one "action/standing" line per player."""
        return "\n".join(
            f"{player}: action {self.action(player)}, standing {self.standing(player):+d}"
            for player in self.players
        )
