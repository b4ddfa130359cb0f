"""The playground's server, channels and players, kept beside a ``--db`` file between runs.

The chips and open tables in the database belong to these ids: a run that made new
ones would orphan the players and find every table's channel gone. A run that loads
the file makes the same server again, with the same ids, as Discord keeps them.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Named:
    """A channel or a player: its id and its name."""

    id: int
    name: str


@dataclass(slots=True)
class SavedWorld:
    """What makes the server again: its id, its channels, its players (the Croupier among
    them, in the order they joined), the Croupier's id."""

    guild: int
    croupier: int
    channels: list[Named] = field(default_factory=list)
    players: list[Named] = field(default_factory=list)


def world_file_for(database: Path) -> Path:
    """The file beside ``database`` that holds its world."""
    return database.with_name(database.name + ".world.json")


def load(path: Path) -> SavedWorld | None:
    """The world saved at ``path``; None when there is none yet."""
    if not path.exists():
        return None
    raw = json.loads(path.read_text(encoding="utf-8"))
    return SavedWorld(
        guild=int(raw["guild"]),
        croupier=int(raw["croupier"]),
        channels=[Named(int(c["id"]), str(c["name"])) for c in raw["channels"]],
        players=[Named(int(p["id"]), str(p["name"])) for p in raw["players"]],
    )


def save(path: Path, world: SavedWorld) -> None:
    """Write ``world`` to ``path`` whole (a new file moved over the old one)."""
    fresh = path.with_name(path.name + ".new")
    fresh.write_text(json.dumps(asdict(world), ensure_ascii=False, indent=1), encoding="utf-8")
    fresh.replace(path)
