"""What /blackjack fairness shows: the shoe committed to now, and the last one revealed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.tables.table import Table


@dataclass(frozen=True, slots=True)
class Fairness:
    """What a player needs to check the shuffle: the current commitment, the previous seed."""

    #: SHA-256 (hex) of the current shoe's seed, published before its first card.
    commitment: str
    decks: int
    #: The channel's most recently retired shoe: its commitment and revealed seed, or None.
    previous_commitment: str | None
    previous_seed: str | None
    previous_decks: int | None
    #: The one command that checks the previous shoe ("" when there is none yet).
    verify_command: str


def fairness_of(table: Table, retired_decks: Mapping[str, int]) -> Fairness:
    """The table's current commitment, and the channel's last revealed seed with the
    one command that checks it (``python -m bot verify``)."""
    previous = table.previous_shoe
    seed = previous.seed_hex if previous is not None else None
    decks = None
    command = ""
    if previous is not None and seed:
        # The store keeps no deck count: this process remembers the shoes it retired;
        # a shoe retired before a restart is assumed to have had this table's decks.
        decks = table.previous_decks or retired_decks.get(previous.commitment, table.rules.decks)
        command = f"python -m bot verify --seed {seed} --decks {decks}"
    return Fairness(
        commitment=table.shoe.commitment,
        decks=table.shoe.decks,
        previous_commitment=previous.commitment if previous is not None else None,
        previous_seed=seed,
        previous_decks=decks,
        verify_command=command,
    )
