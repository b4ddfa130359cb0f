"""Gateway sharding as Discord documents it: which session gets which event.

``shard_id = (guild_id >> 22) % num_shards``; events without a guild go to shard 0
only; a session identified without ``shard`` is ``[0, 1]`` and gets everything.
"""

from __future__ import annotations

from typing import Any

#: Discord's ceiling on guilds one session may hold before it must shard (close 4011).
MAX_GUILDS_PER_SHARD = 2500
#: Events whose ``d`` is the guild itself, so the guild id is ``d.id``.
GUILD_OBJECT_EVENTS = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})


class InvalidShard(ValueError):
    """An IDENTIFY ``shard`` array Discord closes with 4010 Invalid shard."""


def shard_for(guild_id: int, num_shards: int) -> int:
    """The shard that receives ``guild_id``'s events when the bot runs ``num_shards``."""
    return (guild_id >> 22) % num_shards


def parse_shard(value: Any) -> tuple[int, int]:
    """``[shard_id, num_shards]`` from IDENTIFY (absent: ``(0, 1)``); raise InvalidShard."""
    if value is None:
        return (0, 1)
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise InvalidShard(f"shard must be [shard_id, num_shards], got {value!r}")
    shard_id, num_shards = value
    if num_shards < 1 or not 0 <= shard_id < num_shards:
        raise InvalidShard(f"shard {shard_id} is not in 0..{num_shards - 1}")
    return (shard_id, num_shards)


def event_guild_id(event: str, data: Any) -> int | None:
    """The guild an event belongs to, or None (DMs, user updates: shard 0 only)."""
    if not isinstance(data, dict):
        return None
    raw = data.get("id") if event in GUILD_OBJECT_EVENTS else data.get("guild_id")
    return int(raw) if raw is not None else None


def covers(shard: tuple[int, int], guild_id: int | None) -> bool:
    """Whether a session identified as ``shard`` receives events of ``guild_id``."""
    shard_id, num_shards = shard
    if guild_id is None:
        return shard_id == 0
    return shard_for(guild_id, num_shards) == shard_id
