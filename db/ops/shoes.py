"""Shoes: the commitment published when a shoe starts, the seed revealed when it is retired."""

from __future__ import annotations

from db.errors import UnknownShoe
from db.models import ShoeRecord, from_micros
from db.statements import Op, Query, Row

_COLUMNS = "id, guild_id, channel_id, commitment, seed_hex, created_at, retired_at"


def _shoe(row: Row) -> ShoeRecord:
    shoe_id, guild_id, channel_id, commitment, seed_hex, created_at, retired_at = row
    return ShoeRecord(
        int(shoe_id),
        int(guild_id),
        int(channel_id),
        commitment,
        seed_hex,
        from_micros(created_at),
        None if retired_at is None else from_micros(retired_at),
    )


def get_shoe(commitment: str) -> Op[ShoeRecord | None]:
    """The shoe with ``commitment``, or None."""
    rows = yield Query(f"SELECT {_COLUMNS} FROM shoes WHERE commitment = ?", (commitment,))
    return _shoe(rows[0]) if rows else None


def open_shoe(guild_id: int, channel_id: int, commitment: str, now: int) -> Op[ShoeRecord]:
    """Record a new shoe (or return the one already recorded with this commitment)."""
    recorded = yield from get_shoe(commitment)  # a round's shoe is recorded as it is made
    if recorded is not None:
        return recorded
    yield Query(
        "INSERT INTO shoes (guild_id, channel_id, commitment, created_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (commitment) DO NOTHING",
        (guild_id, channel_id, commitment, now),
    )
    shoe = yield from get_shoe(commitment)
    assert shoe is not None  # inserted just above, or already there
    return shoe


def reveal_seed(commitment: str, seed_hex: str, now: int) -> Op[ShoeRecord]:
    """Retire the shoe and publish its seed; revealing the same seed again changes nothing."""
    rows = yield Query(
        f"UPDATE shoes SET seed_hex = ?, retired_at = ? WHERE commitment = ? AND seed_hex IS NULL"
        f" RETURNING {_COLUMNS}",
        (seed_hex, now, commitment),
    )
    if rows:
        return _shoe(rows[0])
    shoe = yield from get_shoe(commitment)
    if shoe is None:
        raise UnknownShoe(commitment)
    if shoe.seed_hex != seed_hex:
        raise ValueError("that shoe's seed was already revealed, and it was a different seed")
    return shoe


def last_revealed_shoe(guild_id: int, channel_id: int) -> Op[ShoeRecord | None]:
    """The most recently retired shoe of a channel, with its seed, or None."""
    rows = yield Query(
        f"SELECT {_COLUMNS} FROM shoes WHERE guild_id = ? AND channel_id = ?"
        " AND seed_hex IS NOT NULL ORDER BY retired_at DESC, id DESC LIMIT 1",
        (guild_id, channel_id),
    )
    return _shoe(rows[0]) if rows else None
