"""Sharding: which shards a process runs (SHARD_COUNT, SHARD_IDS) and which shard a guild's
events go to."""

from __future__ import annotations

from typing import Any

from bot.config import Config


def shard_options(config: Config, *, sharded: bool) -> dict[str, Any]:
    """SHARD_COUNT / SHARD_IDS as discord.py takes them: one shard_id, or several shard_ids.

    SHARD_COUNT without SHARD_IDS runs every shard (``shard_ids=None``) in one process.
    """
    if config.shard_count is None:
        return {}
    if sharded:
        ids = None if config.shard_ids is None else list(config.shard_ids)
        return {"shard_count": config.shard_count, "shard_ids": ids}
    shard_id = config.shard_ids[0] if config.shard_ids else None
    return {"shard_count": config.shard_count, "shard_id": shard_id}


def owned_shards(config: Config) -> tuple[int, ...] | None:
    """The shards this process runs when they are a subset of all; None when it runs them all."""
    if config.shard_count is None or config.shard_ids is None:
        return None
    if set(config.shard_ids) == set(range(config.shard_count)):
        return None
    return config.shard_ids


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's rule: a guild's events go to shard ``(guild_id >> 22) % shard_count``."""
    return (guild_id >> 22) % shard_count
