"""A live table as a stored document, and back.

Why the document exists: a table must outlive the process that runs it (a
deploy, a crash, a host reboot). The store commits the document in the same
transaction as the ledger rows of the change that produced it, so after any
stop the stored table and the ledger agree; the cards of a round in play come
from its journal (journal.py). The document holds everything but the round:
seats (players, bets, spots, last bets, action and standing), the shoe (seed,
position, continuation; the commitment is the seed's hash), deadlines as
absolute times, the settings, and where the table message is.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, Final

import orjson

import db
from bot.engine import Rules, Standing, shoe_from_dict
from bot.i18n import line_data, line_from
from bot.tables.players import Player
from bot.tables.side_bets import SideBetRules
from bot.tables.snapshot import TablePhase
from bot.tables.table import SeatState, Table, Timers

#: The document's format; a document of another format cannot be resumed (it is voided).
FORMAT: Final = 1


class UnreadableTable(ValueError):
    """A stored table this code cannot resume; the text says why, for the players."""


def _seat(seat: SeatState) -> dict[str, Any]:
    return {
        "user": seat.player.user_id,
        "name": seat.player.name,
        "bet": seat.bet,
        "spots": seat.spots,
        "leaving": seat.leaving,
        "deadline": seat.deadline,
        "standing": seat.standing.rows(),
        "last_net": seat.last_net,
        "side": seat.side,
    }


def _lines(lines: Sequence[str]) -> list[Any]:
    """A table's lines as the document keeps them: each message with its id and
    parameters (``bot.i18n.line_data``), so a resumed table says them in its language."""
    return [line_data(line) for line in lines]


#: Each line tuple's JSON, by the tuple (a table keeps its last round's lines, a tuple,
#: through every bet of the next round): written once, then put in each document as it is.
_WRITTEN: dict[int, tuple[Sequence[str], orjson.Fragment]] = {}
_WRITTEN_KEPT: Final = 4096


def _lines_written(lines: tuple[str, ...]) -> orjson.Fragment:
    """``_lines(lines)`` as JSON, kept for the same tuple."""
    known = _WRITTEN.get(id(lines))
    if known is not None and known[0] is lines:
        return known[1]
    written = orjson.Fragment(orjson.dumps(_lines(lines)))
    if len(_WRITTEN) >= _WRITTEN_KEPT:
        _WRITTEN.clear()
    _WRITTEN[id(lines)] = (lines, written)
    return written


@lru_cache(maxsize=256)
def rules_dict(rules: Rules) -> dict[str, Any]:
    """``rules.to_dict()``, made once per rule set (a frozen value): every bet saves the
    table's document, and ``dataclasses.asdict`` cost half of writing it. Read only."""
    return rules.to_dict()


def table_document(table: Table, mode_state: Any = None) -> str:
    """The table as JSON text (the round in play is in its journal, not here).

    orjson (discord.py's speed extra, a dependency) writes it about five times faster than
    the standard library; ``restore_table`` reads either.
    """
    return orjson.dumps(
        {
            "format": FORMAT,
            "table_id": table.table_id,
            "host": table.host_id,
            "preset": table.preset,
            "rules": rules_dict(table.rules),
            "timers": [table.timers.bet_s, table.timers.action_s, table.timers.idle_close_s],
            "shoe": table.shoe.to_dict(),
            "previous_decks": table.previous_decks,
            "idle_since": table.idle_since,
            "seats": [_seat(seat) for seat in table.seats],
            "phase": table.phase.value,
            "round_no": table.round_no,
            "deadline": table.deadline,
            "events": _lines(table.events),
            "last_results": _lines_written(table.last_results),
            "last_summary": _lines_written(table.last_summary),
            "last_owners": list(table.last_owners),
            "shuffle_notice": _lines_written(table.shuffle_notice),
            "last_bets": [[user, bet, spots] for user, (bet, spots) in table.last_bets.items()],
            "message_at": table.message_at,
            "side_bets": table.side_bets.to_dict() if table.side_bets.tables else None,
            "last_side": [[user, side] for user, side in table.last_side_bets.items()],
            "closing": line_data(table.closing),
            "mode": table.mode,
            "mode_state": mode_state,
            "practice": table.practice,
            "quiz": table.quiz,
        }
    ).decode()


def table_write(
    table: Table, shard_count: int, mode_state: Any = None, *, between_rounds: bool = False
) -> db.TableWrite:
    """What the store keeps of the table (``between_rounds``: as if its round were closed);
    ``mode_state``: its game mode's state, as the mode writes it."""
    return db.TableWrite(
        table_id=table.table_id,
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        message_id=table.message_id,
        round_id=None if between_rounds else table.round_id,
        shard_count=shard_count,
        state_json=table_document(table, mode_state),
        is_open=not table.closed,
    )


def _standing(rows: list[list[Any]]) -> Standing:
    standing = Standing()
    standing.restore({str(p): (int(action), int(net)) for p, action, net in rows})
    return standing


#: Reads a game mode's state for a table: ``(mode, data)`` to ``Table.mode_state``.
LoadModeState = Callable[[str, Any], Any]


def restore_table(
    stored: db.StoredTable, previous: db.ShoeRecord | None, load_mode: LoadModeState
) -> Table:
    """The table a stored document describes, before its round is replayed.

    UnreadableTable when the document cannot be read or comes from another format, or its
    game mode does not run here.
    """
    try:
        data = json.loads(stored.state_json)
    except ValueError:
        raise UnreadableTable("its saved state could not be read") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise UnreadableTable("its saved state is from an incompatible version of the bot")
    try:
        table = Table(
            table_id=stored.table_id,
            guild_id=stored.guild_id,
            channel_id=stored.channel_id,
            host_id=int(data["host"]),
            preset=str(data["preset"]),
            rules=Rules.from_dict(data["rules"]),
            timers=Timers(*(int(t) for t in data["timers"])),
            shoe=shoe_from_dict(data["shoe"]),
            previous_shoe=previous,
            previous_decks=data["previous_decks"],
            idle_since=float(data["idle_since"]),
        )
        table.seats.extend(_seat_from(seat_data) for seat_data in data["seats"])
        table.phase = TablePhase(data["phase"])
        table.round_no = int(data["round_no"])
        table.round_id = stored.round_id
        table.deadline = data["deadline"]
        table.message_id = stored.message_id
        table.message_at = data["message_at"]
        _restore_lines(table, data)
        table.last_bets = {int(u): (int(b), int(s)) for u, b, s in data["last_bets"]}
        table.side_bets = SideBetRules.from_dict(data.get("side_bets"))
        table.closing = line_from(data.get("closing", ""))
        table.mode = str(data.get("mode", "cash"))
        table.practice = bool(data.get("practice", False))
        quiz = data.get("quiz")
        table.quiz = None if quiz is None else (str(quiz[0]), int(quiz[1]))
        table.mode_state = load_mode(table.mode, data.get("mode_state"))
        table.last_side_bets = {
            int(user): {str(bet): int(stake) for bet, stake in side.items()}
            for user, side in data.get("last_side", [])
        }
    except (KeyError, TypeError, ValueError) as error:
        raise UnreadableTable(f"its saved state could not be read ({error})") from None
    return table


def _seat_from(seat_data: dict[str, Any]) -> SeatState:
    """A seat as the document keeps it."""
    seat = SeatState(Player(int(seat_data["user"]), str(seat_data["name"])))
    seat.bet, seat.spots = int(seat_data["bet"]), int(seat_data["spots"])
    seat.leaving = bool(seat_data["leaving"])
    seat.deadline = seat_data["deadline"]
    seat.standing = _standing(seat_data["standing"])
    seat.last_net = seat_data["last_net"]
    seat.side = {str(bet): int(stake) for bet, stake in seat_data.get("side", {}).items()}
    return seat


def _restore_lines(table: Table, data: dict[str, Any]) -> None:
    """The lines the table shows (kept as their messages, said in the reader's language)."""
    table.events = [line_from(line) for line in data["events"]]
    table.last_results = tuple(line_from(line) for line in data["last_results"])
    table.last_summary = tuple(line_from(line) for line in data["last_summary"])
    # A document from before whose lines were kept: the account is shown in its order.
    table.last_owners = tuple(str(owner) for owner in data.get("last_owners", ()))
    table.shuffle_notice = tuple(line_from(line) for line in data["shuffle_notice"])
