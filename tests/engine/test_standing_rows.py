"""A seat's tallies as the table's document keeps them: made once per change, never stale."""

from __future__ import annotations

from bot.engine import Standing
from bot.engine.settlement import PlayerResult, Settlement


def _settled(*players: PlayerResult) -> Settlement:
    return Settlement((), 17, False, (), (), players)


def test_rows_follow_every_settlement_and_restore() -> None:
    standing = Standing()
    assert standing.rows() == ()
    standing.record(_settled(PlayerResult("alice", 10, 20)))
    first = standing.rows()
    assert first == (("alice", 10, 10),)
    assert standing.rows() is first  # unchanged tallies: the same rows, not made again
    standing.record(_settled(PlayerResult("alice", 5, 0), PlayerResult("bob", 4, 4)))
    assert standing.rows() == (("alice", 15, 5), ("bob", 4, 0))
    standing.restore({"carol": (7, -7)})
    assert standing.rows() == (("alice", 15, 5), ("bob", 4, 0), ("carol", 7, -7))
