"""Accounts a moderator judges one person's, linked in the moderator's server, and the
server's log of links, unlinks and lifted breaks.

A link holds in the server whose admin made it, and only there: there the linked
accounts share one ``/daily`` claim, a day's losses and the stricter of each one's own
limits (db.ops.play_limits reads the group). Nothing of a link is written to a player's
own limits, so an unlink leaves each account with exactly the limits its player set,
and another server's admin cannot reach them.
"""

from __future__ import annotations

from dataclasses import dataclass

from db.statements import Op, Query


def group_of(user_id: int, guild_id: int | None) -> Op[tuple[int, ...]]:
    """The accounts linked with the player in ``guild_id``, theirs included, in id order
    (just the player where they are linked to nobody, or anywhere: ``guild_id`` None)."""
    if guild_id is None:
        return (user_id,)
    rows = yield Query(
        "SELECT l.user_id FROM play_links l JOIN play_links me"
        " ON me.guild_id = l.guild_id AND me.group_id = l.group_id"
        " WHERE me.guild_id = ? AND me.user_id = ? ORDER BY l.user_id",
        (guild_id, user_id),
    )
    return tuple(int(row[0]) for row in rows) or (user_id,)


def log(
    guild_id: int, user_id: int, other_id: int | None, action: str, actor: int, why: str, now: int
) -> Op[None]:
    """A moderation row of ``guild_id``: a link, an unlink or a lift."""
    yield Query(
        "INSERT INTO play_moderation (guild_id, user_id, other_id, action, actor_id, reason,"
        " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (guild_id, user_id, other_id, action, actor, why, now),
    )


def link(guild_id: int, user_id: int, other_id: int, actor: int, why: str, now: int) -> Op[bool]:
    """Make the two accounts (and the groups they are in here) one group in ``guild_id``;
    False if they already are."""
    rows = yield Query(
        "SELECT user_id, group_id FROM play_links WHERE guild_id = ? AND user_id IN (?, ?)",
        (guild_id, user_id, other_id),
    )
    groups = {int(row[0]): int(row[1]) for row in rows}
    if user_id in groups and groups.get(user_id) == groups.get(other_id):
        return False
    joined = min(user_id, other_id, *groups.values())
    for member in (user_id, other_id):
        yield Query(
            "INSERT INTO play_links (guild_id, user_id, group_id) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, user_id) DO NOTHING",
            (guild_id, member, joined),
        )
    old = [groups.get(user_id, joined), groups.get(other_id, joined)]
    yield Query(
        "UPDATE play_links SET group_id = ? WHERE guild_id = ? AND group_id IN (?, ?)",
        (joined, guild_id, *old),
    )
    yield from log(guild_id, user_id, other_id, "link", actor, why, now)
    return True


def unlink(guild_id: int, user_id: int, actor: int, why: str, now: int) -> Op[bool]:
    """Take the account out of its group in ``guild_id``; False if it is linked to nobody
    here. Each account keeps its own limits, as its player set them."""
    members = yield from group_of(user_id, guild_id)
    if len(members) < 2:
        return False
    # A group of one is no group: the last other member leaves it too.
    leaving = members if len(members) == 2 else (user_id,)
    for member in leaving:
        yield Query("DELETE FROM play_links WHERE guild_id = ? AND user_id = ?", (guild_id, member))
    yield from log(guild_id, user_id, None, "unlink", actor, why, now)
    return True


@dataclass(frozen=True, slots=True)
class ModerationEntry:
    """One link, unlink or lifted exclusion."""

    user_id: int
    other_id: int | None
    action: str
    actor_id: int
    reason: str
    created_at: int


def moderation_log(guild_id: int, user_id: int, limit: int) -> Op[list[ModerationEntry]]:
    """The latest moderation rows naming the player, newest first."""
    rows = yield Query(
        "SELECT user_id, other_id, action, actor_id, reason, created_at FROM play_moderation"
        " WHERE guild_id = ? AND (user_id = ? OR other_id = ?) ORDER BY id DESC LIMIT ?",
        (guild_id, user_id, user_id, limit),
    )
    return [
        ModerationEntry(
            int(r[0]),
            None if r[1] is None else int(r[1]),
            str(r[2]),
            int(r[3]),
            str(r[4]),
            int(r[5]),
        )
        for r in rows
    ]
