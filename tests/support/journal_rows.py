"""Counting the store's transactions, and journal rows to write."""

from __future__ import annotations

import db


class Transactions:
    """A store observer that counts the transactions of each operation."""

    def __init__(self) -> None:
        self.count: dict[str, int] = {}

    def transaction(self, operation: str, seconds: float, failed: bool) -> None:
        self.count[operation] = self.count.get(operation, 0) + 1

    def round_settled(self, wagered: int, paid: int) -> None:
        pass

    def round_voided(self, refunded: int) -> None:
        pass


def row(round_id: int, player: str, action: str) -> db.TableAction:
    return db.TableAction(f"t{round_id}", round_id, player, action, None, 1_800_000_000.0)
